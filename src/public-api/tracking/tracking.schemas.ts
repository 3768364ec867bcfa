// Brings @fastify/swagger's route-schema fields (tags, summary, description) into FastifySchema.
import type {} from '@fastify/swagger';
import { Type, type TProperties } from '@sinclair/typebox';
import { RECOMMENDED_BY_VALUES } from '../../modules/tracking/domain/source.js';
import { PUSH_EVENTS } from '../../modules/tracking/tracking.types.js';
import { DeviceIdSchema, SessionIdSchema, ShopIdSchema } from '../common/common.schemas.js';
import { PopupFieldSchema } from '../common/popup.js';
import { MAX_ITEMS_PER_EVENT, MAX_RECONE_POSITION } from './push.params.js';
import { MAX_CLOCK_SKEW_SECONDS, MAX_VARIABLES } from './push-custom.params.js';

/**
 * The OpenAPI description of GET /init, POST /push and POST /push/custom. These schemas
 * document; they do not validate (common/route-compilers.ts): the *.params.ts mappers
 * check in the contract's order. Each parameter may also come in the query string, a
 * JSON body or an urlencoded form (bracket notation), the body winning.
 */

export const TRACKING_TAGS = ['tracking'];

const Sid = SessionIdSchema('Session id: 10 letters or digits. A well-formed id the server never issued opens a session.');
const Seance = SessionIdSchema('Legacy alias of `sid`; `sid` wins when both are given.');
const Text = (description: string) => Type.String({ description, minLength: 1 });

const WHERE = 'Parameters may be given in the query string, a JSON body or an urlencoded form; the body wins.';

/** An object schema whose properties are all optional but `required` (TypeBox derives `required` from Optional). */
function ObjectWith<T extends TProperties>(properties: T, required: readonly (keyof T & string)[], options: object) {
  const shaped: TProperties = {};
  for (const [name, schema] of Object.entries(properties)) {
    shaped[name] = required.includes(name) ? schema : Type.Optional(schema);
  }
  return Type.Object(shaped, options);
}

export const InitQuerySchema = ObjectWith(
  {
    shop_id: ShopIdSchema,
    v: Type.String({ description: 'Protocol version of a web SDK, e.g. `3`; optional, not interpreted (mobile SDKs never send it).' }),
    did: DeviceIdSchema('Device id; without it (or empty) a new device is created, with an unknown one the device is registered under it.'),
    sid: Sid,
    seance: Seance,
    stream: Type.String({ description: 'Client platform, e.g. `web`, `ios`, `android`.' }),
    tz: Type.String({ description: 'Time zone of the client.' }),
    referrer: Type.String({ description: 'Referrer of the first page.' }),
    target_screen: Type.String({ description: 'The app screen the popup is for (docs/popups.md); popups with screens need it.' }),
  },
  ['shop_id'],
  { additionalProperties: true },
);

export const InitResponseSchema = Type.Object(
  {
    did: Type.String({ description: 'Device id to keep and send with every event.' }),
    seance: Type.String({ description: 'The session id again, under its legacy name.' }),
    sid: Type.String({ description: 'Session id; a session ends after 2 hours without activity.' }),
    currency: Type.String({ description: 'Currency symbol of the shop, e.g. ₽.' }),
    ...PopupFieldSchema,
  },
  { description: 'Issued ids (no top-level `message` key: clients read one as failure).' },
);

const TrackedItemSchema = ObjectWith(
  {
    id: Type.String({ description: 'Product id, 1 to 255 characters; an item with an invalid id is dropped.' }),
    amount: Type.Integer({ description: 'Units (synonym `quantity`), clamped to 1..1000.' }),
    quantity: Type.Integer({ description: 'Synonym of `amount`.' }),
    price: Type.Number({ description: 'Unit price; omitted when negative or not a number.' }),
    line_id: Type.String(),
    fashion_size: Type.String(),
  },
  ['id'],
  { additionalProperties: true },
);

const Source = Type.Union(
  [
    Type.Object({ code: Type.String(), from: Type.Union(RECOMMENDED_BY_VALUES.map((value) => Type.Literal(value))) }),
    Type.String({ description: 'The same object as JSON text.' }),
  ],
  { description: 'Recommendation source; overrides recommended_by/recommended_code (interface.md, Events).' },
);

