import type { InjectOptions } from 'fastify';

/**
 * A GET as the mobile SDK (rn-sdk lib/client.js `request`) sends it: its params in the
 * query string, each value run through encodeURIComponent, then decodeURI over the whole
 * string (which leaves `%40`, `%2C` … of the reserved characters as they are), then
 * encoded once more by axios (so `@` arrives as `%2540`); the device id, `seance` and
 * `sid` added; `Content-Type: application/x-www-form-urlencoded` and no body.
 */
export function sdkGet(
  path: string,
  params: Readonly<Record<string, string>>,
  device: { readonly did: string; readonly sid?: string },
): InjectOptions {
  const all: Record<string, string> = { ...params, did: device.did };
  if (device.sid !== undefined) {
    all.seance = device.sid;
    all.sid = device.sid;
  }
  const query = Object.entries(all)
    .map(([key, value]) => `${key}=${axiosEncode(decodeURI(encodeURIComponent(value)))}`)
    .join('&');
  return {
    method: 'GET',
    url: `${path}?${query}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'ReactNative Android SDK v4.0.18' },
  };
}

/** axios's parameter encoding: encodeURIComponent with a few characters left readable. */
function axiosEncode(value: string): string {
  return encodeURIComponent(value)
    .replace(/%3A/gi, ':')
    .replace(/%24/g, '$')
    .replace(/%2C/gi, ',')
    .replace(/%20/g, '+')
    .replace(/%5B/gi, '[')
    .replace(/%5D/gi, ']');
}
