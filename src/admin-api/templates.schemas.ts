import { Type, type Static } from '@sinclair/typebox';
import { LOCALE_PATTERN, MailingTemplatesSchema } from '../modules/messaging/domain/mailing.js';

/**
 * The template editor's preview and test send (docs/messaging-templates.md, "Preview and
 * test send"): any template of any kind, in the shape of a transactional mailing.
 */

const ChannelSchema = Type.Union(
  ['email', 'sms', 'mobile_push', 'web_push', 'telegram', 'whatsapp', 'max', 'wallet'].map((c) => Type.Literal(c)),
  { description: 'The channel whose template is rendered (or sent).' },
);

const common = {
  channel: ChannelSchema,
  template: Type.Object(MailingTemplatesSchema.properties, {
    additionalProperties: false,
    description:
      'The templates as a transactional mailing (or a chain step, or a bulk mailing) holds them: `{"email": {…}, "sms": {…}, …, "locales"?: {…}}`. Saved nowhere.',
  }),
  profile_id: Type.Optional(
    Type.Integer({ minimum: 1, description: 'A customer of the shop whose profile the templates read; the sample profile without one.' }),
  ),
  variables: Type.Optional(
    Type.Record(Type.String(), Type.Unknown(), {
      description: 'The variables, by name and under `variables`, as the send path gives them.',
    }),
  ),
};

export const TemplatePreviewBodySchema = Type.Object(
  {
    ...common,
    locale: Type.Optional(
      Type.String({ pattern: LOCALE_PATTERN, maxLength: 35, description: "The locale variant to render; else the profile's `locale`." }),
    ),
  },
  { additionalProperties: false },
);
export type TemplatePreviewBody = Static<typeof TemplatePreviewBodySchema>;

export const TemplateErrorSchema = Type.Object({
  field: Type.String({ description: 'The field of the template, as the request spells it: `email.html`, `locales.de.sms.body`.' }),
  line: Type.Optional(
    Type.Integer({ minimum: 1, description: "The line in the field's source (an MJML error: in the HTML after Liquid)." }),
  ),
  column: Type.Optional(Type.Integer({ minimum: 1 })),
  message: Type.String(),
});

export const TemplatePreviewSchema = Type.Object(
  {
    channel: Type.String(),
    locale: Type.Union([Type.String(), Type.Null()], { description: 'The locale variant rendered; null for the default templates.' }),
    rendered: Type.Union([Type.Record(Type.String(), Type.String()), Type.Null()], {
      description:
        "The channel's fields rendered (email: `subject`, `html` after MJML, `text`; sms: `body`; push: `title`, `body`, …); null when a template of the channel does not parse or render.",
    }),
    errors: Type.Array(TemplateErrorSchema, {
      description: 'Every template that does not parse (any channel or locale), and what stopped the render, each at its line.',
    }),
    profile: Type.Object({
      source: Type.Union([Type.Literal('customer'), Type.Literal('sample')]),
      id: Type.Union([Type.Integer(), Type.Null()]),
    }),
  },
  { description: 'The template rendered as the send path renders it; nothing is sent.' },
);

export const TemplateTestBodySchema = Type.Object(
  {
    ...common,
    to: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 254,
        description:
          'The address on the channel: an email address, a phone number (sms, whatsapp, max), a Telegram chat id. Push and wallet tests go to the devices of `profile_id`.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type TemplateTestBody = Static<typeof TemplateTestBodySchema>;

export const TemplateTestSchema = Type.Object({
  code: Type.String({ description: 'The test message; its delivery is in GET …/messages?code= with `test: true`.' }),
});
