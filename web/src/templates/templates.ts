import { ApiError } from '../api/client';
import type { paths } from '../api/schema';

/**
 * The pure logic of the template editor (templates-editor.tsx): the templates object as the
 * API holds it for a transactional mailing, a chain's send step and a bulk mailing, its
 * edits, its locale variants, and where an error of the server belongs (field and line).
 */

type PreviewBody = paths['/admin/v1/shops/{shop_id}/templates/preview']['post']['requestBody']['content']['application/json'];
export type PreviewAnswer = paths['/admin/v1/shops/{shop_id}/templates/preview']['post']['responses'][200]['content']['application/json'];
export type TemplateError = PreviewAnswer['errors'][number];

/** The templates object (`MailingTemplates` of the server): channel templates and `locales`. */
export type MailingTemplates = PreviewBody['template'];
/** One locale's (or the default's) channel templates. */
export type ChannelTemplates = Omit<MailingTemplates, 'locales'>;
export type Channel = PreviewBody['channel'];

/** Every channel a template can hold, in the order the editor's tabs show them. */
export const CHANNELS: readonly Channel[] = ['email', 'sms', 'mobile_push', 'web_push', 'telegram', 'whatsapp', 'max', 'wallet'];

/** A channel's fields, each marked required or not (an optional field left empty is dropped). */
export const CHANNEL_FIELDS: Readonly<Record<Channel, readonly { readonly name: string; readonly required: boolean }[]>> = {
  email: [
    { name: 'subject', required: true },
    { name: 'html', required: true },
    { name: 'text', required: false },
  ],
  sms: [{ name: 'body', required: true }],
  mobile_push: [
    { name: 'title', required: true },
    { name: 'body', required: true },
    { name: 'url', required: false },
    { name: 'icon', required: false },
    { name: 'picture', required: false },
  ],
  web_push: [
    { name: 'title', required: true },
    { name: 'body', required: true },
    { name: 'url', required: false },
    { name: 'icon', required: false },
    { name: 'picture', required: false },
  ],
  telegram: [{ name: 'text', required: true }],
  whatsapp: [{ name: 'text', required: true }],
  max: [{ name: 'text', required: true }],
  wallet: [{ name: 'text', required: true }],
};

/** The server's locale tag pattern (LOCALE_PATTERN of domain/mailing.ts) and its limits. */
export const LOCALE_PATTERN = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;
export const MAX_LOCALES = 50;
export const MAX_LOCALE_LENGTH = 35;

/** `null` is the default templates; a string is a locale variant's tag. */
export type Variant = string | null;

type Fields = Record<string, string | undefined>;

/** The channel templates of a variant (the default's without `locales`). */
export function variantTemplates(templates: MailingTemplates, variant: Variant): ChannelTemplates {
  if (variant === null) {
    const { locales: _locales, ...defaults } = templates;
    return defaults;
  }
  return templates.locales?.[variant] ?? {};
}

function withVariant(templates: MailingTemplates, variant: Variant, next: ChannelTemplates): MailingTemplates {
  if (variant === null) {
    return templates.locales === undefined ? { ...next } : { ...next, locales: templates.locales };
  }
  return { ...templates, locales: { ...templates.locales, [variant]: next } };
}

/** The channel's template in a variant, or undefined when the variant has none. */
export function channelTemplate(templates: MailingTemplates, variant: Variant, channel: Channel): Fields | undefined {
  return variantTemplates(templates, variant)[channel];
}

/** The channels with a template in a variant. */
export function channelsOf(templates: MailingTemplates, variant: Variant): Channel[] {
  const set = variantTemplates(templates, variant);
  return CHANNELS.filter((c) => set[c] !== undefined);
}

/** A new, empty template of a channel: its required fields empty. */
export function emptyChannel(channel: Channel): Fields {
  return Object.fromEntries(CHANNEL_FIELDS[channel].filter((f) => f.required).map((f) => [f.name, '']));
}

