import type { InjectOptions } from 'fastify';

/**
 * The requests the platform's React Native SDK (rn-sdk 4.0.x, MainSDK.js and
 * lib/client.js) makes for the profile group, rebuilt byte for byte from what its source
 * does, so that contract tests send exactly what an app sends:
 * - every request carries the stored `did`, and `seance` and `sid` (the same value),
 *   added after the call's own parameters;
 * - with `Content-Type: application/json` a POST sends every parameter as the JSON body
 *   and no query string; `segments/get` is a GET that sends them both in the query
 *   string (axios leaves null values out) and as a JSON body;
 * - with the default `application/x-www-form-urlencoded` a POST sends the parameters in
 *   the query string and no body (mobile_push_tokens), and a GET sends them in the query
 *   string through the SDK's own encoder, where a null is the text `null`;
 * - setProfile turns every object value (kids, auto, arrays) into JSON text first.
 */

export interface SdkState {
  readonly shopId: string;
  readonly did: string;
  readonly sid: string;
}

const USER_AGENT = 'ReactNative Android SDK v4.0.18';
const JSON_HEADERS = { 'content-type': 'application/json', 'user-agent': USER_AGENT };
const FORM_HEADERS = { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': USER_AGENT };

type Params = Record<string, unknown>;

function withSession(params: Params, state: SdkState): Params {
  return { ...params, did: state.did, seance: state.sid, sid: state.sid };
}

/** axios's serialisation of `params`: null and undefined left out, values percent-encoded (`:` `,` `[` `]` `$` kept, space as `+`). */
function axiosQuery(params: Params): string {
  return Object.entries(params)
    .filter(([, value]) => value !== null && value !== undefined)
    .map(([key, value]) => `${axiosEncode(key)}=${axiosEncode(String(value as string))}`)
    .join('&');
}

function axiosEncode(text: string): string {
  return encodeURIComponent(text)
    .replace(/%3A/gi, ':')
    .replace(/%24/g, '$')
    .replace(/%2C/gi, ',')
    .replace(/%20/g, '+')
    .replace(/%5B/gi, '[')
    .replace(/%5D/gi, ']');
}

/** The SDK's DataEncoder for a GET: `encodeURIComponent` of each value (a null is `null`), then decodeURI, then axios. */
function sdkGetQuery(params: Params): string {
  const once = Object.fromEntries(
    Object.entries(params).map(([key, value]) => [key, decodeURI(encodeURIComponent(String(value)))]),
  );
  return axiosQuery(once);
}

/** sdk.setProfile(params) */
export function setProfileRequest(state: SdkState, params: Params): InjectOptions {
  const sent: Params = {};
  for (const [key, value] of Object.entries(params)) sent[key] = typeof value === 'object' ? JSON.stringify(value) : value;
  const body = withSession({ shop_id: state.shopId, stream: null, ...sent }, state);
  return { method: 'POST', url: '/profile/set', headers: JSON_HEADERS, payload: JSON.stringify(body) };
}

/** sdk.getProfile() */
export function getProfileRequest(state: SdkState): InjectOptions {
  const query = sdkGetQuery(withSession({ shop_id: state.shopId, stream: null }, state));
  return { method: 'GET', url: `/profile?${query}`, headers: FORM_HEADERS };
}

/** sdk.setPushTokenNotification(token) on Android */
export function pushTokenRequest(state: SdkState, token: string, platform = 'android'): InjectOptions {
  const query = axiosQuery(withSession({ shop_id: state.shopId, stream: null, token, platform }, state));
  return { method: 'POST', url: `/mobile_push_tokens?${query}`, headers: FORM_HEADERS };
}

/** sdk.segments(action, data) */
export function segmentsRequest(state: SdkState, action: 'add' | 'remove' | 'get', data: Params = {}): InjectOptions {
  const params = withSession({ shop_id: state.shopId, stream: null, segment: null, ...data }, state);
  if (action === 'get') {
    return { method: 'GET', url: `/segments/get?${axiosQuery(params)}`, headers: JSON_HEADERS, payload: JSON.stringify(params) };
  }
  return { method: 'POST', url: `/segments/${action}`, headers: JSON_HEADERS, payload: JSON.stringify(params) };
}

/** sdk.subscriptions('manage', data) */
export function manageSubscriptionsRequest(state: SdkState, data: Params): InjectOptions {
  const body = withSession({ shop_id: state.shopId, stream: null, ...data }, state);
  return { method: 'POST', url: '/subscriptions/manage', headers: JSON_HEADERS, payload: JSON.stringify(body) };
}
