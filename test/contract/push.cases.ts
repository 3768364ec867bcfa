import type { TrackedItem } from '../../src/modules/tracking/domain/items.js';
import { FORM_TYPE, type ContractRequest, type Json } from './harness.js';

/**
 * POST /push as data (interface.md endpoint 17, "Errors / POST /push", "Item
 * normalisation", contract-notes "Wire format" and "POST /push"). Placeholders:
 * {shop} {did} {sid} — a serving shop and a device of it; {inactive_shop}
 * {inactive_did}, {restricted_shop} {restricted_did}, {unpaid_shop} {unpaid_did} —
 * shops that do not serve, each with a device; {unknown_shop} — well-formed, no shop.
 */

export interface PushCase {
  readonly name: string;
  readonly request: ContractRequest;
  readonly status: number;
  /** The exact payload.message of a failure (a pattern where the text names a computed path). */
  readonly message?: string | RegExp;
  /** For a 200: the event stored for {did}, read back through services.tracking.listEvents. */
  readonly stored?: {
    readonly event?: string;
    readonly items?: readonly TrackedItem[];
    readonly itemCount?: number;
    /** Parameters the stored event must carry (admin-api.md, Events). */
    readonly params?: Readonly<Record<string, unknown>>;
    /** Parameters it must not carry. */
    readonly absent?: readonly string[];
  };
}

type Fields = Record<string, Json | undefined>;

const BASE: Fields = { shop_id: '{shop}', did: '{did}', event: 'cart', items: [{ id: 'p1' }] };

/** A JSON body: the base cart event with fields overridden (`undefined` leaves a field out). */
export function json(fields: Fields = {}, base: Fields = BASE): ContractRequest {
  const body: Record<string, Json> = {};
  for (const [key, value] of Object.entries({ ...base, ...fields })) if (value !== undefined) body[key] = value;
  return { url: '/push', body };
}

const on = (shop: string, did: string, fields: Fields = {}) => json({ shop_id: `{${shop}}`, did: `{${did}}`, ...fields });
const items = (...ids: string[]) => ids.map((id) => ({ id }));

const SHOP_ID_FORMAT = 'Parameter `shop_id` must be 30 hexadecimal characters.';
const EVENT = 'Parameter `event` is not valid';
const SOURCE = 'Parameter `source` must be a JSON object with `code` and `from`, or a string holding one.';
const NUL = (name: string) => `Parameter \`${name}\` contains a NUL character (U+0000), which is not allowed.`;
const NOT_UTF8 = (name: string) => `Parameter \`${name}\` is not valid UTF-8 text, which is not allowed.`;
const NON_EMPTY = (name: string) => `Parameter \`${name}\` must be a non-empty string.`;

