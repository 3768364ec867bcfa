import { Type, type Static } from '@sinclair/typebox';
import {
  MAX_BUTTON_TEXT_LENGTH,
  MAX_COMPONENT_LENGTH,
  MAX_COMPONENTS,
  MAX_DELAY_SECONDS,
  MAX_HTML_LENGTH,
  MAX_LINK_LENGTH,
  MAX_NAME_LENGTH,
  MAX_SCREENS,
  POPUP_CHANNELS,
  POPUP_POSITIONS,
  POPUP_STATUSES,
  POPUP_STREAMS,
} from '../modules/popups/domain/popup.js';
import { ShopIdParam } from './common.schemas.js';

/** admin-api.md "Popups"; docs/popups.md says what each field does. */

const literals = <T extends readonly string[]>(values: T, description: string) =>
  Type.Unsafe<T[number]>(
    Type.Union(
      values.map((v) => Type.Literal(v)),
      { description },
    ),
  );

const ButtonText = Type.String({ maxLength: MAX_BUTTON_TEXT_LENGTH, description: 'The button’s label.' });
const Link = (platform: string) =>
  Type.String({ maxLength: MAX_LINK_LENGTH, description: `Opened on ${platform}: an http(s) address or an app deep link (scheme://…).` });

export const PopupActionsSchema = Type.Object(
  {
    link: Type.Optional(
      Type.Object(
        {
          button_text: Type.Optional(ButtonText),
          link_ios: Type.Optional(Link('iOS')),
          link_android: Type.Optional(Link('Android')),
          link_web: Type.Optional(Link('the web, and where the platform’s own link is empty')),
        },
        { additionalProperties: false, description: 'A button that opens a link.' },
      ),
    ),
    close: Type.Optional(
      Type.Object(
        { button_text: Type.Optional(ButtonText) },
        { additionalProperties: false, description: 'A button that closes the popup.' },
      ),
    ),
    system_mobile_push_subscribe: Type.Optional(
      Type.Object(
        { button_text: Type.Optional(ButtonText) },
        { additionalProperties: false, description: 'A button that asks for push notification permission (iOS opens the app’s settings).' },
      ),
    ),
  },
  { additionalProperties: false, description: 'The popup’s buttons; the apps get them as `popup_actions` (JSON text).' },
);

export const PopupComponentsSchema = Type.Record(
  Type.String({ pattern: '^[a-z0-9_]{1,40}$' }),
  Type.String({ maxLength: MAX_COMPONENT_LENGTH }),
  {
    maxProperties: MAX_COMPONENTS,
    description:
      'The popup drawn by the app from texts: `header`, `text`, `image` (http(s) URL), `button`, `header_enabled`, ' +
      '`text_enabled`, `image_enabled` ("1"/"0") …; every value a string, as the apps read them.',
  },
);

const Time = (what: string) =>
  Type.Union([Type.String({ format: 'date-time', maxLength: 40 }), Type.Null()], { description: `${what} (ISO 8601); null for none.` });

const fields = {
  name: Type.String({ minLength: 1, maxLength: MAX_NAME_LENGTH, description: 'What the team calls it; apps never see it.' }),
  status: literals(POPUP_STATUSES, 'Only an active popup is offered.'),
  position: literals(POPUP_POSITIONS, 'Where the app shows it.'),
  delay: Type.Integer({ minimum: 0, maximum: MAX_DELAY_SECONDS, description: 'Seconds the app waits before showing it; 0 by default.' }),
  streams: Type.Array(literals(POPUP_STREAMS, 'A platform.'), {
    maxItems: POPUP_STREAMS.length,
    description: 'Only for these platforms (`stream`); empty for all.',
  }),
  screens: Type.Array(Type.String({ pattern: '^[A-Za-z0-9_.:/-]{1,100}$' }), {
    maxItems: MAX_SCREENS,
    description: 'Only on these screens (`target_screen` of GET /init); empty for any answer.',
  }),
  channels: Type.Array(literals(POPUP_CHANNELS, 'A channel.'), {
    maxItems: POPUP_CHANNELS.length,
    description: 'Subscription channels the popup collects.',
  }),
  html: Type.String({
    maxLength: MAX_HTML_LENGTH,
    description:
      'Served exactly as written. No <script>, <iframe>, <object>, <form>…, no on* attributes, links http(s) or app deep links only.',
  }),
  components: PopupComponentsSchema,
  actions: PopupActionsSchema,
  web_push_system: Type.Boolean({ description: 'On the web, ask for push permission with the browser’s own prompt.' }),
  segment_id: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
    description: 'Only for customers in this segment; null for everyone.',
  }),
  starts_at: Time('Offered from'),
  ends_at: Time('Offered until'),
};

const { name, status, position, ...rest } = fields;

export const CreatePopupBodySchema = Type.Composite([Type.Object({ name, status, position }), Type.Partial(Type.Object(rest))], {
  additionalProperties: false,
});
export type CreatePopupBody = Static<typeof CreatePopupBodySchema>;

export const UpdatePopupBodySchema = Type.Partial(Type.Object(fields), { additionalProperties: false, minProperties: 1 });
export type UpdatePopupBody = Static<typeof UpdatePopupBodySchema>;

export const PopupParamsSchema = Type.Object({ shop_id: ShopIdParam, id: Type.String({ description: 'The popup id.' }) });

export const PopupSchema = Type.Object({
  id: Type.Integer({ description: 'The id the apps get and report in POST /popup/showed.' }),
  ...fields,
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  shown: Type.Integer({ description: 'Devices that reported it shown (POST /popup/showed), each once.' }),
  clicks: Type.Integer({ description: 'Devices that reported a click (POST /popup/clicked), each once.' }),
});
export type PopupBody = Static<typeof PopupSchema>;

export const PopupListSchema = Type.Object({ popups: Type.Array(PopupSchema, { description: 'Newest first.' }) });
