/**
 * The shape of a shop's channel settings (admin-api.md, "Messaging"; docs/messaging.md):
 * `{"provider": "<vendor>", ...settings}` for one vendor, or `{"<vendor>": {...}, ...}`
 * for several at once (mobile_push: fcm and apns); email also takes its core form
 * `{"smtp_url", "from"}` without `provider`. Stored as `{vendor: settings}`.
 */

export type VendorSettings = Record<string, unknown>;
export type ChannelVendors = Record<string, VendorSettings>;

export const RATE_FIELD = 'rate_per_second';
export const MAX_RATE_PER_SECOND = 100_000;

export type SplitSettings =
  | { readonly ok: true; readonly vendors: ChannelVendors; readonly ratePerSecond: number | null }
  | { readonly ok: false; readonly message: string };

export function splitChannelBody(
  body: Readonly<Record<string, unknown>>,
  known: readonly string[],
  defaultVendor: string | undefined,
): SplitSettings {
  const { [RATE_FIELD]: rate, ...rest } = body;
  let ratePerSecond: number | null = null;
  if (rate !== undefined && rate !== null) {
    if (typeof rate !== 'number' || !Number.isInteger(rate) || rate < 1 || rate > MAX_RATE_PER_SECOND) {
      return { ok: false, message: `\`${RATE_FIELD}\` must be an integer from 1 to ${MAX_RATE_PER_SECOND}.` };
    }
    ratePerSecond = rate;
  }
  const { provider, ...settings } = rest;
  if (provider !== undefined) {
    if (typeof provider !== 'string' || provider === '') return { ok: false, message: '`provider` must be a vendor name.' };
    return { ok: true, vendors: { [provider]: settings }, ratePerSecond };
  }
  const keys = Object.keys(settings);
  if (keys.length > 0 && keys.every((k) => known.includes(k) && isObject(settings[k]))) {
    return { ok: true, vendors: settings as ChannelVendors, ratePerSecond };
  }
  if (defaultVendor !== undefined && keys.length > 0) return { ok: true, vendors: { [defaultVendor]: settings }, ratePerSecond };
  const list = known.length > 0 ? known.join(', ') : 'none registered';
  return { ok: false, message: `The settings need \`provider\` (vendors: ${list}), or one object per vendor.` };
}

/** The settings as GET shows them: the PUT form, with secrets already masked by the caller. */
export function joinChannelBody(vendors: ChannelVendors, ratePerSecond: number | null): Record<string, unknown> {
  const names = Object.keys(vendors);
  const body: Record<string, unknown> =
    names.length === 1 && names[0] !== undefined ? { provider: names[0], ...vendors[names[0]] } : { ...vendors };
  if (ratePerSecond !== null) body[RATE_FIELD] = ratePerSecond;
  return body;
}

/**
 * The fields of one vendor's settings that are secret: those the vendor names, and any
 * URL that carries a password (the email core's `smtp_url`).
 */
export function secretFieldsOf(settings: Readonly<VendorSettings>, declared: readonly string[]): string[] {
  return Object.keys(settings).filter((k) => declared.includes(k) || urlWithPassword(settings[k]) !== undefined);
}

/** A secret as the admin API shows it: never in full. A URL keeps all but its password. */
export function maskSecret(value: unknown): string {
  const url = urlWithPassword(value);
  if (url) {
    url.password = '****';
    return url.toString();
  }
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  // The last four characters tell two keys apart, and only for a secret long enough that
  // four characters give nothing useful away.
  return text.length >= 16 ? `****${text.slice(-4)}` : '****';
}

function urlWithPassword(value: unknown): URL | undefined {
  if (typeof value !== 'string' || !/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return undefined;
  try {
    const url = new URL(value);
    return url.password ? url : undefined;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