/** interface.md, "Errors / POST /push (HTTP status by condition)", row by row, in the table's order. */
export const STATUS_TABLE: readonly PushCase[] = [
  // method is not POST → 405
  ...(['GET', 'PUT', 'PATCH', 'DELETE'] as const).map((method) => ({
    name: `method ${method} → 405`,
    request: { method, url: '/push', query: 'shop_id={shop}&did={did}&event=cart&items[][id]=p1' },
    status: 405,
    message: `Method ${method} is not allowed for this endpoint.`,
  })),
  // shop_id absent → 401
  { name: 'shop_id absent → 401', request: json({ shop_id: undefined }), status: 401, message: 'Parameter `shop_id` is required.' },
  {
    name: 'shop_id JSON null counts as absent → 401',
    request: json({ shop_id: null }),
    status: 401,
    message: 'Parameter `shop_id` is required.',
  },
  // shop_id empty or not 30 hex → 422
  { name: 'shop_id empty → 422', request: json({ shop_id: '' }), status: 422, message: SHOP_ID_FORMAT },
  { name: 'shop_id of 29 hex characters → 422', request: json({ shop_id: 'a'.repeat(29) }), status: 422, message: SHOP_ID_FORMAT },
  { name: 'shop_id of 31 hex characters → 422', request: json({ shop_id: 'a'.repeat(31) }), status: 422, message: SHOP_ID_FORMAT },
  { name: 'shop_id of 30 non-hex characters → 422', request: json({ shop_id: 'g'.repeat(30) }), status: 422, message: SHOP_ID_FORMAT },
  { name: 'shop_id as a number → 422', request: json({ shop_id: 123456 }), status: 422, message: SHOP_ID_FORMAT },
  // shop_id does not exist → 404
  { name: 'shop_id of no shop → 404', request: json({ shop_id: '{unknown_shop}' }), status: 404, message: 'Shop not found' },
  // did absent or empty → 401
  { name: 'did absent → 401', request: json({ did: undefined }), status: 401, message: 'Parameter `did` is required.' },
  { name: 'did empty → 401', request: json({ did: '' }), status: 401, message: 'Parameter `did` is required.' },
  { name: 'did JSON null counts as absent → 401', request: json({ did: null }), status: 401, message: 'Parameter `did` is required.' },
  // did invalid format → 422
  { name: 'did INVALID_ID → 422', request: json({ did: 'INVALID_ID' }), status: 422, message: 'Device ID is not valid' },
  { name: 'did of 7 characters → 422', request: json({ did: 'abcd123' }), status: 422, message: 'Device ID is not valid' },
  { name: 'did of 65 characters → 422', request: json({ did: 'a'.repeat(65) }), status: 422, message: 'Device ID is not valid' },
  { name: 'did with an underscore → 422', request: json({ did: 'abcd_1234' }), status: 422, message: 'Device ID is not valid' },
  { name: 'did as an array → 422', request: json({ did: ['{did}'] }), status: 422, message: 'Device ID is not valid' },
  { name: 'did as a number → 422', request: json({ did: 1234567890 }), status: 422, message: 'Device ID is not valid' },
  // did does not exist → 404
  { name: 'did 0000000000 (well-formed, unknown) → 404', request: json({ did: '0000000000' }), status: 404, message: 'Device not found' },
  { name: 'did of another shop → 404', request: json({ did: '{inactive_did}' }), status: 404, message: 'Device not found' },
  {
    name: 'did of 8 characters (well-formed, unknown) → 404',
    request: json({ did: 'abcd1234' }),
    status: 404,
    message: 'Device not found',
  },
  {
    name: 'an Android ID (well-formed, unknown) → 404',
    request: json({ did: '9774d56d682e549c' }),
    status: 404,
    message: 'Device not found',
  },
  {
    name: 'a UUID (well-formed, unknown) → 404',
    request: json({ did: '5A2E1C4B-7F3D-4E2A-9B1C-0D8E6F4A2B3C' }),
    status: 404,
    message: 'Device not found',
  },
  {
    name: 'did of 64 characters (well-formed, unknown) → 404',
    request: json({ did: 'a'.repeat(64) }),
    status: 404,
    message: 'Device not found',
  },
  // did is checked before the shop state
  {
    name: 'inactive shop, did absent → 401 (did before shop state)',
    request: on('inactive_shop', 'x', { did: undefined }),
    status: 401,
    message: 'Parameter `did` is required.',
  },
  {
    name: 'inactive shop, unknown did → 404 (did before shop state)',
    request: on('inactive_shop', 'x', { did: '0000000000' }),
    status: 404,
    message: 'Device not found',
  },
  // shop not active, restricted, or payment expired → 403
  { name: 'shop not active → 403', request: on('inactive_shop', 'inactive_did'), status: 403, message: 'Shop is not active.' },
  { name: 'shop restricted → 403', request: on('restricted_shop', 'restricted_did'), status: 403, message: 'Shop is restricted.' },
  { name: 'shop payment expired → 403', request: on('unpaid_shop', 'unpaid_did'), status: 403, message: 'Shop payment has expired.' },
  {
    name: 'shop state before event: inactive shop without event → 403',
    request: on('inactive_shop', 'inactive_did', { event: undefined }),
    status: 403,
    message: 'Shop is not active.',
  },
  // event absent, empty, or not an event of the endpoint → 422
  { name: 'event absent → 422', request: json({ event: undefined }), status: 422, message: 'Parameter `event` is required.' },
  { name: 'event empty → 422', request: json({ event: '' }), status: 422, message: EVENT },
  { name: 'event unknown → 422', request: json({ event: 'like' }), status: 422, message: EVENT },
  { name: 'event in capitals → 422', request: json({ event: 'CART' }), status: 422, message: EVENT },
  { name: 'event as an array → 422', request: json({ event: ['cart'] }), status: 422, message: EVENT },
  {
    name: 'event before items: unknown event without items → 422 naming event',
    request: json({ event: 'like', items: undefined }),
    status: 422,
    message: EVENT,
  },
  // items absent, empty scalar, or empty array (without full_cart / full_wish true) → 422
  ...(['cart', 'wish', 'view', 'remove_from_cart', 'remove_wish', 'purchase'] as const).flatMap((event) => [
    {
      name: `${event}: items absent → 422`,
      request: json({ event, items: undefined }),
      status: 422,
      message: 'Parameter `items` is required.',
    },
    {
      name: `${event}: items empty string → 422`,
      request: json({ event, items: '' }),
      status: 422,
      message: 'Parameter `items` must not be empty.',
    },
    {
      name: `${event}: items empty array → 422`,
      request: json({ event, items: [] }),
      status: 422,
      message: 'Parameter `items` must not be empty.',
    },
  ]),
  {
    name: 'cart: items empty array with full_cart false → 422',
    request: json({ items: [], full_cart: false }),
    status: 422,
    message: 'Parameter `items` must not be empty.',
  },
  {
    name: 'wish: items empty array with full_cart (not full_wish) true → 422',
    request: json({ event: 'wish', items: [], full_cart: true }),
    status: 422,
    message: 'Parameter `items` must not be empty.',
  },
  {
    name: 'category: category_id absent → 422',
    request: json({ event: 'category', items: undefined }),
    status: 422,
    message: 'Parameter `category_id` is required.',
  },
  {
    name: 'category: category_id empty → 422',
    request: json({ event: 'category', category_id: '' }),
    status: 422,
    message: NON_EMPTY('category_id'),
  },
  {
    name: 'search: search_query absent → 422',
    request: json({ event: 'search', items: undefined }),
    status: 422,
    message: 'Parameter `search_query` is required.',
  },
  {
    name: 'search: search_query empty → 422',
    request: json({ event: 'search', search_query: '' }),
    status: 422,
    message: NON_EMPTY('search_query'),
  },
  // items empty array with full_cart true (cart) or full_wish true (wish) → 200
  {
    name: 'cart: items empty array with full_cart true → 200',
    request: json({ items: [], full_cart: true }),
    status: 200,
    stored: { event: 'cart', items: [], params: { full_cart: true } },
  },
  {
    name: 'wish: items empty array with full_wish true → 200',
    request: json({ event: 'wish', items: [], full_wish: true }),
    status: 200,
    stored: { event: 'wish', items: [], params: { full_wish: true } },
  },
  {
    name: 'cart: items absent with full_cart true → 200',
    request: json({ items: undefined, full_cart: true }),
    status: 200,
    stored: { items: [] },
  },
  // all items dropped because their ids are invalid → 422
  {
    name: 'every item id has a backslash → 422',
    request: json({ items: items('a\\b', 'c\\') }),
    status: 422,
    message: 'Parameter `items` has no item with a valid id (1 to 255 characters, no backslash).',
  },
  {
    name: 'every item id empty or longer than 255 → 422',
    request: json({ items: [{ id: '' }, { id: 'x'.repeat(256) }, { amount: 2 }] }),
    status: 422,
    message: 'Parameter `items` has no item with a valid id (1 to 255 characters, no backslash).',
  },
  {
    name: 'every item dropped, even with full_cart true → 422',
    request: json({ items: items('a\\b'), full_cart: true }),
    status: 422,
    message: 'Parameter `items` has no item with a valid id (1 to 255 characters, no backslash).',
  },
  // stream, sid, referer, segment, recommended_by, recommended_code or source empty → 422
  { name: 'stream empty → 422', request: json({ stream: '' }), status: 422, message: NON_EMPTY('stream') },
  { name: 'sid empty → 422', request: json({ sid: '' }), status: 422, message: 'Session ID is not valid' },
  { name: 'referer empty → 422', request: json({ referer: '' }), status: 422, message: NON_EMPTY('referer') },
  { name: 'segment empty → 422', request: json({ segment: '' }), status: 422, message: NON_EMPTY('segment') },
  { name: 'recommended_by empty → 422', request: json({ recommended_by: '' }), status: 422, message: NON_EMPTY('recommended_by') },
  { name: 'recommended_code empty → 422', request: json({ recommended_code: '' }), status: 422, message: NON_EMPTY('recommended_code') },
  { name: 'source empty → 422', request: json({ source: '' }), status: 422, message: SOURCE },
  // stream, sid, referer, recommended_by, recommended_code not a string → 422
  { name: 'stream as an array → 422', request: json({ stream: ['web'] }), status: 422, message: NON_EMPTY('stream') },
  { name: 'sid as an array → 422', request: json({ sid: ['{sid}'] }), status: 422, message: 'Session ID is not valid' },
  { name: 'referer as an array → 422', request: json({ referer: ['https://x.example/'] }), status: 422, message: NON_EMPTY('referer') },
  {
    name: 'recommended_by as an array → 422',
    request: json({ recommended_by: ['dynamic'] }),
    status: 422,
    message: NON_EMPTY('recommended_by'),
  },
  {
    name: 'recommended_code as an array → 422',
    request: json({ recommended_code: ['c1'] }),
    status: 422,
    message: NON_EMPTY('recommended_code'),
  },
  { name: 'stream as a number → 422', request: json({ stream: 5 }), status: 422, message: NON_EMPTY('stream') },
  // segment not A or B; recommended_by not allowed; source not JSON → 422
  { name: 'segment C → 422', request: json({ segment: 'C' }), status: 422, message: 'Parameter `segment` must be `A` or `B`.' },
  { name: 'segment in lower case → 422', request: json({ segment: 'a' }), status: 422, message: 'Parameter `segment` must be `A` or `B`.' },
  {
    name: 'recommended_by not an allowed value → 422',
    request: json({ recommended_by: 'google' }),
    status: 422,
    message: /^Parameter `recommended_by` must be one of `dynamic`, `chain`, .*`listing`\.$/,
  },
  { name: 'source not JSON → 422', request: json({ source: 'dynamic' }), status: 422, message: SOURCE },
  { name: 'source broken JSON → 422', request: json({ source: '{"code":"c1",' }), status: 422, message: SOURCE },
  { name: 'sid malformed (INVALID_ID) → 422', request: json({ sid: 'INVALID_ID' }), status: 422, message: 'Session ID is not valid' },
  // order_id of 256 characters → 422
  {
    name: 'purchase: order_id of 256 characters → 422',
    request: json({ event: 'purchase', order_id: 'o'.repeat(256) }),
    status: 422,
    message: 'Parameter `order_id` must be at most 255 characters.',
  },
  {
    name: 'purchase: order_id of 255 characters → 200',
    request: json({ event: 'purchase', order_id: 'o'.repeat(255) }),
    status: 200,
    stored: { event: 'purchase', params: { order_id: 'o'.repeat(255) } },
  },
  // order_id, delivery_type or payment_type empty → 200
  {
    name: 'purchase: order_id empty → 200',
    request: json({ event: 'purchase', order_id: '' }),
    status: 200,
    stored: { event: 'purchase', absent: ['order_id'] },
  },
  {
    name: 'purchase: delivery_type empty → 200',
    request: json({ event: 'purchase', delivery_type: '' }),
    status: 200,
    stored: { absent: ['delivery_type'] },
  },
  {
    name: 'purchase: payment_type empty → 200',
    request: json({ event: 'purchase', payment_type: '' }),
    status: 200,
    stored: { absent: ['payment_type'] },
  },
  {
    name: 'purchase with every field → 200',
    request: json({
      event: 'purchase',
      items: [{ id: 'p1', amount: 2, price: 100 }],
      order_id: 'A-1',
      order_price: 150,
      delivery_type: 'courier',
      payment_type: 'card',
      promocode: 'SPRING',
    }),
    status: 200,
    stored: {
      event: 'purchase',
      items: [{ id: 'p1', amount: 2, price: 100 }],
      params: { order_id: 'A-1', delivery_type: 'courier', payment_type: 'card', promocode: 'SPRING' },
    },
  },
];

