import type { InjectOptions } from 'fastify';
import { SDK_GET_HEADERS, SDK_USER_AGENT, sdkGetQuery, sdkParamPairs, sdkPostQuery, type SdkParam, type SdkValue } from './sdk-wire.js';

/**
 * The requests the platform's React Native SDK (rn-sdk 4.0.x, MainSDK.js and
 * lib/client.js) makes for the profile group, tracking (track, trackEvent) and search,
 * rebuilt byte for byte from what its source does, so that contract tests send exactly
 * what an app sends:
 * - every request carries the stored `did`, and `seance` and `sid` (the same value),
 *   added after the call's own parameters;
 * - with `Content-Type: application/json` a POST sends every parameter as the JSON body
 *   and no query string; `segments/get` is a GET that sends them both in the query
 *   string (axios leaves null values out) and as a JSON body;
 * - with the default `application/x-www-form-urlencoded` a POST sends the parameters in
 *   the query string and no body (mobile_push_tokens), and a GET sends them in the query
 *   string through the SDK's own encoder, where a null is the text `null`;
 * - setProfile turns every object value (kids, auto, arrays) into JSON text first;
 * - a GET's objects and arrays go through the SDK's encoder (sdk-wire.ts sdkParamPairs).
 */

export interface SdkState {
  readonly shopId: string;
  readonly did: string;
  readonly sid: string;
}

const JSON_HEADERS = { 'content-type': 'application/json', 'user-agent': SDK_USER_AGENT };

type Params = Record<string, unknown>;

function withSession(params: Params, state: SdkState): Params {
  return { ...params, did: state.did, seance: state.sid, sid: state.sid };
}

/** The params as pairs, axios leaving null and undefined out. */
function present(params: Params): Array<[string, SdkValue]> {
  return Object.entries(params)
    .filter(([, value]) => value !== null && value !== undefined)
    .map(([key, value]) => [key, value as SdkValue]);
}

/** The SDK's encoder for a GET: every value, a null as the text `null` (sdk-wire.ts). */
function allPairs(params: Params): Array<[string, SdkValue]> {
  return Object.entries(params).map(([key, value]) => [key, (value ?? null) as SdkValue]);
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
  const query = sdkGetQuery(allPairs(withSession({ shop_id: state.shopId, stream: null }, state)));
  return { method: 'GET', url: `/profile?${query}`, headers: { ...SDK_GET_HEADERS } };
}

/** sdk.setPushTokenNotification(token) on Android */
export function pushTokenRequest(state: SdkState, token: string, platform = 'android'): InjectOptions {
  const query = sdkPostQuery(present(withSession({ shop_id: state.shopId, stream: null, token, platform }, state)));
  return { method: 'POST', url: `/mobile_push_tokens?${query}`, headers: { ...SDK_GET_HEADERS } };
}

/** sdk.segments(action, data) */
export function segmentsRequest(state: SdkState, action: 'add' | 'remove' | 'get', data: Params = {}): InjectOptions {
  const params = withSession({ shop_id: state.shopId, stream: null, segment: null, ...data }, state);
  if (action === 'get') {
    return { method: 'GET', url: `/segments/get?${sdkPostQuery(present(params))}`, headers: JSON_HEADERS, payload: JSON.stringify(params) };
  }
  return { method: 'POST', url: `/segments/${action}`, headers: JSON_HEADERS, payload: JSON.stringify(params) };
}

/** sdk.subscriptions('manage', data) */
export function manageSubscriptionsRequest(state: SdkState, data: Params): InjectOptions {
  const body = withSession({ shop_id: state.shopId, stream: null, ...data }, state);
  return { method: 'POST', url: '/subscriptions/manage', headers: JSON_HEADERS, payload: JSON.stringify(body) };
}

/** sdk.getLoyaltyStatus(identifier): a GET through the SDK's encoder. */
export function loyaltyStatusRequest(state: SdkState, identifier: string): InjectOptions {
  const query = sdkGetQuery(allPairs(withSession({ shop_id: state.shopId, identifier }, state)));
  return { method: 'GET', url: `/loyalty/members/status?${query}`, headers: { ...SDK_GET_HEADERS } };
}

/** sdk.loyaltyJoin(params): JSON with shop_id, stream and the caller's params. */
export function loyaltyJoinRequest(state: SdkState, params: Params): InjectOptions {
  const body = withSession({ shop_id: state.shopId, stream: null, ...params }, state);
  return { method: 'POST', url: '/loyalty/members/join', headers: JSON_HEADERS, payload: JSON.stringify(body) };
}

