import crypto from 'node:crypto';
import type { Clock } from '../../../clock.js';
import type { DbHandle } from '../../../db/create-db.js';
import { AppError } from '../../../errors.js';
import type { IdentityService, MergeParticipant } from '../../identity/index.js';
import type { LoyaltyService } from '../../loyalty/index.js';
import type { ShopsService } from '../../shops/index.js';
import type { AppleWalletSettings } from '../providers/apple-wallet.settings.js';
import type { WalletMessage } from '../providers/provider.js';
import type { LoyaltyCard } from './domain/pass-content.js';
import { hashSecret, secretMatches } from '../../shops/index.js';
import { notModifiedSince, parseUpdateTag } from './domain/web-service.js';
import { buildPkpass, PassBuildError } from './pass-builder.js';
import * as repo from './wallet.repo.js';

/**
 * Where the wallet channel's settings come from: the messaging engine's channel settings
 * (secrets opened), for the vendor `apple_wallet`; undefined when the shop has not set
 * the channel up. The messaging module passes it in (module.ts).
 */
export type WalletSettingsSource = (shopId: string) => Promise<AppleWalletSettings | undefined>;

export interface WalletDeps {
  readonly db: DbHandle;
  readonly clock: Clock;
  /** This server's base URL as devices reach it (config PATRON_PUBLIC_URL): the passes' webServiceURL. */
  readonly publicUrl: string;
  readonly shops: Pick<ShopsService, 'requireShop'>;
  readonly identity: Pick<IdentityService, 'getProfile' | 'currentProfileId'>;
  readonly loyalty: Pick<LoyaltyService, 'findMember' | 'balanceAt'>;
  /** The shop's apple_wallet settings: the messaging engine keeps them with its channels' (sealed). */
  readonly settings: WalletSettingsSource;
}

export interface IssuedPass {
  readonly serialNumber: string;
  readonly passTypeIdentifier: string;
  /** The signed .pkpass (application/vnd.apple.pkpass). */
  readonly pkpass: Buffer;
}

export interface PassKey {
  readonly shopId: string;
  readonly passTypeId: string;
  readonly serialNumber: string;
  /** The token of `Authorization: ApplePass <token>`; undefined when none was sent. */
  readonly token: string | undefined;
}

export type LatestPass =
  | { readonly kind: 'unauthorized' }
  | { readonly kind: 'not_modified'; readonly updatedAt: number }
  | { readonly kind: 'pass'; readonly updatedAt: number; readonly pkpass: Buffer };

/** Passes one device may list at once (GET …/registrations/{passTypeIdentifier}). */
export const MAX_SERIALS_LISTED = 1000;
const NOT_CONFIGURED = 'The wallet channel of the shop is not configured.';
/** Compared when no pass matches, so that an unknown serial takes as long as a wrong token. */
const NO_PASS_HASH = hashSecret('no pass has this token');

/**
 * Apple Wallet passes (docs/messaging-wallet.md): issuing a profile's loyalty pass, the
 * PassKit web service's registrations and updates, and the engine's entry point,
 * `deliverWalletMessage`, which puts a message on the passes before the pushes go out.
 */
export class WalletService {
  constructor(private readonly deps: WalletDeps) {}

  /** The merged profile's passes are the survivor's. */
  mergeParticipant(): MergeParticipant {
    return { name: 'wallet passes', merge: (trx, shopId, fromId, intoId) => repo.moveProfilePasses(trx, shopId, fromId, intoId) };
  }

  private get db() {
    return this.deps.db.db;
  }

  /**
   * Issues a new pass to a profile: a fresh serial number and authentication token, the
   * token's hash stored, the token itself only inside the returned file. Apple never lets
   * a pass's token change, and we cannot rebuild a token from its hash, so every call
   * issues another pass; passes issued earlier keep receiving updates.
   */
  async issuePass(shopId: string, profileId: number): Promise<IssuedPass> {
    await this.deps.shops.requireShop(shopId);
    const settings = await this.requireSettings(shopId);
    const liveId = await this.deps.identity.currentProfileId(shopId, profileId);
    if (liveId === undefined) throw new AppError('NOT_FOUND', 'Profile not found.');
    const serialNumber = crypto.randomBytes(16).toString('base64url');
    const token = crypto.randomBytes(32).toString('base64url');
    const stamp = wholeSecond(this.deps.clock.now());
    const pkpass = await this.build(shopId, settings, { serialNumber, token, profileId: liveId, message: null });
    await repo.insertPass(this.db, {
      shop_id: shopId,
      serial_number: serialNumber,
      pass_type_id: settings.pass_type_identifier,
      profile_id: liveId,
      token_hash: hashSecret(token),
      message: null,
      created_at: stamp,
      updated_at: stamp,
    });
    await this.deps.db.durable();
    return { serialNumber, passTypeIdentifier: settings.pass_type_identifier, pkpass };
  }

