import type { Mailing, PutMailingBody } from './mailings.queries';
import { CHANNELS, type Channel, type MailingTemplates } from './templates';

/** The mailing's templates alone (its answer also holds id, code, name and dates). */
export function templatesOfMailing(mailing: Mailing): MailingTemplates {
  const templates: Record<string, unknown> = {};
  for (const channel of CHANNELS) if (mailing[channel] !== undefined) templates[channel] = mailing[channel];
  if (mailing.locales !== undefined) templates.locales = mailing.locales;
  return templates;
}

/** The PUT's body: the name (empty: none) and the templates. */
export function mailingBody(name: string, templates: MailingTemplates): PutMailingBody {
  return { name: name.trim() === '' ? null : name.trim(), ...templates };
}

/** The channels a mailing sends on: any locale's template counts (as the server's mailingChannels). */
export function mailingChannels(templates: MailingTemplates): Channel[] {
  const variants = Object.values(templates.locales ?? {});
  return CHANNELS.filter((c) => templates[c] !== undefined || variants.some((v) => v[c] !== undefined));
}

/** A code /transact names: what the API takes in a path (1 to 255 characters), without spaces or slashes for a readable URL. */
export const CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,254}$/;

export type CodeProblem = 'missing' | 'invalid';

export function codeProblem(code: string): CodeProblem | null {
  if (code.trim() === '') return 'missing';
  return CODE_PATTERN.test(code) ? null : 'invalid';
}

/** The save's 422 at the form's own fields: `name`, or the code in the path. */
export type MailingFormField = 'name' | 'code';
export const MAILING_FORM_FIELDS: readonly MailingFormField[] = ['name', 'code'];