/**
 * sdk.notificationDelivered / notificationOpened / notificationClicked(options): JSON with
 * shop_id, stream and `{code, type}` as the SDK read them from the push (`data.id`,
 * `data.type`); an undefined one is left out of the JSON, as JSON.stringify does.
 */
export function trackPushRequest(
  state: SdkState,
  event: 'delivered' | 'opened' | 'clicked',
  options: { code?: unknown; type?: unknown },
): InjectOptions {
  const body = withSession({ shop_id: state.shopId, stream: null, ...options }, state);
  return { method: 'POST', url: `/track/${event}`, headers: JSON_HEADERS, payload: JSON.stringify(body) };
}

/** What trackSource(source, code) stored, which the SDK adds as `source` for 48 hours. */
export interface SdkSource {
  readonly from: string;
  readonly code: string;
}

/** The second argument of sdk.trackEvent (lib/buildTrackCustomEventParams.js). */
export interface TrackEventParams {
  readonly time?: number;
  readonly category?: string;
  readonly label?: string;
  readonly value?: number;
  readonly customFields?: Readonly<Record<string, string | number | boolean>>;
}

/**
 * sdk.trackEvent(event, params): JSON with shop_id, stream, the event and its fields;
 * custom fields both at the top level and again as `payload`; then, within 48 hours of a
 * trackSource, `source: {from, code}`; the identity last.
 */
export function trackEventRequest(state: SdkState, event: string, params: TrackEventParams = {}, source?: SdkSource): InjectOptions {
  const fields: Params = { event };
  for (const key of ['time', 'category', 'label', 'value'] as const) if (params[key] !== undefined) fields[key] = params[key];
  const custom = params.customFields ?? {};
  if (Object.keys(custom).length > 0) Object.assign(fields, custom, { payload: { ...custom } });
  if (source !== undefined) fields.source = { from: source.from, code: source.code };
  const body = withSession({ shop_id: state.shopId, stream: null, ...fields }, state);
  return { method: 'POST', url: '/push/custom', headers: JSON_HEADERS, payload: JSON.stringify(body) };
}

/**
 * sdk.track(event, options) once lib/tracker.js's convertParams has built the event's
 * fields (`items`, `order_id`, `order_price` …): JSON with shop_id, stream, those fields,
 * then the identity.
 */
export function trackRequest(state: SdkState, fields: Params): InjectOptions {
  const body = withSession({ shop_id: state.shopId, stream: null, ...fields }, state);
  return { method: 'POST', url: '/push', headers: JSON_HEADERS, payload: JSON.stringify(body) };
}

/** sdk.search(options): a GET of shop_id, stream and the caller's options through the SDK's encoder. */
export function searchRequest(state: SdkState, options: { readonly [key: string]: SdkParam }): InjectOptions {
  const pairs = sdkParamPairs({ shop_id: state.shopId, stream: null, ...options, did: state.did, seance: state.sid, sid: state.sid });
  return { method: 'GET', url: `/search?${sdkGetQuery(pairs)}`, headers: { ...SDK_GET_HEADERS } };
}

/** sdk.recommend(code, options): a GET of shop_id, stream, recommender_code and the caller's options through the SDK's encoder. */
export function recommendRequest(state: SdkState, code: string, options: { readonly [key: string]: SdkParam }): InjectOptions {
  const pairs = sdkParamPairs({
    shop_id: state.shopId,
    stream: null,
    recommender_code: code,
    ...options,
    did: state.did,
    seance: state.sid,
    sid: state.sid,
  });
  return { method: 'GET', url: `/recommend/${code}?${sdkGetQuery(pairs)}`, headers: { ...SDK_GET_HEADERS } };
}

/** The second argument of sdk.track('recone_view' | 'recone_click', data), as an app passes it. */
export interface ReconeData {
  readonly id?: unknown;
  readonly inventory?: unknown;
  readonly position?: unknown;
  readonly recommended_by?: unknown;
}

/**
 * sdk.track('recone_view' | 'recone_click', data): lib/tracker.js's convertParams sets
 * `campaign` to data.id, `inventory` and `position` as given (an undefined one is left
 * out of the JSON, as JSON.stringify does) and `recommended_by` only when it is truthy.
 */
export function reconeRequest(state: SdkState, event: 'recone_view' | 'recone_click', data: ReconeData): InjectOptions {
  const fields: Params = { event, campaign: data.id, inventory: data.inventory, position: data.position };
  if (data.recommended_by) fields.recommended_by = data.recommended_by;
  return trackRequest(state, fields);
}