const one = (item: Json): ContractRequest => json({ items: [item] });

/** interface.md, "Item normalisation with status 200": the stored items, read back. */
export const NORMALISATION_TABLE: readonly PushCase[] = [
  // amount or quantity below 1 → 1
  { name: 'amount 0 becomes 1', request: one({ id: 'p1', amount: 0 }), status: 200, stored: { items: [{ id: 'p1', amount: 1 }] } },
  { name: 'amount -5 becomes 1', request: one({ id: 'p1', amount: -5 }), status: 200, stored: { items: [{ id: 'p1', amount: 1 }] } },
  {
    name: 'quantity 0 becomes amount 1',
    request: one({ id: 'p1', quantity: 0 }),
    status: 200,
    stored: { items: [{ id: 'p1', amount: 1 }] },
  },
  {
    name: 'amount "0" as a string becomes 1',
    request: one({ id: 'p1', amount: '0' }),
    status: 200,
    stored: { items: [{ id: 'p1', amount: 1 }] },
  },
  {
    name: 'quantity is the synonym of amount',
    request: one({ id: 'p1', quantity: 7 }),
    status: 200,
    stored: { items: [{ id: 'p1', amount: 7 }] },
  },
  // amount above 1000 → 1000
  {
    name: 'amount 5000 becomes 1000',
    request: one({ id: 'p1', amount: 5000 }),
    status: 200,
    stored: { items: [{ id: 'p1', amount: 1000 }] },
  },
  {
    name: 'quantity "1001" becomes amount 1000',
    request: one({ id: 'p1', quantity: '1001' }),
    status: 200,
    stored: { items: [{ id: 'p1', amount: 1000 }] },
  },
  {
    name: 'amount 1000 stays 1000',
    request: one({ id: 'p1', amount: 1000 }),
    status: 200,
    stored: { items: [{ id: 'p1', amount: 1000 }] },
  },
  // price negative, or not a number → price omitted
  { name: 'negative price is omitted', request: one({ id: 'p1', price: -1 }), status: 200, stored: { items: [{ id: 'p1', amount: 1 }] } },
  {
    name: 'price that is not a number is omitted',
    request: one({ id: 'p1', price: 'abc' }),
    status: 200,
    stored: { items: [{ id: 'p1', amount: 1 }] },
  },
  {
    name: 'price as a numeric string is read as a number',
    request: one({ id: 'p1', price: '10.50' }),
    status: 200,
    stored: { items: [{ id: 'p1', amount: 1, price: 10.5 }] },
  },
  // line_id or fashion_size empty → omitted
  { name: 'empty line_id is omitted', request: one({ id: 'p1', line_id: '' }), status: 200, stored: { items: [{ id: 'p1', amount: 1 }] } },
  {
    name: 'empty fashion_size is omitted',
    request: one({ id: 'p1', fashion_size: '' }),
    status: 200,
    stored: { items: [{ id: 'p1', amount: 1 }] },
  },
  {
    name: 'line_id and fashion_size are kept',
    request: one({ id: 'p1', line_id: 'L1', fashion_size: 'XL' }),
    status: 200,
    stored: { items: [{ id: 'p1', amount: 1, line_id: 'L1', fashion_size: 'XL' }] },
  },
  // item id empty or longer than 255 → that item dropped
  {
    name: 'item with an empty id is dropped, the others kept',
    request: json({ items: [{ id: '' }, { id: 'p2' }] }),
    status: 200,
    stored: { items: [{ id: 'p2', amount: 1 }] },
  },
  {
    name: 'item with an id of 256 characters is dropped',
    request: json({ items: [{ id: 'x'.repeat(256) }, { id: 'p2' }] }),
    status: 200,
    stored: { items: [{ id: 'p2', amount: 1 }] },
  },
  {
    name: 'item with a backslash in its id is dropped',
    request: json({ items: [{ id: 'a\\b' }, { id: 'p2' }] }),
    status: 200,
    stored: { items: [{ id: 'p2', amount: 1 }] },
  },
  {
    name: 'item id of 255 characters is kept',
    request: one({ id: 'y'.repeat(255) }),
    status: 200,
    stored: { items: [{ id: 'y'.repeat(255), amount: 1 }] },
  },
  { name: 'numeric item id is kept as text', request: one({ id: 42 }), status: 200, stored: { items: [{ id: '42', amount: 1 }] } },
  // full_cart or full_wish not Boolean → cast to true
  {
    name: 'full_cart "yes" is true',
    request: json({ items: [], full_cart: 'yes' }),
    status: 200,
    stored: { items: [], params: { full_cart: true } },
  },
  {
    name: 'full_cart "1" is true',
    request: json({ items: items('p3'), full_cart: '1' }),
    status: 200,
    stored: { params: { full_cart: true } },
  },
  {
    name: 'full_wish "on" is true',
    request: json({ event: 'wish', items: [], full_wish: 'on' }),
    status: 200,
    stored: { items: [], params: { full_wish: true } },
  },
  { name: 'full_cart "false" is false', request: json({ full_cart: 'false' }), status: 200, stored: { absent: ['full_cart'] } },
  { name: 'full_cart "0" is false', request: json({ full_cart: '0' }), status: 200, stored: { absent: ['full_cart'] } },
];

