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
 * A bulk mailing's A/B split and schedule (docs/bulk.md, "A/B test"): pure, no I/O, no
 * clock. Members are expanded in profile id order; the n-th member (its `position`)
 * falls in slot n mod 100, and the first `test_share` slots of every hundred are the
 * test, the others held for the winner. The test's members are counted in order (k) and
 * spread over the variants by (k × 61) mod 100 against their cumulative shares: 61 is
 * prime to 100, so every hundred test members split exactly by the shares, and a small
 * test alternates the variants rather than giving the first ones all to `a`.
 */

export const MIN_VARIANTS = 2;
export const MAX_VARIANTS = 4;
export const MAX_AFTER_HOURS = 30 * 24;
const SPREAD = 61;

const partial = <T extends Parameters<typeof Type.Partial>[0]>(schema: T) =>
  Type.Optional(Type.Partial(schema, { additionalProperties: false }));

export const VariantSchema = Type.Object(
  {
    share: Type.Integer({
      minimum: 1,
      maximum: 99,
      description: "Percent of the test group that gets this variant; the variants' shares add up to 100.",
    }),
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
    test_share: Type.Integer({
      minimum: 1,
      maximum: 100,
      description: 'Percent of the audience in the test; the others get the winner. 100: everyone is in the test and no winner is sent.',
    }),
    variants: Type.Array(VariantSchema, {
      minItems: MIN_VARIANTS,
      maxItems: MAX_VARIANTS,
      description: `${MIN_VARIANTS} to ${MAX_VARIANTS} variants, named a, b, c, d in order.`,
    }),
    metric: Type.Union([Type.Literal('opens'), Type.Literal('clicks')], {
      description: 'The winner has the highest open rate (or click rate): recipients who opened (clicked) over recipients messaged.',
    }),
    after_hours: Type.Integer({
      minimum: 1,
      maximum: MAX_AFTER_HOURS,
      description: `Hours after the last test message is due when the winner is chosen: 1 to ${MAX_AFTER_HOURS}.`,
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
  if (slot >= split.test_share) return HELD;
  const k = Math.floor(position / 100) * split.test_share + slot;
  const spread = (k * SPREAD) % 100;
  let upper = 0;
  for (let i = 0; i < split.variants.length; i += 1) {
    upper += split.variants[i]?.share ?? 0;
    if (spread < upper) return variantName(i);
  }
  return variantName(split.variants.length - 1);
}

/** A split's variant shares add up to 100; null when they do, else the problem (naming the field). */
export function checkSplit(split: AbSplit): string | null {
  const total = split.variants.reduce((sum, v) => sum + v.share, 0);
  return total === 100 ? null : `The shares of \`ab.variants\` add up to ${total}; they must add up to 100.`;
}

/** True when some members wait for the winner (the test share is under 100). */
export function holdsRest(split: AbSplit | null): boolean {
  return split !== null && split.test_share < 100;
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

/** The variant with the highest rate (hits / messaged); on a tie the earliest (a before b), so a test with no hits sends `a`. */
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
