import { Type, type Static } from '@sinclair/typebox';
import {
  EmailTemplateSchema,
  PushTemplateSchema,
  SmsTemplateSchema,
  ChatTemplateSchema,
  type ChannelTemplates,
  type MailingTemplates,
} from '../../messaging/index.js';

/**
 * A bulk mailing's A/B split and schedule (docs/bulk.md): pure, no I/O, no clock.
 * Members are expanded in profile id order; the n-th member (its `position`) falls in
 * slot n mod 100, and the variants take the slots by their shares in order, so that a
 * split of 10/10 puts exactly 10% in each variant and holds the other 80% for the winner.
 */

export const MAX_VARIANTS = 5;
export const MIN_DECIDE_SECONDS = 60;
export const MAX_DECIDE_SECONDS = 30 * 24 * 3600;

const partial = <T extends Parameters<typeof Type.Partial>[0]>(schema: T) =>
  Type.Optional(Type.Partial(schema, { additionalProperties: false }));

export const VariantSchema = Type.Object(
  {
    share: Type.Integer({ minimum: 1, maximum: 100, description: 'Percent of the members that get this variant.' }),
    email: partial(EmailTemplateSchema),
    sms: partial(SmsTemplateSchema),
    mobile_push: partial(PushTemplateSchema),
    web_push: partial(PushTemplateSchema),
    telegram: partial(ChatTemplateSchema),
    whatsapp: partial(ChatTemplateSchema),
    max: partial(ChatTemplateSchema),
    wallet: partial(ChatTemplateSchema),
  },
  { additionalProperties: false, description: "Fields that replace those of the mailing's templates (a subject alone, or the content)." },
);
export type Variant = Static<typeof VariantSchema>;

export const AbSplitSchema = Type.Object(
  {
    variants: Type.Array(VariantSchema, { minItems: 2, maxItems: MAX_VARIANTS, description: 'Named a, b, c … in order.' }),
    decide_after_seconds: Type.Integer({
      minimum: MIN_DECIDE_SECONDS,
      maximum: MAX_DECIDE_SECONDS,
      description: 'After the last variant message was written, the winner is chosen and sent to the rest.',
    }),
    metric: Type.Union([Type.Literal('opens'), Type.Literal('clicks')], {
      description: 'What makes a winner: the share of its recipients who opened, or clicked.',
    }),
  },
  { additionalProperties: false },
);
export type AbSplit = Static<typeof AbSplitSchema>;

export const HELD = 'rest';

export function variantName(index: number): string {
  return String.fromCharCode(97 + index);
}

/** The variant of the member at `position`: a name, HELD for the rest, '' without a split. */
export function variantOf(position: number, split: AbSplit | null): string {
  if (!split) return '';
  const slot = position % 100;
  let upper = 0;
  for (let i = 0; i < split.variants.length; i += 1) {
    upper += split.variants[i]?.share ?? 0;
    if (slot < upper) return variantName(i);
  }
  return HELD;
}

/** A split's shares add up to at most 100; null when they do, else the problem. */
export function checkSplit(split: AbSplit): string | null {
  const total = split.variants.reduce((sum, v) => sum + v.share, 0);
  return total > 100 ? `The variants' shares add up to ${total}; at most 100.` : null;
}

/** True when some members wait for the winner (the shares leave a rest). */
export function holdsRest(split: AbSplit | null): boolean {
  return split !== null && split.variants.reduce((sum, v) => sum + v.share, 0) < 100;
}

/** The mailing's templates with a variant's fields laid over them, channel by channel. */
export function templatesOfVariant(templates: MailingTemplates, split: AbSplit | null, name: string): MailingTemplates {
  const index = name.length === 1 ? name.charCodeAt(0) - 97 : -1;
  const variant = split?.variants[index];
  if (!variant) return templates;
  const out: Record<string, unknown> = { ...templates };
  for (const [channel, fields] of Object.entries(variant)) {
    if (channel === 'share' || fields === undefined) continue;
    const base = templates[channel as keyof ChannelTemplates] as Record<string, unknown> | undefined;
    out[channel] = { ...base, ...(fields as Record<string, unknown>) };
  }
  return out;
}

/** The variant with the highest rate (hits / messaged); the first one on a tie. */
export function pickWinner(results: ReadonlyArray<{ variant: string; messaged: number; hits: number }>): string {
  let best = results[0];
  for (const r of results) {
    if (!best || r.hits * best.messaged > best.hits * r.messaged) best = r;
  }
  return best?.variant ?? variantName(0);
}

/** When the n-th recipient of a throttled stage is due: `perMinute` recipients per minute from `base`. */
export function throttleSlot(base: number, n: number, perMinute: number | null, now: number): number {
  if (perMinute === null) return now;
  return Math.max(now, base + Math.floor(n / perMinute) * 60_000);
}