const SOURCE_APPLIED = { recommended_by: 'dynamic', recommended_code: 'blk1' };
const SOURCE_IGNORED = { recommended_by: null, recommended_code: null };

/** contract-notes "Wire format" and "POST /push", interface.md Events (source rules 1–3). */
export const CONTRACT_NOTES: readonly PushCase[] = [
  { name: 'JSON "stream": null counts as absent', request: json({ stream: null }), status: 200, stored: { absent: ['stream'] } },
  {
    name: 'stream=null in the query counts as absent',
    request: { ...json(), query: 'stream=null' },
    status: 200,
    stored: { absent: ['stream'] },
  },
  {
    name: 'other optional strings as JSON null count as absent',
    request: json({ referer: null, segment: null, recommended_by: null, sid: null }),
    status: 200,
  },
  {
    name: 'stream is stored',
    request: json({ stream: 'android', segment: 'B', referer: 'https://x.example/p1' }),
    status: 200,
    stored: { params: { stream: 'android', segment: 'B', referer: 'https://x.example/p1' } },
  },
  { name: 'seance is accepted as sid', request: json({ seance: '{sid}' }), status: 200 },
  {
    name: 'a malformed seance is refused as a sid',
    request: json({ seance: 'INVALID_ID' }),
    status: 422,
    message: 'Session ID is not valid',
  },
  { name: 'sid wins over seance', request: json({ sid: '{sid}', seance: 'INVALID_ID' }), status: 200 },
  { name: 'a well-formed sid the server never issued is accepted', request: json({ sid: 'zzzzzzzzzz' }), status: 200 },
  {
    name: 'form body with items[][id] brackets, by Rack’s rules',
    request: {
      url: '/push',
      contentType: FORM_TYPE,
      body: 'shop_id={shop}&did={did}&event=cart&items[][id]=1&items[][amount]=2&items[][id]=3',
    },
    status: 200,
    stored: {
      items: [
        { id: '1', amount: 2 },
        { id: '3', amount: 1 },
      ],
    },
  },
  {
    name: 'every parameter in the query string, no body',
    request: { url: '/push', query: 'shop_id={shop}&did={did}&event=cart&items[][id]=q1&items[][price]=5' },
    status: 200,
    stored: { items: [{ id: 'q1', amount: 1, price: 5 }] },
  },
  {
    name: 'shop_id in the query, the rest in a JSON body',
    request: { ...json({ shop_id: undefined }), query: 'shop_id={shop}' },
    status: 200,
  },
  {
    name: 'the body wins over the query string (valid body event)',
    request: { ...json(), query: 'event=like' },
    status: 200,
    stored: { event: 'cart' },
  },
  {
    name: 'the body wins over the query string (invalid body event)',
    request: { ...json({ event: 'like' }), query: 'event=cart' },
    status: 422,
    message: EVENT,
  },
  { name: 'JSON sent as text/plain (sendBeacon)', request: { ...json(), contentType: 'text/plain;charset=UTF-8' }, status: 200 },
  // source rule 1: valid JSON with code and an allowed from → applied
  {
    name: 'source rule 1: object',
    request: json({ source: { code: 'blk1', from: 'dynamic' } }),
    status: 200,
    stored: { params: SOURCE_APPLIED },
  },
  {
    name: 'source rule 1: string holding JSON',
    request: json({ source: '{"code":"blk1","from":"dynamic"}' }),
    status: 200,
    stored: { params: SOURCE_APPLIED },
  },
  {
    name: 'source rule 1: form brackets',
    request: {
      url: '/push',
      contentType: FORM_TYPE,
      body: 'shop_id={shop}&did={did}&event=cart&items[][id]=p1&source[code]=blk1&source[from]=dynamic',
    },
    status: 200,
    stored: { params: SOURCE_APPLIED },
  },
  {
    name: 'source rule 1: overrides recommended_by and recommended_code',
    request: json({ recommended_by: 'chain', recommended_code: 'old', source: { code: 'blk1', from: 'dynamic' } }),
    status: 200,
    stored: { params: SOURCE_APPLIED },
  },
  {
    name: 'source rule 1 with wish',
    request: json({ event: 'wish', source: { code: 'blk1', from: 'dynamic' } }),
    status: 200,
    stored: { event: 'wish', params: SOURCE_APPLIED },
  },
  {
    name: 'source rule 1 with purchase',
    request: json({ event: 'purchase', source: { code: 'blk1', from: 'dynamic' } }),
    status: 200,
    stored: { event: 'purchase', params: SOURCE_APPLIED },
  },
  // source rule 2: from not allowed, or from or code absent → ignored, both null, 200
  {
    name: 'source rule 2: from not allowed',
    request: json({ source: { code: 'blk1', from: 'google' } }),
    status: 200,
    stored: { params: SOURCE_IGNORED },
  },
  { name: 'source rule 2: from absent', request: json({ source: '{"code":"blk1"}' }), status: 200, stored: { params: SOURCE_IGNORED } },
  { name: 'source rule 2: code absent', request: json({ source: { from: 'dynamic' } }), status: 200, stored: { params: SOURCE_IGNORED } },
  {
    name: 'source rule 2: nulls recommended_by given beside it',
    request: json({ recommended_by: 'chain', recommended_code: 'c9', source: { from: 'x' } }),
    status: 200,
    stored: { params: SOURCE_IGNORED },
  },
  // source rule 3: empty string or a string that is not JSON → 422
  { name: 'source rule 3: empty string', request: json({ source: '' }), status: 422, message: SOURCE },
  { name: 'source rule 3: not JSON', request: json({ source: 'from=dynamic' }), status: 422, message: SOURCE },
  {
    name: 'recommended_by and recommended_code without source are stored',
    request: json({ recommended_by: 'chain', recommended_code: 'c9' }),
    status: 200,
    stored: { params: { recommended_by: 'chain', recommended_code: 'c9' } },
  },
  // the other events
  {
    name: 'view with items',
    request: json({ event: 'view', items: items('v1') }),
    status: 200,
    stored: { event: 'view', items: [{ id: 'v1', amount: 1 }] },
  },
  {
    name: 'category with category_id',
    request: json({ event: 'category', items: undefined, category_id: 'c15' }),
    status: 200,
    stored: { event: 'category', items: [], params: { category_id: 'c15' } },
  },
  {
    name: 'category with a numeric category_id',
    request: json({ event: 'category', items: undefined, category_id: 15 }),
    status: 200,
    stored: { params: { category_id: '15' } },
  },
  {
    name: 'search with search_query',
    request: json({ event: 'search', items: undefined, search_query: 'red shoes' }),
    status: 200,
    stored: { event: 'search', params: { search_query: 'red shoes' } },
  },
];