  /**
   * The engine's call for a wallet message (docs/messaging-wallet.md, "How a message
   * reaches a pass"): stores `text` on every pass of the profile, durably, and returns
   * one WalletMessage per device registration of those passes, for the `apple_wallet`
   * provider to push. An empty list: the profile has no pass on any device. The text
   * must be stored first: the push only makes the device fetch the pass.
   */
  async deliverWalletMessage(shopId: string, profileId: number, text: string): Promise<WalletMessage[]> {
    const liveId = (await this.deps.identity.currentProfileId(shopId, profileId)) ?? profileId;
    const stamp = wholeSecond(this.deps.clock.now());
    const deliveries = await this.db.transaction().execute(async (trx) => {
      const updated = await repo.setMessage(trx, shopId, liveId, text, stamp);
      return updated === 0 ? [] : repo.listDeliveries(trx, shopId, liveId);
    });
    await this.deps.db.durable();
    return deliveries.map((row) => ({ serialNumber: row.serial_number, pushToken: row.push_token, text }));
  }

  /**
   * The engine's address source for the wallet channel: one `{"serialNumber","pushToken"}`
   * (domain/outgoing.ts) per device registration of the profile's passes.
   */
  async addresses(shopId: string, profileId: number): Promise<string[]> {
    const rows = await repo.listDeliveries(this.db, shopId, profileId);
    return rows.map((row) => JSON.stringify({ serialNumber: row.serial_number, pushToken: row.push_token }));
  }

  /** A wallet delivery's dead address (APNs 410 for its push token): the token's registrations are dropped. */
  async forgetAddress(shopId: string, address: string): Promise<void> {
    let pushToken: unknown;
    try {
      pushToken = (JSON.parse(address) as { pushToken?: unknown } | null)?.pushToken;
    } catch {
      return;
    }
    if (typeof pushToken === 'string') await this.forgetPushToken(shopId, pushToken);
  }

  /** After APNs answered 410 for a push token: its registrations are dropped (the pass left the device). */
  async forgetPushToken(shopId: string, pushToken: string): Promise<number> {
    return repo.deleteRegistrationsByPushToken(this.db, shopId, pushToken);
  }

  /** PassKit "Register a Pass for Update Notifications": 'created' (201), 'exists' (200), or 'unauthorized' (401). */
  async registerDevice(key: PassKey, deviceLibraryId: string, pushToken: string): Promise<'created' | 'exists' | 'unauthorized'> {
    if (!(await this.authorize(key))) return 'unauthorized';
    const row = { shop_id: key.shopId, device_library_id: deviceLibraryId, pass_type_id: key.passTypeId, serial_number: key.serialNumber };
    const now = this.deps.clock.now();
    const created = await repo.insertRegistration(this.db, { ...row, push_token: pushToken, now });
    if (!created) await repo.updateRegistrationToken(this.db, row, pushToken, now);
    await this.deps.db.durable();
    return created ? 'created' : 'exists';
  }

  /** PassKit "Unregister a Pass for Update Notifications": 'removed' (200) or 'unauthorized' (401). */
  async unregisterDevice(key: PassKey, deviceLibraryId: string): Promise<'removed' | 'unauthorized'> {
    if (!(await this.authorize(key))) return 'unauthorized';
    await repo.deleteRegistration(this.db, {
      shop_id: key.shopId,
      device_library_id: deviceLibraryId,
      pass_type_id: key.passTypeId,
      serial_number: key.serialNumber,
    });
    await this.deps.db.durable();
    return 'removed';
  }

