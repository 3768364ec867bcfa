import type { AppleWalletSettings } from '../../providers/apple-wallet.settings.js';

/**
 * What a Patron pass says (docs/messaging-wallet.md, "The pass"): a store card with the
 * member's balance and identifier on the front, the identifier as a QR code for the
 * till, and the last message on the back. The message field carries a `changeMessage`,
 * which is how Wallet shows a message: when an updated pass changes the field's value,
 * the lock screen shows the change message with the new value in place of `%@`.
 */

export interface LoyaltyCard {
  /** The member's public identifier (phone, else loyalty_id); null: not a member. */
  readonly memberIdentifier: string | null;
  /** Minor units; null: not a member. */
  readonly balance: number | null;
}

export interface PassContentInput {
  readonly serialNumber: string;
  readonly authenticationToken: string;
  /** The base URL Wallet appends `/v1/…` to. */
  readonly webServiceUrl: string;
  readonly settings: AppleWalletSettings;
  readonly card: LoyaltyCard;
  readonly message: string | null;
}

export const MESSAGE_FIELD_KEY = 'message';

export function buildPassJson(input: PassContentInput): Record<string, unknown> {
  const { settings, card } = input;
  const member = card.memberIdentifier;
  const colours = {
    backgroundColor: settings.background_color,
    foregroundColor: settings.foreground_color,
    labelColor: settings.label_color,
  };
  return {
    formatVersion: 1,
    passTypeIdentifier: settings.pass_type_identifier,
    teamIdentifier: settings.team_identifier,
    organizationName: settings.organization_name,
    description: settings.description ?? `${settings.organization_name} loyalty card`,
    serialNumber: input.serialNumber,
    authenticationToken: input.authenticationToken,
    webServiceURL: input.webServiceUrl,
    // A loyalty card belongs to one customer: Wallet offers no "share" for it.
    sharingProhibited: true,
    ...(settings.logo_text !== undefined ? { logoText: settings.logo_text } : {}),
    ...Object.fromEntries(Object.entries(colours).flatMap(([key, hex]) => (hex === undefined ? [] : [[key, toRgb(hex)]]))),
    ...(member !== null
      ? { barcodes: [{ format: 'PKBarcodeFormatQR', message: member, messageEncoding: 'iso-8859-1', altText: member }] }
      : {}),
    storeCard: {
      primaryFields:
        card.balance !== null ? [{ key: 'balance', label: 'Balance', value: card.balance / 100, changeMessage: 'Balance: %@' }] : [],
      secondaryFields: member !== null ? [{ key: 'member', label: 'Member', value: member }] : [],
      backFields: [{ key: MESSAGE_FIELD_KEY, label: 'Message', value: input.message ?? '', changeMessage: '%@' }],
    },
  };
}

/** '#1a2B3c' → 'rgb(26, 43, 60)', the form every Wallet version reads. */
export function toRgb(hex: string): string {
  const value = Number.parseInt(hex.slice(1), 16);
  return `rgb(${(value >> 16) & 255}, ${(value >> 8) & 255}, ${value & 255})`;
}
