import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client';
import {
  addChannel,
  addLocale,
  channelsOf,
  emailFormat,
  errorCountByChannel,
  errorRange,
  errorsAt,
  fieldPath,
  localeProblem,
  parseFieldPath,
  parseVariables,
  previewRequest,
  removeChannel,
  removeLocale,
  setField,
  templateErrorsOf,
  type MailingTemplates,
} from './templates';

const welcome: MailingTemplates = { email: { subject: 'Hi', html: '<p>Hello {{ profile.first_name }}</p>' } };

describe('the templates object', () => {
  it('adds a channel with its required fields empty, and removes it', () => {
    const withSms = addChannel(welcome, null, 'sms');
    expect(withSms.sms).toEqual({ body: '' });
    expect(channelsOf(withSms, null)).toEqual(['email', 'sms']);
    expect(removeChannel(withSms, null, 'sms')).toEqual(welcome);
    expect(addChannel({}, null, 'mobile_push').mobile_push).toEqual({ title: '', body: '' });
  });

  it('sets a field, and drops an optional one set empty (the server derives it)', () => {
    const withText = setField(welcome, null, 'email', 'text', 'Hello');
    expect(withText.email).toEqual({ subject: 'Hi', html: '<p>Hello {{ profile.first_name }}</p>', text: 'Hello' });
    expect(setField(withText, null, 'email', 'text', '').email).toEqual(welcome.email);
    // A required field keeps its empty text: the server says it is missing, at its field.
    expect(setField(welcome, null, 'email', 'subject', '').email?.subject).toBe('');
  });

  it('keeps the locales when the default changes, and edits a locale without touching the default', () => {
    const withDe = addLocale(welcome, 'de');
    expect(withDe.locales).toEqual({ de: {} });
    const edited = setField(withDe, null, 'email', 'subject', 'Hello');
    expect(edited.locales).toEqual({ de: {} });
    // A locale's channel starts as a copy of the default's.
    const de = addChannel(withDe, 'de', 'email');
    expect(de.locales?.de?.email).toEqual(welcome.email);
    const translated = setField(de, 'de', 'email', 'subject', 'Hallo');
    expect(translated.locales?.de?.email?.subject).toBe('Hallo');
    expect(translated.email).toEqual(welcome.email);
    expect(channelsOf(translated, 'de')).toEqual(['email']);
  });

  it('refuses a locale tag that is malformed, there already (any case) or one too many', () => {
    expect(localeProblem(welcome, 'pt-BR')).toBeNull();
    expect(localeProblem(welcome, 'german')).toBe('invalid');
    expect(localeProblem(welcome, 'd')).toBe('invalid');
    expect(localeProblem(welcome, 'de AT')).toBe('invalid');
    expect(localeProblem(addLocale(welcome, 'de'), 'DE')).toBe('duplicate');
    const many = Array.from({ length: 50 }, (_, i) => `l${String.fromCharCode(97 + (i % 26))}-x${i}`).reduce(addLocale, welcome);
    expect(Object.keys(many.locales ?? {})).toHaveLength(50);
    expect(localeProblem(many, 'fr')).toBe('tooMany');
    expect(addLocale(welcome, 'no good')).toBe(welcome);
  });

  it('removes a locale, and `locales` with the last one', () => {
    const two = addLocale(addLocale(welcome, 'de'), 'fr');
    expect(removeLocale(two, 'de').locales).toEqual({ fr: {} });
    expect(removeLocale(removeLocale(two, 'de'), 'fr')).toEqual(welcome);
  });
});