export const PushBodySchema = ObjectWith(
  {
    shop_id: ShopIdSchema,
    did: DeviceIdSchema('Device id registered by GET /init; must exist.'),
    event: Type.Union(
      PUSH_EVENTS.map((name) => Type.Literal(name)),
      { description: 'The event.' },
    ),
    items: Type.Array(TrackedItemSchema, {
      description: `Tracked items, at most ${MAX_ITEMS_PER_EVENT}; may be empty only with full_cart / full_wish true.`,
      maxItems: MAX_ITEMS_PER_EVENT,
    }),
    category_id: Text('Category id (event `category`).'),
    search_query: Text('Search text (event `search`).'),
    full_cart: Type.Boolean({ description: 'Event `cart`: replace the whole cart. Any non-empty string but `false`/`0` is true.' }),
    full_wish: Type.Boolean({ description: 'Event `wish`: replace the whole wish list.' }),
    stream: Text('Client platform.'),
    sid: Sid,
    seance: Seance,
    referer: Text('Page the event happened on.'),
    segment: Type.Union([Type.Literal('A'), Type.Literal('B')], { description: 'A/B test segment.' }),
    recommended_by: Type.Union(
      RECOMMENDED_BY_VALUES.map((value) => Type.Literal(value)),
      { description: 'Which recommendation block led here.' },
    ),
    recommended_code: Text('Code of that block.'),
    source: Source,
    order_id: Type.String({ description: 'Event `purchase`: order id, at most 255 characters; empty counts as absent.' }),
    order_price: Type.Number({ description: 'Event `purchase`: order total.' }),
    delivery_type: Type.String({ description: 'Event `purchase`; empty counts as absent.' }),
    payment_type: Type.String({ description: 'Event `purchase`; empty counts as absent.' }),
    promocode: Type.String({ description: 'Event `purchase`.' }),
    campaign: Type.Union([Type.String(), Type.Number()], {
      description: 'Events `recone_view` / `recone_click`: the block’s `id` as GET /recommend answers it, or its code.',
    }),
    inventory: Type.Union([Type.String(), Type.Array(Type.String())], {
      description: 'Events `recone_view` / `recone_click`: what was shown, an id or a list of ids (comma-joined or an array).',
    }),
    position: Type.Integer({ minimum: 0, maximum: MAX_RECONE_POSITION, description: 'Events `recone_view` / `recone_click`: where.' }),
    email: Type.String({ description: 'Links the device to the profile with this email.' }),
    phone: Type.String({ description: 'Links the device to the profile with this phone (normalised to 7XXXXXXXXXX).' }),
  },
  ['shop_id', 'did', 'event'],
  { additionalProperties: true, description: WHERE },
);

const Scalar = Type.Union([Type.String(), Type.Number(), Type.Boolean()]);
const Variable = Type.Union([Scalar, Type.Array(Scalar)]);
const Identifier = (description: string) => Type.String({ description: `${description} (identifier group).` });

export const PushCustomBodySchema = ObjectWith(
  {
    shop_id: ShopIdSchema,
    did: DeviceIdSchema('Device id (identifier group); needs `sid`.'),
    sid: Sid,
    seance: Seance,
    email: Identifier('Email'),
    phone: Identifier('Phone'),
    external_id: Identifier('Customer id in the shop’s database'),
    loyalty_id: Identifier('Loyalty member id'),
    telegram_id: Identifier('Telegram id'),
    event: Type.String({ description: 'A custom event code created for the shop in the admin API.' }),
    category: Type.String({ description: 'Arbitrary string for segmentation.' }),
    label: Type.String({ description: 'Arbitrary string for segmentation.' }),
    value: Type.Integer({ description: 'Integer value of the event.' }),
    time: Type.Integer({
      description: `Unix time in seconds of an event in the past (at most ${MAX_CLOCK_SKEW_SECONDS} s ahead); default now.`,
    }),
    payload: Type.Record(Type.String(), Variable, { description: 'Scalars or arrays of scalars.' }),
  },
  ['shop_id', 'event'],
  {
    additionalProperties: Variable,
    description:
      `${WHERE} At least one identifier is required. Any other key matching [a-z0-9_]+ is an extra variable ` +
      `(a scalar or an array of scalars; at most ${MAX_VARIABLES}) passed to triggered chains.`,
  },
);
