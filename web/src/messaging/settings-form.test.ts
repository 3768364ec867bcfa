import { describe, expect, it } from 'vitest';
import { buildSettings, fieldOfSettingsError, fieldsOf, initialValues, parseStored, putBody } from './settings-form';

const smtpSchema = {
  type: 'object',
  required: ['smtp_url', 'from'],
  properties: {
    timeout_ms: { type: 'integer' },
    smtp_url: { type: 'string', maxLength: 2048, description: 'smtp://user:pass@host:port' },
    from: { type: 'string' },
    dkim: { type: 'object', properties: {} },
    starttls: { anyOf: [{ const: 'required' }, { const: 'never' }] },
    verify: { type: 'boolean' },
    private_key: { type: 'string', maxLength: 16384 },
  },
};

describe('fieldsOf', () => {
  it('draws each setting as its kind, required ones first, secrets marked', () => {
    const fields = fieldsOf(smtpSchema, ['smtp_url', 'dkim']);
    expect(fields.map((f) => [f.name, f.kind, f.required, f.secret])).toEqual([
      ['smtp_url', 'text', true, true],
      ['from', 'text', true, false],
      ['timeout_ms', 'number', false, false],
      ['dkim', 'json', false, true],
      ['starttls', 'choice', false, false],
      ['verify', 'boolean', false, false],
      ['private_key', 'long-text', false, false],
    ]);
    expect(fields[4]?.choices).toEqual(['required', 'never']);
  });

  it('draws nothing from a schema without properties', () => {
    expect(fieldsOf(undefined, [])).toEqual([]);
    expect(fieldsOf({ type: 'string' }, [])).toEqual([]);
  });
});

describe('parseStored and putBody', () => {
  it('reads the one-vendor form and writes it back with the rate', () => {
    const stored = parseStored({ provider: 'smtp', smtp_url: '****', from: 'a@b.org', rate_per_second: 10 });
    expect(stored).toEqual({ vendors: { smtp: { smtp_url: '****', from: 'a@b.org' } }, ratePerSecond: 10 });
    expect(putBody('smtp', { smtp_url: '****', from: 'c@d.org' }, stored, null)).toEqual({
      provider: 'smtp',
      smtp_url: '****',
      from: 'c@d.org',
    });
  });

  it('keeps the other vendor of a channel with two, as it was read', () => {
    const stored = parseStored({ fcm: { private_key: '****' }, apns: { team_id: 'T' } });
    expect(stored.vendors).toEqual({ fcm: { private_key: '****' }, apns: { team_id: 'T' } });
    expect(putBody('apns', { team_id: 'U' }, stored, 50)).toEqual({
      fcm: { private_key: '****' },
      apns: { team_id: 'U' },
      rate_per_second: 50,
    });
  });

  it('reads nothing from a channel not configured', () => {
    expect(parseStored(undefined)).toEqual({ vendors: {}, ratePerSecond: null });
  });
});

describe('initialValues and buildSettings', () => {
  const fields = fieldsOf(smtpSchema, ['smtp_url', 'dkim']);
  const stored = { smtp_url: 'smtp://****:****@mail.example:587', from: 'a@b.org', timeout_ms: 5000, verify: true };

  it('starts secrets empty and the rest as stored', () => {
    expect(initialValues(fields, stored)).toMatchObject({ smtp_url: '', from: 'a@b.org', timeout_ms: '5000', verify: true, dkim: '' });
  });

  it('sends the masked value back for an empty secret, which keeps the stored one', () => {
    const result = buildSettings(fields, { ...initialValues(fields, stored), from: ' c@d.org ' }, stored);
    expect(result).toEqual({
      ok: true,
      settings: { smtp_url: 'smtp://****:****@mail.example:587', from: 'c@d.org', timeout_ms: 5000, verify: true },
    });
  });

  it('sends a typed secret, and leaves out an empty secret never set', () => {
    const result = buildSettings(fields, { smtp_url: 'smtp://x@h:25', from: 'a@b.org' }, undefined);
    expect(result).toEqual({ ok: true, settings: { smtp_url: 'smtp://x@h:25', from: 'a@b.org' } });
  });

  it('refuses a number or JSON that does not read, at its field', () => {
    expect(buildSettings(fields, { timeout_ms: 'ten' }, undefined)).toEqual({ ok: false, field: 'timeout_ms', problem: 'number' });
    expect(buildSettings(fields, { dkim: '{nope' }, undefined)).toEqual({ ok: false, field: 'dkim', problem: 'json' });
  });
});

describe('fieldOfSettingsError', () => {
  it("names the field a vendor's refusal starts with, a nested one at its top", () => {
    expect(fieldOfSettingsError('`smtp_url` of vendor smtp: Expected string to match pattern.')).toBe('smtp_url');
    expect(fieldOfSettingsError('`dkim.domain` of vendor smtp: bad.')).toBe('dkim');
    expect(fieldOfSettingsError('`rate_per_second` must be an integer from 1 to 100000.')).toBe('rate_per_second');
    expect(fieldOfSettingsError('The settings need `provider`.')).toBeUndefined();
  });
});
