import { Type, type Static } from '@sinclair/typebox';

/**
 * The settings of the wallet channel's one vendor, `apple_wallet` (docs/messaging-wallet.md,
 * "Settings"), as PUT /admin/v1/shops/{shop_id}/channels/wallet takes them. One shape
 * serves both halves of the channel: the wallet service signs passes with it, the
 * provider sends pass-update pushes with it (the pass type certificate is also the APNs
 * client certificate).
 */

const PEM_CERTIFICATE = '^\\s*-----BEGIN CERTIFICATE-----[\\s\\S]+-----END CERTIFICATE-----\\s*$';
const PEM_PRIVATE_KEY =
  '^\\s*-----BEGIN (?:RSA |EC |ENCRYPTED )?PRIVATE KEY-----[\\s\\S]+-----END (?:RSA |EC |ENCRYPTED )?PRIVATE KEY-----\\s*$';
/** '#rrggbb': Wallet takes rgb() triples; the pass builder converts. */
const HEX_COLOUR = '^#[0-9a-fA-F]{6}$';
/** A PNG in base64: a few hundred kilobytes at most (Wallet shows small images). */
const PNG_BASE64 = { pattern: '^[A-Za-z0-9+/]+={0,2}$', maxLength: 400_000 };

export const AppleWalletSettingsSchema = Type.Object(
  {
    pass_type_identifier: Type.String({
      pattern: '^pass\\.[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)+$',
      maxLength: 255,
      description: 'The Pass Type ID registered with Apple (pass.com.example.loyalty); also the APNs topic',
    }),
    team_identifier: Type.String({ pattern: '^[A-Z0-9]{10}$', description: 'The Apple Developer team id' }),
    organization_name: Type.String({ minLength: 1, maxLength: 200, description: 'Shown on the lock screen and in Wallet' }),
    description: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'For accessibility; default "<organization_name> loyalty card"' }),
    ),
    signer_certificate: Type.String({ pattern: PEM_CERTIFICATE, maxLength: 20_000, description: 'The Pass Type ID certificate, PEM' }),
    signer_key: Type.String({ pattern: PEM_PRIVATE_KEY, maxLength: 20_000, description: 'Its private key, PEM (secret)' }),
    signer_key_passphrase: Type.Optional(
      Type.String({ maxLength: 1_000, description: "The key's passphrase when it is encrypted (secret)" }),
    ),
    wwdr_certificate: Type.String({ pattern: PEM_CERTIFICATE, maxLength: 20_000, description: 'Apple WWDR intermediate certificate, PEM' }),
    logo_text: Type.Optional(Type.String({ maxLength: 100, description: 'Text beside the logo' })),
    icon_png: Type.Optional(Type.String({ ...PNG_BASE64, description: 'icon.png in base64; default a plain square' })),
    logo_png: Type.Optional(Type.String({ ...PNG_BASE64, description: 'logo.png in base64' })),
    background_color: Type.Optional(Type.String({ pattern: HEX_COLOUR })),
    foreground_color: Type.Optional(Type.String({ pattern: HEX_COLOUR })),
    label_color: Type.Optional(Type.String({ pattern: HEX_COLOUR })),
    api_url: Type.Optional(
      Type.String({
        pattern: '^https://[^/?#\\s]+$',
        maxLength: 255,
        description: 'APNs base URL; default https://api.push.apple.com (a test server in tests)',
      }),
    ),
  },
  { additionalProperties: false },
);

export type AppleWalletSettings = Static<typeof AppleWalletSettingsSchema>;

/** Stored sealed and shown masked (provider.ts, `secretFields`). */
export const APPLE_WALLET_SECRET_FIELDS = ['signer_key', 'signer_key_passphrase'] as const;

export const APNS_PRODUCTION_URL = 'https://api.push.apple.com';