function nested(depth: number): Json {
  let value: Json = 'deep';
  for (let i = 0; i < depth; i += 1) value = { a: value };
  return value;
}

const many = (count: number) => Array.from({ length: count }, (_, i) => ({ id: `m${i}`, amount: 1 }));

/** issue 3 "Bad input": each gets the table's status, or 422 naming the field, or 413. */
export const BAD_INPUT: readonly PushCase[] = [
  {
    name: 'ten thousand items → 422',
    request: json({ items: many(10_000) }),
    status: 422,
    message: 'Parameter `items` must have at most 1000 elements.',
  },
  {
    name: '1001 items → 422',
    request: json({ items: many(1001) }),
    status: 422,
    message: 'Parameter `items` must have at most 1000 elements.',
  },
  { name: '1000 items → 200', request: json({ items: many(1000) }), status: 200, stored: { itemCount: 1000 } },
  {
    name: 'ten thousand and one form items → 422',
    request: { url: '/push', contentType: FORM_TYPE, body: `shop_id={shop}&did={did}&event=cart&${'items[][id]=1&'.repeat(10_001)}` },
    status: 422,
    message: 'Parameter `items[]` has more than 10000 elements.',
  },
  {
    name: 'a deeply nested JSON body → 422 naming the field',
    request: json({ items: [{ id: 'p1', extra: nested(40) }] }),
    status: 422,
    message: /^Parameter `items\[0\]\[extra\](\[a\])+` is nested deeper than 32 levels\.$/,
  },
  {
    name: 'deeply nested form brackets → 422 naming the field',
    request: { url: '/push', contentType: FORM_TYPE, body: 'shop_id={shop}&did={did}&event=cart&items[][a][b][c][d][e][f][g][h]=1' },
    status: 422,
    message: 'Parameter `items[][a][b][c][d][e][f][g][h]` is nested deeper than 8 levels.',
  },
  {
    name: 'a body over the size limit → 413',
    request: json({ stream: 'x'.repeat(1_100_000) }),
    status: 413,
    message: 'The request body is too large.',
  },
  {
    name: 'non-UTF-8 bytes in event → 422 naming event (the text rule, docs/input.md)',
    request: {
      url: '/push',
      body: Buffer.from('{"shop_id":"{shop}","did":"{did}","event":"ca\xff\xfert","items":[{"id":"p1"}]}', 'latin1'),
    },
    status: 422,
    message: NOT_UTF8('event'),
  },
  {
    name: 'non-UTF-8 bytes in did → 422 naming did',
    request: {
      url: '/push',
      body: Buffer.from('{"shop_id":"{shop}","did":"abc\xffdefgh","event":"cart","items":[{"id":"p1"}]}', 'latin1'),
    },
    status: 422,
    message: NOT_UTF8('did'),
  },
  {
    name: 'non-UTF-8 percent escapes in a form event → 422',
    request: { url: '/push', contentType: FORM_TYPE, body: 'shop_id={shop}&did={did}&event=car%FF&items[][id]=p1' },
    status: 422,
    message: NOT_UTF8('event'),
  },
  { name: 'a NUL in stream → 422 naming stream', request: json({ stream: 'a\u0000b' }), status: 422, message: NUL('stream') },
  { name: 'a NUL in an item id → 422 naming it', request: json({ items: [{ id: 'p\u0000' }] }), status: 422, message: NUL('items[0][id]') },
  {
    name: 'a NUL in a form value → 422 naming it',
    request: { url: '/push', contentType: FORM_TYPE, body: 'shop_id={shop}&did={did}&event=cart&items[][id]=p1&stream=a%00' },
    status: 422,
    message: NUL('stream'),
  },
  {
    name: 'a lone surrogate in JSON → 422 naming the field',
    request: { url: '/push', body: Buffer.from('{"shop_id":"{shop}","did":"{did}","event":"cart","items":[{"id":"p\\ud800"}]}') },
    status: 422,
    message: NOT_UTF8('items[0][id]'),
  },
  {
    name: 'numbers as strings are read as numbers',
    request: json({ items: [{ id: 'p1', amount: '3', price: '9.99' }], full_cart: '1' }),
    status: 200,
    stored: { items: [{ id: 'p1', amount: 3, price: 9.99 }], params: { full_cart: true } },
  },
  {
    name: 'purchase order_price as a string',
    request: json({ event: 'purchase', order_price: '100.50', order_id: 77 }),
    status: 200,
    stored: { params: { order_id: '77', order_price: 100.5 } },
  },
  {
    name: 'purchase order_price not a number → 422',
    request: json({ event: 'purchase', order_price: 'lots' }),
    status: 422,
    message: 'Parameter `order_price` must be a number.',
  },
  { name: 'items as a string → 422', request: json({ items: 'p1' }), status: 422, message: 'Parameter `items` must be an array of items.' },
  {
    name: 'items as an object → 422',
    request: json({ items: { id: 'p1' } }),
    status: 422,
    message: 'Parameter `items` must be an array of items.',
  },
  {
    name: 'items as a string holding JSON → 422',
    request: json({ items: '[{"id":"p1"}]' }),
    status: 422,
    message: 'Parameter `items` must be an array of items.',
  },
  {
    name: 'items as a form scalar → 422',
    request: { url: '/push', contentType: FORM_TYPE, body: 'shop_id={shop}&did={did}&event=cart&items=p1' },
    status: 422,
    message: 'Parameter `items` must be an array of items.',
  },
  {
    name: 'items that are not objects are dropped; none left → 422',
    request: json({ items: ['p1', 2] }),
    status: 422,
    message: 'Parameter `items` has no item with a valid id (1 to 255 characters, no backslash).',
  },
  { name: 'event as a number → 422', request: json({ event: 1 }), status: 422, message: EVENT },
  {
    name: 'a JSON array as the body → 422',
    request: { url: '/push', body: [{ shop_id: '{shop}' }] },
    status: 422,
    message: 'The request body must be a JSON object.',
  },
  {
    name: 'a body that is not JSON → 400',
    request: { url: '/push', contentType: 'application/json', body: Buffer.from('{"shop_id":') },
    status: 400,
    message: 'The request body is not valid JSON.',
  },
  {
    name: 'an unsupported content type → 415',
    request: { url: '/push', contentType: 'application/xml', body: Buffer.from('<push/>') },
    status: 415,
    message: 'The content type of the request body is not supported.',
  },
  {
    name: 'a malformed phone beside the did → 422 naming phone',
    request: json({ phone: 'call me' }),
    status: 422,
    message: 'Parameter `phone` is not valid.',
  },
];

