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
 * URL that carries credentials: a login or password, or a query string (gateways take
 * their API keys as `?api_key=…`).
 */
export function secretFieldsOf(settings: Readonly<VendorSettings>, declared: readonly string[]): string[] {
  return Object.keys(settings).filter((k) => declared.includes(k) || urlWithCredentials(settings[k]) !== undefined);
}

/** Whether each secret field of a vendor is set: the declared ones, present or not, and URLs with credentials. */
export function secretStates(settings: Readonly<VendorSettings>, declared: readonly string[]): Record<string, 'set' | 'not_set'> {
  const states: Record<string, 'set' | 'not_set'> = {};
  for (const field of declared) states[field] = isSet(settings[field]) ? 'set' : 'not_set';
  for (const field of secretFieldsOf(settings, declared)) states[field] = isSet(settings[field]) ? 'set' : 'not_set';
  return states;
}

/**
 * The text of every secret of a vendor's settings, to be cut out of what its vendor answers
 * before that is stored: each secret field's text; of a URL, its password and (http URLs)
 * its query values; of an object (DKIM, fixed fields), each value of 12 characters or
 * more, so that a domain or a sender name of a few letters still reads in an error.
 */
export function secretValuesOf(settings: Readonly<VendorSettings>, declared: readonly string[]): string[] {
  const out: string[] = [];
  const collect = (value: unknown, nested: boolean): void => {
    if (typeof value === 'string') {
      if (!nested || value.length >= 12) out.push(value);
      const url = urlOf(value);
      if (url?.password) out.push(url.password, safeDecode(url.password));
      if (url && /^https?:$/.test(url.protocol)) out.push(...url.searchParams.values());
    } else if (typeof value === 'object' && value !== null) {
      for (const item of Object.values(value)) collect(item, true);
    }
  };
  for (const field of secretFieldsOf(settings, declared)) collect(settings[field], false);
  return [...new Set(out)].filter((v) => v !== '');
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export const MASK = '****';

/**
 * A secret as the admin API shows it: write-only, so never any part of its value. A URL
 * keeps its scheme, host, port and path, for an admin to see which server is set; its
 * login, password and every query value read ****. Anything else reads ****.
 */
export function maskSecret(value: unknown): string {
  const url = urlWithCredentials(value);
  if (!url) return MASK;
  if (url.username !== '') url.username = MASK;
  if (url.password !== '') url.password = MASK;
  const query = new URLSearchParams();
  for (const key of url.searchParams.keys()) query.set(key, MASK);
  url.search = query.toString().replaceAll('%2A', '*');
  return url.toString();
}

/**
 * What a PUT means by a secret field, given the stored value: the masked form unchanged
 * keeps the stored secret; a URL edited around its masked parts (a new host, the same
 * `****` login and password, a query value left at `****`) takes the stored login,
 * password and values back, so that a settings screen can change the host alone.
 */
export function restoreMasked(sent: unknown, stored: unknown): unknown {
  if (sent === maskSecret(stored)) return stored;
  const url = urlOf(sent);
  const old = urlOf(stored);
  if (!url || !old) return sent;
  if (url.username === MASK && url.password === MASK) {
    url.username = old.username;
    url.password = old.password;
  }
  const query = new URLSearchParams();
  for (const [key, value] of url.searchParams) query.append(key, value === MASK ? (old.searchParams.get(key) ?? value) : value);
  url.search = query.toString();
  return url.toString();
}

function isSet(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}

function urlWithCredentials(value: unknown): URL | undefined {
  const url = urlOf(value);
  return url && (url.username !== '' || url.password !== '' || url.search !== '') ? url : undefined;
}

function urlOf(value: unknown): URL | undefined {
  if (typeof value !== 'string' || !/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return undefined;
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
