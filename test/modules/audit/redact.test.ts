import { describe, expect, it } from 'vitest';
import { boundedJson, MAX_STATE_CHARS, recordedPath } from '../../../src/modules/audit/domain/audit-entry.js';
import { isSecretKey, MAX_STRING_CHARS, redact, REDACTED } from '../../../src/modules/audit/domain/redact.js';

/** What the audit log keeps of a body (src/modules/audit/domain/redact.ts; docs/audit-log.md, "Redaction"). */

describe('isSecretKey', () => {
  it.each([
    ['password', true],
    ['current_password', true],
    ['newPassword', true],
    ['smtp-password', true],
    ['pass', true],
    ['passphrase', true],
    ['signer_key_passphrase', true],
    ['secret', true],
    ['shop_secret', true],
    ['client_secret', true],
    ['token', true],
    ['csrf_token', true],
    ['access_token', true],
    ['bot_token', true],
    ['accessToken', true],
    ['api_key', true],
    ['apiKey', true],
    ['private_key', true],
    ['vapid_private_key', true],
    ['signer_key', true],
    ['key', true],
    ['credentials', true],
    ['Authorization', true],
    ['cookie', true],
    ['dkim', true],
    ['signer_cert', true],
    ['certificate_pem', true],
    ['p12', true],
    ['token_id', false],
    ['token_name', false],
    ['previous_secret_expires_at', false],
    ['vapid_public_key', false],
    ['passes', false],
    ['bypass', false],
    ['certificates', false],
    ['certificate', false],
    ['keyword', false],
    ['tokens', false],
    ['name', false],
    ['email', false],
    ['monkey', false],
    ['', false],
  ])('%s → %s', (key, secret) => {
    expect(isSecretKey(key)).toBe(secret);
  });
});

describe('redact', () => {
  it.each([
    ['a password at the top', { email: 'a@b.c', password: 'hunter22' }, { email: 'a@b.c', password: REDACTED }],
    ['a secret in a nested object', { channel: { smtp: { user: 'u', pass: 'p' } } }, { channel: { smtp: { user: 'u', pass: REDACTED } } }],
    ['secrets in an array of objects', { items: [{ token: 't1', name: 'ci' }] }, { items: [{ token: REDACTED, name: 'ci' }] }],
    ['a whole credentials object', { credentials: { user: 'u', pass: 'p' } }, { credentials: REDACTED }],
    ['a null secret stays null (nothing to hide)', { password: null }, { password: null }],
    ['the shop secret of a rotation', { shop_secret: 'abcdef0123456789' }, { shop_secret: REDACTED }],
    [
      'the token of a token creation, not its id or name',
      { id: 3, name: 'ci', token: 'pat_abcdefgh12345678' },
      { id: 3, name: 'ci', token: REDACTED },
    ],
    [
      'a URL password',
      { smtp_url: 'smtp://mailer:s3cret@mail.example.com:587' },
      { smtp_url: `smtp://mailer:${REDACTED}@mail.example.com:587` },
    ],
    [
      'a URL password under a plain key',
      { feed_url: 'https://user:pw@feeds.example.com/f.xml' },
      { feed_url: `https://user:${REDACTED}@feeds.example.com/f.xml` },
    ],
    ['a URL without a password', { feed_url: 'https://feeds.example.com/f.xml?a=1' }, { feed_url: 'https://feeds.example.com/f.xml?a=1' }],
    ['a PEM block under a plain key', { settings: '-----BEGIN PRIVATE KEY-----\nMIIE...' }, { settings: REDACTED }],
    ['a user API token under a plain key', { note: 'pat_0123456789abcdef' }, { note: REDACTED }],
    ['a bearer credential in a string', ['Bearer abc.def'], [REDACTED]],
    ['plain values', { a: 1, b: true, c: null, d: 'text', e: [1, 'x'] }, { a: 1, b: true, c: null, d: 'text', e: [1, 'x'] }],
    ['a top-level string', 'hello', 'hello'],
  ])('redacts %s', (_name, input, expected) => {
    expect(redact(input)).toEqual(expected);
  });

  it('cuts a string longer than the bound and says how long it was', () => {
    const html = 'x'.repeat(MAX_STRING_CHARS + 500);
    const out = redact({ html }) as { html: string };
    expect(out.html.startsWith('x'.repeat(MAX_STRING_CHARS))).toBe(true);
    expect(out.html).toContain(`[truncated: ${MAX_STRING_CHARS + 500} characters]`);
    expect(out.html.length).toBeLessThan(MAX_STRING_CHARS + 60);
  });

  it('does not change its input', () => {
    const input = { password: 'p', nested: { token: 't' } };
    redact(input);
    expect(input).toEqual({ password: 'p', nested: { token: 't' } });
  });

  it('replaces what is nested deeper than its bound with a marker', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 40; i++) deep = { d: deep };
    expect(JSON.stringify(redact(deep))).toContain('[too deep]');
  });
});

describe('boundedJson', () => {
  it('is null for no value', () => {
    expect(boundedJson(undefined)).toBeNull();
    expect(boundedJson(null)).toBeNull();
  });

  it('keeps a small value whole, redacted', () => {
    expect(JSON.parse(boundedJson({ a: 1, secret: 's' }) as string)).toEqual({ a: 1, secret: REDACTED });
  });

  it('keeps a large value as a marker with its size and the start of its text, within the bound', () => {
    const big = { items: Array.from({ length: 5000 }, (_, i) => ({ code: `CODE-${i}` })) };
    const text = boundedJson(big) as string;
    expect(text.length).toBeLessThanOrEqual(MAX_STATE_CHARS);
    const parsed = JSON.parse(text) as { $truncated: { chars: number }; preview: string };
    expect(parsed.$truncated.chars).toBe(JSON.stringify(big).length);
    expect(parsed.preview.startsWith('{"items":[{"code":"CODE-0"}')).toBe(true);
  });
});

describe('recordedPath', () => {
  it.each([
    ['/admin/v1/shops/abc?x=1', '/admin/v1/shops/:shop_id', '/admin/v1/shops/abc'],
    ['/admin/v1/invitations/tok123', '/admin/v1/invitations/:token', `/admin/v1/invitations/${REDACTED}`],
    ['/admin/v1/users/3/tokens/7', '/admin/v1/users/:id/tokens/:token_id', '/admin/v1/users/3/tokens/7'],
    ['/admin/v1/shops', undefined, '/admin/v1/shops'],
  ])('%s on %s → %s', (url, pattern, expected) => {
    expect(recordedPath(url, pattern)).toBe(expected);
  });
});