/**
 * The body of the mobile SDK's trackPurchase (rn-sdk buildPurchaseTrackingParams, sent
 * by its `track` as JSON with shop_id, stream, did, seance and sid), every field given.
 */
export const TRACK_PURCHASE_BODY: { [key: string]: Json } = {
  shop_id: '{shop}',
  stream: 'android',
  event: 'purchase',
  order_id: 'M-1001',
  order_price: 2450.5,
  items: [
    { id: 'p1', amount: 2, price: 1000, line_id: 'L1', fashion_size: 'XL' },
    { id: 'p2', amount: 1, price: 500.5 },
  ],
  delivery_type: 'courier',
  delivery_address: 'Moscow, Tverskaya 1, flat 2',
  payment_type: 'card',
  tax_free: true,
  gift_package: true,
  promocode: 'SPRING',
  order_cash: 2000.25,
  order_bonuses: 300,
  order_delivery: 250.005,
  order_discount: 100,
  channel: 'mobile_app',
  custom: { floor: 3, gift_note: 'Happy birthday', tags: ['a', 'b'] },
  recommended_by: 'dynamic',
  recommended_code: 'rec-1',
  did: '{did}',
  seance: '{sid}',
  sid: '{sid}',
};

const purchase = (fields: Fields) => json({ event: 'purchase', items: [{ id: 'p1', amount: 1, price: 10 }], ...fields });