  /**
   * PassKit "Get the List of Updatable Passes": the device's passes of the type changed
   * since the tag it was last given, and the new tag; undefined when none (204).
   */
  async updatedSerials(
    shopId: string,
    deviceLibraryId: string,
    passTypeId: string,
    passesUpdatedSince: string | undefined,
  ): Promise<{ serialNumbers: string[]; lastUpdated: string } | undefined> {
    const since = parseUpdateTag(passesUpdatedSince);
    const rows = await repo.listUpdatedSerials(this.db, shopId, deviceLibraryId, passTypeId, since, MAX_SERIALS_LISTED);
    if (rows.length === 0) return undefined;
    const lastUpdated = Math.max(...rows.map((row) => row.updated_at));
    return { serialNumbers: rows.map((row) => row.serial_number), lastUpdated: String(lastUpdated) };
  }

  /**
   * PassKit "Send an Updated Pass": the pass as it is now, rebuilt with the token the
   * device presented (the one inside its copy), or not_modified after If-Modified-Since.
   */
  async latestPass(key: PassKey, ifModifiedSince: string | undefined): Promise<LatestPass> {
    const pass = await this.authorize(key);
    if (!pass || key.token === undefined) return { kind: 'unauthorized' };
    const updatedAt = Number(pass.updated_at);
    if (notModifiedSince(ifModifiedSince, updatedAt)) return { kind: 'not_modified', updatedAt };
    const settings = await this.requireSettings(key.shopId);
    const profileId = (await this.deps.identity.currentProfileId(key.shopId, Number(pass.profile_id))) ?? Number(pass.profile_id);
    const pkpass = await this.build(key.shopId, settings, {
      serialNumber: pass.serial_number,
      token: key.token,
      profileId,
      message: pass.message,
    });
    return { kind: 'pass', updatedAt, pkpass };
  }

  /**
   * Whether devices may hold a pass of the shop: only then does a device log sent to its
   * web service mean anything (the log takes no credential; anything else is dropped).
   */
  async hasIssuedPasses(shopId: string): Promise<boolean> {
    return repo.shopHasPasses(this.db, shopId);
  }

  /** The pass when the token is its own, compared in constant time against the stored hash. */
  private async authorize(key: PassKey): Promise<repo.PassRow | undefined> {
    const pass = await repo.findPass(this.db, key.shopId, key.serialNumber);
    const matches = secretMatches(key.token ?? '', pass?.token_hash ?? NO_PASS_HASH);
    return pass && matches && key.token !== undefined && pass.pass_type_id === key.passTypeId ? pass : undefined;
  }

  private async requireSettings(shopId: string): Promise<AppleWalletSettings> {
    const settings = await this.deps.settings(shopId);
    if (!settings) throw new AppError('CONFLICT', NOT_CONFIGURED);
    return settings;
  }

  private async build(
    shopId: string,
    settings: AppleWalletSettings,
    pass: { serialNumber: string; token: string; profileId: number; message: string | null },
  ): Promise<Buffer> {
    const card = await this.loyaltyCard(shopId, pass.profileId);
    try {
      return buildPkpass({
        serialNumber: pass.serialNumber,
        authenticationToken: pass.token,
        webServiceUrl: webServiceUrl(this.deps.publicUrl, shopId),
        settings,
        card,
        message: pass.message,
      });
    } catch (error) {
      if (error instanceof PassBuildError) throw new AppError('CONFLICT', error.message);
      throw error;
    }
  }

  /** The member's identifier and balance, read through the loyalty service; nulls for a non-member. */
  private async loyaltyCard(shopId: string, profileId: number): Promise<LoyaltyCard> {
    const profile = await this.deps.identity.getProfile(shopId, profileId);
    const identifier = profile?.phone ?? profile?.loyaltyId ?? null;
    if (identifier === null) return { memberIdentifier: null, balance: null };
    const member = await this.deps.loyalty.findMember(shopId, identifier).catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'NOT_FOUND') return undefined;
      throw error;
    });
    if (!member || member.profileId !== profileId) return { memberIdentifier: null, balance: null };
    return { memberIdentifier: member.identifier, balance: await this.deps.loyalty.balanceAt(shopId, profileId, this.deps.clock.now()) };
  }
}

/** Wallet appends `/v1/devices/…` and `/v1/passes/…` to it; the shop is part of it so every lookup names its shop. */
export function webServiceUrl(publicUrl: string, shopId: string): string {
  return `${publicUrl}/wallet/${shopId}`;
}

/** Pass times are whole seconds (rounded up), as HTTP dates are: see repo.setMessage. */
function wholeSecond(ms: number): number {
  return Math.ceil(ms / 1000) * 1000;
}
