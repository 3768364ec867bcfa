import type { InjectOptions } from 'fastify';
import { SDK_GET_HEADERS, sdkGetQuery, sdkPostQuery, type SdkValue } from './sdk-wire.js';

/**
 * The NPS calls as each SDK puts them on the wire (docs/nps.md "What the app sends"):
 * - React Native (`review(rate, channel, category, orderId, comment)`): a POST without
 *   JSON, so every parameter goes in the query string (escaped once by axios) and there is
 *   no body; `rate` is the number's text; an absent category, order id or comment is sent as
 *   an empty string; `did`, `seance` and `sid` follow; a null `stream` is left out. The
 *   lists are GETs through the SDK's encoder (a null `stream` as the text `null`).
 * - iOS (`review(rate:channel:category:orderId:comment:completion:)`): a JSON body of
 *   strings only (`rate` as text, an absent order id or comment as ""), with `stream`,
 *   `did` and `shop_id`; it needs a 2xx answer whose body is a JSON object.
 * - Android (`NPSRepositoryImpl.review`): a JSON body with `rate` a number, `order_id`
 *   and `comment` only when given, then the SDK's `shop_id`, `did`, `sid`, `seance`,
 *   `segment`, `stream` and, within two days of a push, `source` (`{from, code}`); it
 *   reads a 200 whose body is a JSON object or array.
 * Written from what the SDKs' sources do; their code is not reproduced.
 */

export interface Device {
  readonly shopId: string;
  readonly did: string;
  readonly sid: string;
}

export interface Review {
  readonly rate: number;
  readonly channel?: string;
  readonly category?: string;
  readonly orderId?: string;
  readonly comment?: string;
}

export function rnReview(device: Device, review: Review): InjectOptions {
  const params: Array<[string, SdkValue]> = [
    ['shop_id', device.shopId],
    ['rate', review.rate],
    ['channel', review.channel ?? 'android_app'],
    ['category', review.category ?? ''],
    ['order_id', review.orderId ?? ''],
    ['comment', review.comment ?? ''],
    ['did', device.did],
    ['seance', device.sid],
    ['sid', device.sid],
  ];
  return { method: 'POST', url: `/nps/create?${sdkPostQuery(params)}`, headers: { ...SDK_GET_HEADERS } };
}

export function rnList(device: Device, what: 'channels' | 'categories'): InjectOptions {
  const query = sdkGetQuery([
    ['shop_id', device.shopId],
    ['stream', null],
    ['did', device.did],
    ['seance', device.sid],
    ['sid', device.sid],
  ]);
  return { method: 'GET', url: `/nps/${what}?${query}`, headers: { ...SDK_GET_HEADERS } };
}

export function iosReview(device: Device, review: Review): InjectOptions {
  const body = {
    stream: 'ios',
    did: device.did,
    shop_id: device.shopId,
    rate: String(review.rate),
    channel: review.channel ?? 'ios_app',
    category: review.category ?? '',
    order_id: review.orderId ?? '',
    comment: review.comment ?? '',
  };
  return {
    method: 'POST',
    url: '/nps/create',
    headers: { 'content-type': 'application/json', accept: 'application/json', 'user-agent': 'REES46 iOS SDK' },
    // JSONSerialization's .prettyPrinted
    payload: JSON.stringify(body, null, 2),
  };
}

export function androidReview(device: Device, review: Review, source?: { from: string; code: string }): InjectOptions {
  const body = {
    rate: review.rate,
    channel: review.channel ?? 'android_app',
    category: review.category ?? '',
    ...(review.orderId !== undefined && { order_id: review.orderId }),
    ...(review.comment !== undefined && { comment: review.comment }),
    shop_id: device.shopId,
    did: device.did,
    sid: device.sid,
    seance: device.sid,
    segment: 'A',
    stream: 'android',
    ...(source !== undefined && { source }),
  };
  return {
    method: 'POST',
    url: '/nps/create',
    headers: { 'content-type': 'application/json', 'user-agent': 'Personalization SDK Android' },
    payload: JSON.stringify(body),
  };
}