/** contract-notes "POST /push": what trackPurchase sends is stored with the event, validated and bounded. */
export const TRACK_PURCHASE: readonly PushCase[] = [
  {
    name: 'the mobile SDK’s trackPurchase body → 200, every field stored under its name',
    request: { url: '/push', body: TRACK_PURCHASE_BODY },
    status: 200,
    stored: {
      event: 'purchase',
      items: [
        { id: 'p1', amount: 2, price: 1000, line_id: 'L1', fashion_size: 'XL' },
        { id: 'p2', amount: 1, price: 500.5 },
      ],
      params: {
        stream: 'android',
        order_id: 'M-1001',
        order_price: 2450.5,
        delivery_type: 'courier',
        delivery_address: 'Moscow, Tverskaya 1, flat 2',
        payment_type: 'card',
        tax_free: true,
        gift_package: true,
        promocode: 'SPRING',
        order_cash: 2000.25,
        order_bonuses: 300,
        // Rounded to kopecks, half up, as the order keeps it.
        order_delivery: 250.01,
        order_discount: 100,
        channel: 'mobile_app',
        custom: { floor: 3, gift_note: 'Happy birthday', tags: ['a', 'b'] },
        recommended_by: 'dynamic',
        recommended_code: 'rec-1',
      },
    },
  },
  {
    name: 'the purchase fields as form strings are read as their types',
    request: {
      url: '/push',
      contentType: FORM_TYPE,
      body: 'shop_id={shop}&did={did}&event=purchase&items[][id]=p1&order_cash=10.5&tax_free=false&custom[floor]=3&channel=web',
    },
    status: 200,
    stored: { params: { order_cash: 10.5, tax_free: false, custom: { floor: '3' }, channel: 'web' } },
  },
  {
    name: 'empty purchase fields count as absent',
    request: purchase({ order_cash: '', channel: '', delivery_address: '', custom: '', tax_free: '' }),
    status: 200,
    stored: { absent: ['order_cash', 'channel', 'delivery_address', 'custom', 'tax_free'] },
  },
  {
    name: 'JSON null purchase fields count as absent',
    request: purchase({ order_bonuses: null, custom: null }),
    status: 200,
    stored: { absent: ['order_bonuses', 'custom'] },
  },
  { name: 'an empty custom object is left out', request: purchase({ custom: {} }), status: 200, stored: { absent: ['custom'] } },
  {
    name: 'the purchase fields are ignored on other events',
    request: json({ event: 'cart', order_cash: 10, custom: { a: 1 } }),
    status: 200,
    stored: { absent: ['order_cash', 'custom'] },
  },
  {
    name: 'order_cash not a number → 422',
    request: purchase({ order_cash: 'lots' }),
    status: 422,
    message: 'Parameter `order_cash` must be a number.',
  },
  {
    name: 'order_bonuses negative → 422',
    request: purchase({ order_bonuses: -1 }),
    status: 422,
    message: 'Parameter `order_bonuses` must not be negative.',
  },
  {
    name: 'order_delivery as an object → 422',
    request: purchase({ order_delivery: { a: 1 } }),
    status: 422,
    message: 'Parameter `order_delivery` must be a number.',
  },
  {
    name: 'order_discount too large to count → 422',
    request: purchase({ order_discount: 1e20 }),
    status: 422,
    message: 'Parameter `order_discount` is too large.',
  },
  {
    name: 'channel as an array → 422',
    request: purchase({ channel: ['web'] }),
    status: 422,
    message: 'Parameter `channel` must be a string.',
  },
  {
    name: 'channel over 255 characters → 422',
    request: purchase({ channel: 'c'.repeat(256) }),
    status: 422,
    message: 'Parameter `channel` must be at most 255 characters.',
  },
  {
    name: 'delivery_address over 1000 characters → 422',
    request: purchase({ delivery_address: 'a'.repeat(1001) }),
    status: 422,
    message: 'Parameter `delivery_address` must be at most 1000 characters.',
  },
  {
    name: 'tax_free as an object → 422',
    request: purchase({ tax_free: { yes: true } }),
    status: 422,
    message: 'Parameter `tax_free` must be a boolean.',
  },
  { name: 'custom as an array → 422', request: purchase({ custom: ['a'] }), status: 422, message: 'Parameter `custom` must be an object.' },
  {
    name: 'custom as a string → 422',
    request: purchase({ custom: 'note' }),
    status: 422,
    message: 'Parameter `custom` must be an object.',
  },
  {
    name: 'custom with 51 keys → 422',
    request: purchase({ custom: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) }),
    status: 422,
    message: 'Parameter `custom` must have at most 50 keys.',
  },
  {
    name: 'custom with a nested object → 422 naming the key',
    request: purchase({ custom: { address: { city: 'Moscow' } } }),
    status: 422,
    message: 'Parameter `custom[address]` must be a scalar or an array of scalars.',
  },
  {
    name: 'custom with a text over 1000 characters → 422 naming the key',
    request: purchase({ custom: { note: 'n'.repeat(1001) } }),
    status: 422,
    message: 'Parameter `custom[note]` must be at most 1000 characters.',
  },
];

