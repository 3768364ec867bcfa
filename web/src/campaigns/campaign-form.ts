import { ApiError } from '../api/client';
import { localToIso } from '../loyalty/money';
import type { Campaign, CampaignSummary, CreateCampaignBody, MessagingLimits } from './campaigns.queries';

/**
 * The compose form's pure side (docs/bulk.md): the draft a person types, the body of
 * POST …/mailings/bulk made from it, where the server's refusals are shown, and the
 * messaging limits' rows. No I/O, no React.
 */

/** How often a campaign's page reads it again while it is not done. */
export const POLL_MS = 1500;

/** The channels a mailing and the limits know, in the API's order (typed against the limits' schema). */
export const CHANNELS = [
  'email',
  'sms',
  'mobile_push',
  'web_push',
  'telegram',
  'whatsapp',
  'max',
  'wallet',
] as const satisfies readonly (keyof MessagingLimits)[];
export type Channel = (typeof CHANNELS)[number];

/** The templates of a mailing exactly as the API holds them (email, sms, … and locales). */
export type MailingTemplates = Omit<CreateCampaignBody, 'name' | 'segment_ids' | 'send_at' | 'throttle_per_minute' | 'ab'>;
type ApiVariant = NonNullable<CreateCampaignBody['ab']>['variants'][number];

export const MIN_VARIANTS = 2;
export const MAX_VARIANTS = 4;

/** One A/B variant as typed: its share of the test and what it changes (empty: the mailing's own). */
export interface VariantDraft {
  readonly share: string;
  readonly subject: string;
  readonly html: string;
  readonly sms: string;
}

export interface CampaignDraft {
  readonly name: string;
  readonly segmentIds: readonly number[];
  readonly templates: MailingTemplates;
  readonly when: 'now' | 'later';
  /** A `datetime-local` value, read in the shop's time zone. */
  readonly sendAt: string;
  readonly throttle: string;
  readonly ab: boolean;
  readonly testShare: string;
  readonly metric: 'opens' | 'clicks';
  readonly afterHours: string;
  readonly variants: readonly VariantDraft[];
}

export const FIELDS = ['name', 'segment_ids', 'templates', 'send_at', 'throttle_per_minute', 'ab'] as const;
export type Field = (typeof FIELDS)[number];

/** Shares that add up to 100, the first ones a point larger: 2 → 50/50, 3 → 34/33/33. */
export function evenShares(count: number): number[] {
  const base = Math.floor(100 / count);
  return Array.from({ length: count }, (_, i) => base + (i < 100 - base * count ? 1 : 0));
}

export function emptyVariant(share: number): VariantDraft {
  return { share: String(share), subject: '', html: '', sms: '' };
}

/** The variants re-shared evenly after one is added or removed, keeping what each says. */
export function reshare(variants: readonly VariantDraft[]): VariantDraft[] {
  const shares = evenShares(variants.length);
  return variants.map((v, i) => ({ ...v, share: String(shares[i]) }));
}

export function newDraft(): CampaignDraft {
  return {
    name: '',
    segmentIds: [],
    templates: {},
    when: 'now',
    sendAt: '',
    throttle: '',
    ab: false,
    testShare: '20',
    metric: 'opens',
    afterHours: '4',
    variants: reshare([emptyVariant(0), emptyVariant(0)]),
  };
}

/** The channels the templates hold a message for, in the API's order. */
export function channelsOf(templates: MailingTemplates): Channel[] {
  return CHANNELS.filter((c) => templates[c] !== undefined);
}

/** The sum of the variants' shares as typed (a share that is not a whole number counts 0). */
export function sharesTotal(variants: readonly VariantDraft[]): number {
  return variants.reduce((sum, v) => sum + (wholeNumber(v.share) ?? 0), 0);
}

function wholeNumber(text: string): number | null {
  return /^\s*\d{1,9}\s*$/.test(text) ? Number(text) : null;
}

function variantBody(v: VariantDraft, channels: readonly Channel[]): ApiVariant {
  const out: ApiVariant = { share: wholeNumber(v.share) ?? Number.NaN };
  if (channels.includes('email')) {
    const email = { ...(v.subject.trim() !== '' && { subject: v.subject }), ...(v.html.trim() !== '' && { html: v.html }) };
    if (Object.keys(email).length > 0) out.email = email;
  }
  if (channels.includes('sms') && v.sms.trim() !== '') out.sms = { body: v.sms };
  return out;
}

export type Problem = { readonly field: Field; readonly key: 'sendAtMissing' | 'throttleNumber' | 'abNumbers' };

/**
 * The body of POST …/mailings/bulk, or the field the draft cannot be sent with (a time
 * that is not one, a number that is not). Everything else (shares that do not add up, an
 * empty segment, a template that does not parse) is the server's to refuse.
 */