/**
 * Adds a channel's template to a variant: for a locale, a copy of the default's template
 * (the usual start of a translation), else an empty one.
 */
export function addChannel(templates: MailingTemplates, variant: Variant, channel: Channel): MailingTemplates {
  const start = variant === null ? undefined : channelTemplate(templates, null, channel);
  const set = variantTemplates(templates, variant);
  return withVariant(templates, variant, { ...set, [channel]: start ? { ...start } : emptyChannel(channel) });
}

export function removeChannel(templates: MailingTemplates, variant: Variant, channel: Channel): MailingTemplates {
  const { [channel]: _removed, ...rest } = variantTemplates(templates, variant);
  return withVariant(templates, variant, rest);
}

/** Sets one field; an optional field set to '' is dropped, so the server derives or omits it. */
export function setField(templates: MailingTemplates, variant: Variant, channel: Channel, field: string, value: string): MailingTemplates {
  const current = channelTemplate(templates, variant, channel) ?? emptyChannel(channel);
  const required = CHANNEL_FIELDS[channel].find((f) => f.name === field)?.required ?? true;
  const next: Fields = { ...current };
  if (value === '' && !required) delete next[field];
  else next[field] = value;
  const set = variantTemplates(templates, variant);
  return withVariant(templates, variant, { ...set, [channel]: next });
}

export function localesOf(templates: MailingTemplates): string[] {
  return Object.keys(templates.locales ?? {});
}

export type LocaleProblem = 'invalid' | 'duplicate' | 'tooMany';

/** Why a tag cannot be added as a locale variant, or null when it can (case-insensitive duplicates). */
export function localeProblem(templates: MailingTemplates, tag: string): LocaleProblem | null {
  const existing = localesOf(templates);
  if (!LOCALE_PATTERN.test(tag) || tag.length > MAX_LOCALE_LENGTH) return 'invalid';
  if (existing.some((t) => t.toLowerCase() === tag.toLowerCase())) return 'duplicate';
  if (existing.length >= MAX_LOCALES) return 'tooMany';
  return null;
}

/** Adds an empty locale variant (it uses every default template until a channel is overridden). */
export function addLocale(templates: MailingTemplates, tag: string): MailingTemplates {
  if (localeProblem(templates, tag) !== null) return templates;
  return { ...templates, locales: { ...templates.locales, [tag]: {} } };
}

export function removeLocale(templates: MailingTemplates, tag: string): MailingTemplates {
  const { [tag]: _removed, ...rest } = templates.locales ?? {};
  const { locales: _locales, ...defaults } = templates;
  return Object.keys(rest).length === 0 ? defaults : { ...defaults, locales: rest };
}

/** The path of a field as the server names it: `email.html`, `locales.de.sms.body`. */
export function fieldPath(variant: Variant, channel: Channel, field: string): string {
  return `${variant === null ? '' : `locales.${variant}.`}${channel}.${field}`;
}

export interface FieldRef {
  readonly variant: Variant;
  readonly channel: Channel;
  readonly field: string;
}

/** The inverse of fieldPath: which variant, channel and field a server's path names, or undefined. */
export function parseFieldPath(path: string): FieldRef | undefined {
  const parts = path.split('.');
  let variant: Variant = null;
  if (parts[0] === 'locales') {
    if (parts.length !== 4) return undefined;
    variant = parts[1] ?? null;
    parts.splice(0, 2);
  }
  const [channel, field] = parts;
  if (parts.length !== 2 || channel === undefined || field === undefined) return undefined;
  if (!(CHANNELS as readonly string[]).includes(channel)) return undefined;
  if (!CHANNEL_FIELDS[channel as Channel].some((f) => f.name === field)) return undefined;
  return { variant, channel: channel as Channel, field };
}

/** An error at a field of the templates (a preview's error, or a refused save's). */
export interface FieldError {
  /** The field's path, relative to the templates: `email.html`, `locales.de.sms.body`. */
  readonly name: string;
  readonly message: string;
  readonly line?: number;
  readonly column?: number;
}