describe('where an error belongs', () => {
  it('names and reads a field path as the server spells it', () => {
    expect(fieldPath(null, 'email', 'html')).toBe('email.html');
    expect(fieldPath('pt-BR', 'sms', 'body')).toBe('locales.pt-BR.sms.body');
    expect(parseFieldPath('locales.pt-BR.sms.body')).toEqual({ variant: 'pt-BR', channel: 'sms', field: 'body' });
    expect(parseFieldPath('email.html')).toEqual({ variant: null, channel: 'email', field: 'html' });
    expect(parseFieldPath('email.nope')).toBeUndefined();
    expect(parseFieldPath('fax.body')).toBeUndefined();
    expect(parseFieldPath('locales.de')).toBeUndefined();
    expect(parseFieldPath('name')).toBeUndefined();
  });

  it("takes a refused save's template and line from the server's sentence", () => {
    const refused = new ApiError(
      422,
      'VALIDATION_FAILED',
      'Template locales.de.email.html does not parse: tag "iff" not found, line:2, col:3',
      undefined,
    );
    expect(templateErrorsOf(refused)).toEqual([{ name: 'locales.de.email.html', message: refused.message, line: 2, column: 3 }]);
    // Under a chain's step, the prefix is stripped.
    const step = new ApiError(422, 'VALIDATION_FAILED', 'Template steps[1].send.sms.body does not parse: x', undefined);
    expect(templateErrorsOf(step, 'steps[1].send.')).toEqual([{ name: 'sms.body', message: step.message }]);
    // A schema refusal names the field in backticks (ApiError.field).
    const schema = new ApiError(422, 'VALIDATION_FAILED', 'Field `email.subject` must be …', 'email.subject');
    expect(templateErrorsOf(schema)).toEqual([{ name: 'email.subject', message: schema.message }]);
    expect(templateErrorsOf(new ApiError(422, 'VALIDATION_FAILED', 'Field `name` is long', 'name'))).toEqual([]);
    expect(templateErrorsOf(new ApiError(403, 'FORBIDDEN', 'no', undefined))).toEqual([]);
    expect(templateErrorsOf(new Error('x'))).toEqual([]);
  });

  it('filters a field’s errors and counts them per channel of a variant', () => {
    const errors = [
      { name: 'email.html', message: 'a', line: 1 },
      { name: 'email.subject', message: 'b' },
      { name: 'locales.de.sms.body', message: 'c' },
    ];
    expect(errorsAt(errors, null, 'email', 'html')).toEqual([errors[0]]);
    expect(errorsAt(errors, 'de', 'sms', 'body')).toEqual([errors[2]]);
    expect(errorCountByChannel(errors, null)).toEqual({ email: 2 });
    expect(errorCountByChannel(errors, 'de')).toEqual({ sms: 1 });
  });

  it('puts an error from its column to its line’s end, within the text', () => {
    const source = '<p>\n  {% iff x %}\n</p>';
    expect(errorRange(source, 2, 3)).toEqual({ from: 6, to: 17 });
    expect(source.slice(6, 17)).toBe('{% iff x %}');
    expect(errorRange(source, 2, undefined)).toEqual({ from: 4, to: 17 });
    expect(errorRange(source, 9, 1)).toEqual({ from: 18, to: 22 });
    expect(errorRange(source, undefined, undefined)).toEqual({ from: 0, to: 3 });
    // A column past the line's end marks the whole line.
    expect(errorRange(source, 1, 40)).toEqual({ from: 0, to: 3 });
    expect(errorRange('', 3, 2)).toEqual({ from: 0, to: 0 });
  });
});

describe('the preview', () => {
  it('says MJML when the HTML starts with <mjml>', () => {
    expect(emailFormat('  <mjml><mj-body></mj-body></mjml>')).toBe('mjml');
    expect(emailFormat('<p>Hi</p>')).toBe('html');
    expect(emailFormat('<mjmlx>')).toBe('html');
  });

  it('asks for a channel the edited variant renders, with the customer and the variables', () => {
    const de = addLocale(welcome, 'de');
    expect(previewRequest(de, 'email', 'de', 42, { code: 'A1' })).toEqual({
      channel: 'email',
      template: de,
      locale: 'de',
      profile_id: 42,
      variables: { code: 'A1' },
    });
    expect(previewRequest(welcome, 'email', null, null, {})).toEqual({ channel: 'email', template: welcome });
    expect(previewRequest(welcome, 'sms', null, null, {})).toBeUndefined();
  });

  it('reads the variables as a JSON object', () => {
    expect(parseVariables('')).toEqual({});
    expect(parseVariables('{"a": 1}')).toEqual({ a: 1 });
    expect(parseVariables('[1]')).toBeUndefined();
    expect(parseVariables('{a')).toBeUndefined();
  });
});