export function buildBody(draft: CampaignDraft, timezone: string): { readonly body: CreateCampaignBody } | { readonly problem: Problem } {
  let sendAt: string | undefined;
  if (draft.when === 'later') {
    sendAt = localToIso(draft.sendAt, timezone) ?? undefined;
    if (sendAt === undefined) return { problem: { field: 'send_at', key: 'sendAtMissing' } };
  }
  let throttle: number | undefined;
  if (draft.throttle.trim() !== '') {
    throttle = wholeNumber(draft.throttle) ?? undefined;
    if (throttle === undefined) return { problem: { field: 'throttle_per_minute', key: 'throttleNumber' } };
  }
  let ab: CreateCampaignBody['ab'];
  if (draft.ab) {
    const testShare = wholeNumber(draft.testShare);
    const afterHours = wholeNumber(draft.afterHours);
    const variants = draft.variants.map((v) => variantBody(v, channelsOf(draft.templates)));
    if (testShare === null || afterHours === null || variants.some((v) => Number.isNaN(v.share)))
      return { problem: { field: 'ab', key: 'abNumbers' } };
    ab = { test_share: testShare, variants, metric: draft.metric, after_hours: afterHours };
  }
  return {
    body: {
      ...draft.templates,
      name: draft.name,
      segment_ids: [...draft.segmentIds],
      ...(sendAt !== undefined && { send_at: sendAt }),
      ...(throttle !== undefined && { throttle_per_minute: throttle }),
      ...(ab !== undefined && { ab }),
    },
  };
}

const TEMPLATE_FIELDS = new Set<string>([...CHANNELS, 'locales']);

/**
 * The field of the form a refused POST belongs at. The server names most fields in
 * backticks (the client reads them into `error.field`); its refusals about the audience
 * ("Segment 7 has no members.", "None of the 2 members … can be reached …") and about the
 * templates ("Template email.html does not parse", "… needs the template of at least one
 * channel") are sentences of their own, placed here by what they speak of.
 */
export function refusalField(error: unknown): Field | undefined {
  if (!(error instanceof ApiError) || error.status !== 422) return undefined;
  const head = error.field === undefined ? undefined : /^[^.[]+/.exec(error.field)?.[0];
  if (head !== undefined) {
    if ((FIELDS as readonly string[]).includes(head)) return head as Field;
    if (TEMPLATE_FIELDS.has(head)) return 'templates';
  }
  const m = error.message;
  if (/^Segments? [\d, ]+ (does not exist|has no members|have no members)/.test(m) || /^None of the \d+ members/.test(m))
    return 'segment_ids';
  if (/^Template \S+ does not parse/.test(m) || /needs the template of at least one channel/.test(m)) return 'templates';
  if (m.includes('`ab.')) return 'ab';
  return undefined;
}

/** A campaign is finished once done: its page stops reading it again. */
export function isFinished(c: Pick<Campaign | CampaignSummary, 'status'>): boolean {
  return c.status === 'done';
}

/** One channel's limits as typed in the form. */
export interface LimitsRow {
  readonly perDay: string;
  readonly perWeek: string;
  readonly quietFrom: string;
  readonly quietTo: string;
}

export type LimitsDraft = Readonly<Record<Channel, LimitsRow>>;

export function limitsDraft(limits: MessagingLimits): LimitsDraft {
  return Object.fromEntries(
    CHANNELS.map((c) => {
      const l = limits[c];
      return [
        c,
        {
          perDay: l?.bulk_per_day === undefined ? '' : String(l.bulk_per_day),
          perWeek: l?.bulk_per_week === undefined ? '' : String(l.bulk_per_week),
          quietFrom: l?.quiet_hours?.from ?? '',
          quietTo: l?.quiet_hours?.to ?? '',
        },
      ];
    }),
  ) as Record<Channel, LimitsRow>;
}

/** Whether a channel has any limit set (the form shows it even when the mailing does not use it). */
export function hasLimits(row: LimitsRow): boolean {
  return row.perDay !== '' || row.perWeek !== '' || row.quietFrom !== '' || row.quietTo !== '';
}

/**
 * The body of PUT …/messaging/limits (it replaces every channel's): empty fields are no
 * limit; a quiet-hours window needs both ends; a cap that is not a whole number is
 * answered with the channel that holds it.
 */
export function limitsBody(draft: LimitsDraft): { readonly body: MessagingLimits } | { readonly problem: Channel } {
  const body: MessagingLimits = {};
  for (const c of CHANNELS) {
    const row = draft[c];
    const perDay = row.perDay.trim() === '' ? undefined : wholeNumber(row.perDay);
    const perWeek = row.perWeek.trim() === '' ? undefined : wholeNumber(row.perWeek);
    if (perDay === null || perWeek === null) return { problem: c };
    const quiet = row.quietFrom !== '' || row.quietTo !== '';
    if (quiet && (row.quietFrom === '' || row.quietTo === '')) return { problem: c };
    if (perDay === undefined && perWeek === undefined && !quiet) continue;
    body[c] = {
      ...(perDay !== undefined && { bulk_per_day: perDay }),
      ...(perWeek !== undefined && { bulk_per_week: perWeek }),
      ...(quiet && { quiet_hours: { from: row.quietFrom, to: row.quietTo } }),
    };
  }
  return { body };
}

/** The channel a refused PUT of the limits names ("Field `email.quiet_hours.from` …"). */
export function limitsRefusalChannel(error: unknown): Channel | undefined {
  if (!(error instanceof ApiError) || error.status !== 422 || error.field === undefined) return undefined;
  const head = /^[^.[]+/.exec(error.field)?.[0];
  return CHANNELS.find((c) => c === head);
}
