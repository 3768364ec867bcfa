import { TtlCache } from '../../ttl-cache.js';
import type { IdentityService } from '../identity/index.js';
import { candidatesFor, mayBeOffered, toOffer, type OfferContext, type Popup, type PopupOffer } from './domain/popup.js';
import type { PopupsDeps } from './popups.service.js';
import { toPopup } from './popups.service.js';
import * as repo from './popups.repo.js';

export type OffersDeps = PopupsDeps & { readonly identity: Pick<IdentityService, 'findDevice'> };

/** A device gets at most one popup a minute, whichever answer carries it (contract-notes "Beyond interface.md"). */
export const OFFER_INTERVAL_MS = 60_000;
/**
 * How long a process keeps a shop's active popups. An admin change drops them at once in
 * the thread that made it (docs/settings-caches.md); other processes see it within this.
 */
export const ACTIVE_POPUPS_TTL_MS = 1_000;
const MAX_CACHED_SHOPS = 10_000;

export type MarkOutcome = 'marked' | 'already' | 'unknown_popup' | 'unknown_device';

/**
 * The popup an answer carries (docs/popups.md "Which popup a device gets"), and the
 * devices' reports of popups shown and clicked. The shop's active popups are kept in
 * memory, so that a request of a shop with no popup for the device's stream and screen
 * reads nothing; only a request a popup could match reads what the device was shown,
 * its profile's segments, and records the offer.
 */
export class PopupOffersService {
  private readonly active: TtlCache<string, readonly Popup[]>;

  constructor(private readonly deps: OffersDeps) {
    this.active = new TtlCache({ max: MAX_CACHED_SHOPS, ttlMs: ACTIVE_POPUPS_TTL_MS, clock: deps.clock });
  }

  private get db() {
    return this.deps.db.db;
  }

  /** Settings listener: an admin changed something. */
  forgetCachedSettings(): void {
    this.active.clear();
  }

  /**
   * The popup to offer the device now, recorded as offered; undefined when none matches,
   * the device was offered one less than a minute ago, or the device is unknown.
   */
  async offerFor(shopId: string, did: string | undefined, context: OfferContext): Promise<PopupOffer | undefined> {
    if (did === undefined || did === '') return undefined;
    const now = this.deps.clock.now();
    const popups = await this.active.getOrLoad(shopId, async () =>
      (await repo.listActivePopups(this.db, shopId, now)).map(toPopup).filter((p) => mayBeOffered(p, now)),
    );
    if (popups.length === 0) return undefined;
    const candidates = candidatesFor(popups, context, now);
    if (candidates.length === 0) return undefined;
    const shown = await repo.shownAmong(
      this.db,
      shopId,
      did,
      candidates.map((p) => p.id),
    );
    const unseen = candidates.filter((p) => !shown.has(p.id));
    if (unseen.length === 0) return undefined;
    const device = await this.deps.identity.findDevice(shopId, did);
    if (!device) return undefined;
    let segments: ReadonlySet<number> = new Set();
    if (unseen.some((p) => p.segmentId !== null)) {
      segments = new Set((await this.deps.segments.segmentIdsOf(shopId, [device.profileId])).get(device.profileId) ?? []);
    }
    const popup = unseen.find((p) => p.segmentId === null || segments.has(p.segmentId));
    if (!popup) return undefined;
    const claimed = await repo.claimOffer(this.db, { shop_id: shopId, did, popup_id: popup.id, offered_at: now }, now - OFFER_INTERVAL_MS);
    return claimed ? toOffer(popup) : undefined;
  }

  /** POST /popup/showed: the device was shown the popup, counted once; never offered it again. */
  markShown(shopId: string, did: string, popupId: number): Promise<MarkOutcome> {
    return this.mark('popup_shows', shopId, did, popupId);
  }

  /** POST /popup/clicked: the device clicked the popup's button or link, counted once. */
  markClicked(shopId: string, did: string, popupId: number): Promise<MarkOutcome> {
    return this.mark('popup_clicks', shopId, did, popupId);
  }

  private async mark(table: 'popup_shows' | 'popup_clicks', shopId: string, did: string, popupId: number): Promise<MarkOutcome> {
    if (!(await this.deps.identity.findDevice(shopId, did))) return 'unknown_device';
    const outcome = await repo.markDevice(this.db, table, { shop_id: shopId, popup_id: popupId, did, created_at: this.deps.clock.now() });
    return outcome === 'unknown' ? 'unknown_popup' : outcome;
  }
}