/** The preview's errors in the editor's shape. */
export function previewErrors(errors: readonly TemplateError[]): FieldError[] {
  return errors.map((e) => ({
    name: e.field,
    message: e.message,
    ...(e.line !== undefined && { line: e.line }),
    ...(e.column !== undefined && { column: e.column }),
  }));
}

/**
 * A refused save as field errors under the templates. The server names a template that does
 * not parse in its sentence (`Template email.html does not parse: … line:2, col:1`) and a
 * schema refusal in backticks (ApiError.field); `prefix` strips what the templates sit under
 * in the request (a chain's `steps[2].send.`). Anything else is not a templates' error: [].
 */
export function templateErrorsOf(error: unknown, prefix = ''): FieldError[] {
  if (!(error instanceof ApiError) || error.status !== 422) return [];
  const named = /^Template (\S+) does not parse/.exec(error.message)?.[1] ?? error.field;
  if (named === undefined) return [];
  const path = named.startsWith(prefix) ? named.slice(prefix.length) : named;
  if (parseFieldPath(path) === undefined) return [];
  const at = /line:(\d+), col:(\d+)/.exec(error.message);
  return [{ name: path, message: error.message, ...(at && { line: Number(at[1]), column: Number(at[2]) }) }];
}

/** The errors of one field. */
export function errorsAt(errors: readonly FieldError[], variant: Variant, channel: Channel, field: string): FieldError[] {
  const path = fieldPath(variant, channel, field);
  return errors.filter((e) => e.name === path);
}

/** The number of errors per channel in a variant (for the tabs' marks). */
export function errorCountByChannel(errors: readonly FieldError[], variant: Variant): Partial<Record<Channel, number>> {
  const counts: Partial<Record<Channel, number>> = {};
  for (const e of errors) {
    const ref = parseFieldPath(e.name);
    if (ref === undefined || ref.variant !== variant) continue;
    counts[ref.channel] = (counts[ref.channel] ?? 0) + 1;
  }
  return counts;
}

/**
 * Where an error sits in a field's text, as offsets for the editor's diagnostics: from its
 * column (or the line's start) to the line's end; the whole text's end when the line is past
 * it; the first line when the error names none.
 */
export function errorRange(source: string, line: number | undefined, column: number | undefined): { from: number; to: number } {
  const lines = source.split('\n');
  const index = Math.min(Math.max((line ?? 1) - 1, 0), Math.max(lines.length - 1, 0));
  let start = 0;
  for (let i = 0; i < index; i += 1) start += (lines[i]?.length ?? 0) + 1;
  const length = lines[index]?.length ?? 0;
  const from = start + Math.min(Math.max((column ?? 1) - 1, 0), length);
  const to = start + length;
  return { from: from === to && from > start ? start : from, to };
}

/** Email HTML is MJML when it starts with `<mjml>` (docs/messaging-templates.md), else HTML. */
export function emailFormat(html: string): 'mjml' | 'html' {
  return /^\s*<mjml[\s>]/i.test(html) ? 'mjml' : 'html';
}

/** The variant the preview renders: the one edited, else the default (the request's `locale` is omitted). */
export function previewRequest(
  templates: MailingTemplates,
  channel: Channel,
  variant: Variant,
  profileId: number | null,
  variables: Record<string, unknown>,
): PreviewBody | undefined {
  const effective = { ...variantTemplates(templates, null), ...(variant === null ? {} : variantTemplates(templates, variant)) };
  if (effective[channel] === undefined) return undefined;
  return {
    channel,
    template: templates,
    ...(variant !== null && { locale: variant }),
    ...(profileId !== null && { profile_id: profileId }),
    ...(Object.keys(variables).length > 0 && { variables }),
  };
}

/** Variables typed as a JSON object; undefined when the text is not one. Empty text: no variables. */
export function parseVariables(text: string): Record<string, unknown> | undefined {
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
