import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { classifySmtpError } from '../../../src/modules/messaging/providers/smtp-errors.js';
import { parseSmtpUrl, redactSmtpUrl, SmtpSettingsSchema } from '../../../src/modules/messaging/providers/smtp-settings.js';
import { SmtpProvider } from '../../../src/modules/messaging/providers/smtp.provider.js';

describe('SmtpSettingsSchema', () => {
  it('accepts the settings of admin-api.md and the optional dkim, pool and timeout', () => {
    expect(Value.Check(SmtpSettingsSchema, { smtp_url: 'smtp://user:pass@host:587', from: 'Shop <shop@example.org>' })).toBe(true);
    const full = {
      smtp_url: 'smtps://user:pass@mail.example.org',
      from: 'shop@example.org',
      dkim: { domain: 'example.org', selector: 's2026', private_key: '-----BEGIN PRIVATE KEY-----\nMII…\n-----END PRIVATE KEY-----' },
      pool: { max_connections: 3, rate_per_second: 20 },
      timeout_ms: 10_000,
    };
    expect(Value.Check(SmtpSettingsSchema, full)).toBe(true);
  });

  it.each([
    ['a from with a line break', { from: 'Shop <shop@example.org>\r\nBcc: x@example.net' }],
    ['an http URL', { smtp_url: 'http://host' }],
    ['an unknown field', { region: 'eu' }],
    ['a pool of 500 connections', { pool: { max_connections: 500 } }],
    ['a DKIM key that is not PEM', { dkim: { domain: 'example.org', selector: 's', private_key: 'secret' } }],
  ])('refuses %s', (_what, patch) => {
    expect(Value.Check(SmtpSettingsSchema, { smtp_url: 'smtp://host', from: 'shop@example.org', ...patch })).toBe(false);
  });

  it('marks smtp_url (it holds the password) and dkim (it holds the private key) as secret', () => {
    expect(new SmtpProvider().secretFields).toEqual(['smtp_url', 'dkim']);
  });
});

describe('parseSmtpUrl', () => {
  it('reads user, password, host, port and options, with the defaults of each scheme', () => {
    expect(parseSmtpUrl('smtp://shop%40example.org:p%23ss@Mail.Example.org:2525?starttls=required&ehlo=shop.example.org')).toEqual({
      ok: true,
      endpoint: {
        host: 'mail.example.org',
        port: 2525,
        implicitTls: false,
        starttls: 'required',
        tlsVerify: true,
        ehlo: 'shop.example.org',
        user: 'shop@example.org',
        pass: 'p#ss',
      },
    });
    expect(parseSmtpUrl('smtp://mail.example.org')).toMatchObject({ ok: true, endpoint: { port: 587, starttls: 'opportunistic' } });
    expect(parseSmtpUrl('smtps://[::1]?tls_verify=false')).toMatchObject({
      ok: true,
      endpoint: { host: '::1', port: 465, implicitTls: true, tlsVerify: false, user: undefined },
    });
  });

  it.each([
    ['smtp://user:secret@host?startls=required', 'The SMTP URL has an unknown option "startls".'],
    ['smtp://host?starttls=maybe', 'starttls must be required, opportunistic or never.'],
    ['smtps://host?starttls=required', 'starttls applies to smtp:// only; smtps:// is TLS from the start.'],
    ['smtp://host/path', 'The SMTP URL takes no path.'],
    ['smtp://:secret@host', 'The SMTP URL has a password but no login.'],
    ['smtp://user:%E0%A4%A@host', 'The login or password of the SMTP URL is badly percent-encoded.'],
    ['smtp://ho_st', 'The SMTP URL has no valid host.'],
    ['imap://host', 'The SMTP URL must start with smtp:// or smtps://.'],
  ])('refuses %s, naming no secret', (url, reason) => {
    expect(parseSmtpUrl(url)).toEqual({ ok: false, reason });
  });

  it('redacts the password for display', () => {
    expect(redactSmtpUrl('smtp://shop:topsecret@mail.example.org:587?starttls=required')).toBe(
      'smtp://shop:****@mail.example.org:587?starttls=required',
    );
    expect(redactSmtpUrl('smtp://mail.example.org')).toBe('smtp://mail.example.org');
    expect(redactSmtpUrl('not a url topsecret')).toBe('****');
  });
});

describe('classifySmtpError', () => {
  const reply = (response: string, command: string): unknown => ({
    code: 'EENVELOPE',
    response,
    responseCode: Number(response.slice(0, 3)),
    command,
  });

  it('scrubs the login and password, plain and base64, from a quoted reply', () => {
    const secrets = ['mailer-login', 'hunter22'];
    const echoed = `535 5.7.8 bad credentials for mailer-login (${Buffer.from('hunter22').toString('base64')})`;
    const failure = classifySmtpError({ code: 'EAUTH', response: echoed, responseCode: 535, command: 'AUTH PLAIN' }, secrets);
    expect(failure).toEqual({
      ok: false,
      kind: 'permanent',
      message: 'The SMTP server refused the login: 535 5.7.8 bad credentials for **** (****)',
    });
  });

  it('withholds a reply that contains a secret too short to scrub', () => {
    expect(classifySmtpError(reply('550 5.7.1 no relay for ab', 'MAIL FROM'), ['ab'])).toEqual({
      ok: false,
      kind: 'permanent',
      message: 'The SMTP server refused the sender: (reply withheld: it may quote the credentials)',
    });
  });

  it('maps replies by code and command, and network errors without their text', () => {
    expect(classifySmtpError(reply('421 4.7.0 Too many connections', 'MAIL FROM'), [])).toMatchObject({ kind: 'temporary' });
    expect(classifySmtpError(reply('553 5.1.3 Bad recipient address syntax', 'RCPT TO'), [])).toMatchObject({ kind: 'dead_address' });
    expect(classifySmtpError(reply('552 5.2.2 Mailbox full', 'RCPT TO'), [])).toMatchObject({ kind: 'permanent' });
    expect(classifySmtpError(reply('553 5.7.1 Sender not allowed', 'MAIL FROM'), [])).toMatchObject({ kind: 'permanent' });
    expect(classifySmtpError(Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:25'), { code: 'ESOCKET' }), [])).toEqual({
      ok: false,
      kind: 'temporary',
      message: 'The connection to the SMTP server failed or broke off.',
    });
    expect(classifySmtpError(new Error('anything'), [])).toEqual({
      ok: false,
      kind: 'temporary',
      message: 'Sending through the SMTP server failed.',
    });
  });

  it('bounds a long reply to one line of 300 characters', () => {
    const failure = classifySmtpError(reply(`554 5.7.1 ${'spam\r\n'.repeat(200)}`, 'DATA'), []);
    expect(failure.message.length).toBeLessThan(340);
    expect(failure.message).not.toMatch(/[\r\n]/);
  });
});