export interface ListStep {
  readonly name: string;
  readonly request: ContractRequest;
  /** The device's cart and wish list after the step (services.tracking.getLists). */
  readonly lists: { readonly cart: readonly TrackedItem[]; readonly wish: readonly TrackedItem[] };
}

const event = (name: string, fields: Fields = {}) => json({ did: '{list_did}', event: name, ...fields });
const item = (id: string, amount = 1) => ({ id, amount });

/**
 * interface.md "Events", all eight events of contract-notes in one sequence on a fresh
 * device: cart adds (with full_cart replaces), wish the same with full_wish, the removals
 * remove, view / category / search leave the lists alone, and a purchase takes the bought
 * items out of the cart (a decision of the tracking module: they no longer wait).
 */
export const LIST_SCENARIO: readonly ListStep[] = [
  { name: 'cart adds an item', request: event('cart', { items: [item('a', 2)] }), lists: { cart: [item('a', 2)], wish: [] } },
  { name: 'cart adds another', request: event('cart', { items: [item('b')] }), lists: { cart: [item('a', 2), item('b')], wish: [] } },
  {
    name: 'cart with an item already there updates it in place',
    request: event('cart', { items: [item('a', 5)] }),
    lists: { cart: [item('a', 5), item('b')], wish: [] },
  },
  {
    name: 'cart with full_cart true replaces the cart',
    request: event('cart', { items: [item('c')], full_cart: true }),
    lists: { cart: [item('c')], wish: [] },
  },
  { name: 'remove_from_cart removes', request: event('remove_from_cart', { items: [item('c')] }), lists: { cart: [], wish: [] } },
  {
    name: 'cart adds two items',
    request: event('cart', { items: [item('d'), item('e')] }),
    lists: { cart: [item('d'), item('e')], wish: [] },
  },
  {
    name: 'wish adds an item',
    request: event('wish', { items: [item('w1')] }),
    lists: { cart: [item('d'), item('e')], wish: [item('w1')] },
  },
  {
    name: 'wish adds another',
    request: event('wish', { items: [item('w2')] }),
    lists: { cart: [item('d'), item('e')], wish: [item('w1'), item('w2')] },
  },
  {
    name: 'wish with full_wish true replaces the list',
    request: event('wish', { items: [item('w3')], full_wish: true }),
    lists: { cart: [item('d'), item('e')], wish: [item('w3')] },
  },
  {
    name: 'remove_wish removes',
    request: event('remove_wish', { items: [item('w3')] }),
    lists: { cart: [item('d'), item('e')], wish: [] },
  },
  { name: 'view changes no list', request: event('view', { items: [item('v')] }), lists: { cart: [item('d'), item('e')], wish: [] } },
  {
    name: 'category changes no list',
    request: event('category', { items: undefined, category_id: '7' }),
    lists: { cart: [item('d'), item('e')], wish: [] },
  },
  {
    name: 'search changes no list',
    request: event('search', { items: undefined, search_query: 'hat' }),
    lists: { cart: [item('d'), item('e')], wish: [] },
  },
  {
    name: 'purchase takes the bought items out of the cart',
    request: event('purchase', { items: [item('d')], order_id: 'L-1' }),
    lists: { cart: [item('e')], wish: [] },
  },
  {
    name: 'full_cart true with no items empties the cart',
    request: event('cart', { items: [], full_cart: true }),
    lists: { cart: [], wish: [] },
  },
];
