import { Type, type Static } from '@sinclair/typebox';

/**
 * A mailing's templates (admin-api.md, "Messaging"): one template per channel, Liquid
 * text; `locales` holds variants by locale tag ("de", "pt-BR"), each replacing whole
 * channel templates of the default (docs/messaging-templates.md).
 */

const text = (description: string, maxLength = 200_000) => Type.String({ maxLength, description });

export const EmailTemplateSchema = Type.Object(
  {
    subject: text('Liquid; plain text (not escaped).', 2000),
    html: text('Liquid; MJML when it starts with <mjml>, else HTML. Every output is HTML-escaped; `| raw` opts out.'),
    text: Type.Optional(text('Liquid; the plain-text part. Derived from the HTML when absent.')),
  },
  { additionalProperties: false },
);
export const SmsTemplateSchema = Type.Object({ body: text('Liquid; not escaped.', 5000) }, { additionalProperties: false });
export const PushTemplateSchema = Type.Object(
  {
    title: text('Liquid; not escaped.', 2000),
    body: text('Liquid; not escaped.', 5000),
    url: Type.Optional(text('Liquid; the landing link.', 4000)),
    icon: Type.Optional(text('Liquid; icon link.', 4000)),
    picture: Type.Optional(text('Liquid; extra picture link.', 4000)),
  },
  { additionalProperties: false },
);
export const ChatTemplateSchema = Type.Object({ text: text('Liquid; not escaped.', 10_000) }, { additionalProperties: false });

const channelTemplates = {
  email: Type.Optional(EmailTemplateSchema),
  sms: Type.Optional(SmsTemplateSchema),
  mobile_push: Type.Optional(PushTemplateSchema),
  web_push: Type.Optional(PushTemplateSchema),
  telegram: Type.Optional(ChatTemplateSchema),
  whatsapp: Type.Optional(ChatTemplateSchema),
  max: Type.Optional(ChatTemplateSchema),
  wallet: Type.Optional(ChatTemplateSchema),
};

export const ChannelTemplatesSchema = Type.Object(channelTemplates, { additionalProperties: false });
export type ChannelTemplates = Static<typeof ChannelTemplatesSchema>;
export type TemplateChannel = keyof ChannelTemplates;
export const TEMPLATE_CHANNELS = Object.keys(channelTemplates) as TemplateChannel[];

export const LOCALE_PATTERN = '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$';

export const MailingTemplatesSchema = Type.Object(
  {
    ...channelTemplates,
    locales: Type.Optional(
      Type.Record(Type.String({ pattern: LOCALE_PATTERN }), ChannelTemplatesSchema, {
        description: 'Variants by locale tag; a variant replaces the default template of each channel it names.',
        maxProperties: 50,
      }),
    ),
  },
  { additionalProperties: false },
);
export type MailingTemplates = Static<typeof MailingTemplatesSchema>;

/** Every template string of a mailing with its path ("email.html", "locales.de.sms.body"), for the save-time parse. */
export function templateStrings(templates: MailingTemplates): Array<{ path: string; source: string; html: boolean }> {
  const out: Array<{ path: string; source: string; html: boolean }> = [];
  const walk = (prefix: string, set: ChannelTemplates) => {
    for (const channel of TEMPLATE_CHANNELS) {
      const fields = set[channel] as Record<string, string | undefined> | undefined;
      if (!fields) continue;
      for (const [field, source] of Object.entries(fields)) {
        if (typeof source === 'string') {
          out.push({ path: `${prefix}${channel}.${field}`, source, html: channel === 'email' && field === 'html' });
        }
      }
    }
  };
  walk('', templates);
  for (const [locale, set] of Object.entries(templates.locales ?? {})) walk(`locales.${locale}.`, set);
  return out;
}

/**
 * The locale variant for a profile's locale: the exact tag (case-insensitive), else its
 * language ("pt" for "pt-BR"), else none (the default templates).
 */
export function chooseLocale(available: readonly string[], wanted: string | undefined): string | undefined {
  if (!wanted) return undefined;
  const lower = wanted.toLowerCase().replace(/_/g, '-');
  const exact = available.find((tag) => tag.toLowerCase() === lower);
  if (exact) return exact;
  const language = lower.split('-')[0];
  return available.find((tag) => tag.toLowerCase() === language);
}

/** The channel templates for a locale: the default ones, each replaced by the variant's where it has one. */
export function templatesFor(templates: MailingTemplates, wanted: string | undefined): ChannelTemplates {
  const { locales, ...defaults } = templates;
  const tag = chooseLocale(Object.keys(locales ?? {}), wanted);
  return tag === undefined ? defaults : { ...defaults, ...locales?.[tag] };
}

/** The channels a mailing can send on (any locale's template counts). */
export function mailingChannels(templates: MailingTemplates): TemplateChannel[] {
  const variants = Object.values(templates.locales ?? {});
  return TEMPLATE_CHANNELS.filter((c) => templates[c] !== undefined || variants.some((v) => v[c] !== undefined));
}
