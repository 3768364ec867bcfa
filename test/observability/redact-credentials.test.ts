import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { redactCredentials, quotesShortSecret } from '../../src/observability/redact-credentials.js';
import { loggerOptions } from '../../src/process/logger.js';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

describe('redactCredentials', () => {
  it.each([
    ['an AUTH PLAIN command', `535 5.7.8 Failed: AUTH PLAIN ${b64('\0user\0pw-1')}`, '535 5.7.8 Failed: AUTH PLAIN ****'],
    ['an AUTH LOGIN command', 'C: AUTH LOGIN dXNlcm5hbWU=', 'C: AUTH LOGIN ****'],
    ['an XOAUTH2 command', `AUTH XOAUTH2 ${b64('user=a@b.c\x01auth=Bearer ya29.x\x01\x01')}`, 'AUTH XOAUTH2 ****'],
    ['a bare AUTH PLAIN response', `535 Credentials ${b64('\0user\0pw-1')} rejected`, '535 Credentials **** rejected'],
    ['a bare AUTH PLAIN response with an authorization identity', `got ${b64('admin\0user\0pw-1')}.`, 'got ****.'],
    ['a bare XOAUTH2 response', `bad ${b64('user=a@b.c\x01auth=Bearer ya29.x\x01\x01')}`, 'bad ****'],
    ['the user info of a URL', 'GET https://bob:hunter2@feeds.example.com/a.xml failed', 'GET https://****@feeds.example.com/a.xml failed'],
    ['the user info of an SMTP URL', 'smtp://mailer%40shop:p%40ss@mx.example.org:587', 'smtp://****@mx.example.org:587'],
    [
      'a token in a query string',
      'https://gw.example/send?login=shop&password=hunter22&to=7900',
      'https://gw.example/send?login=shop&password=****&to=7900',
    ],
    [
      'an access_token parameter',
      'https://graph.example/v1/messages?access_token=EAAG123abc',
      'https://graph.example/v1/messages?access_token=****',
    ],
    ['a Bearer token', 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig', 'Authorization: Bearer ****'],
    ['a Basic credential', `Authorization: Basic ${b64('user:pass')}`, 'Authorization: Basic ****'],
    ['a secret field in JSON', '{"api_key":"k-123456","to":"x"}', '{"api_key":"****","to":"x"}'],
    [
      'a Telegram bot token in a Bot API path',
      'POST https://api.telegram.org/bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/sendMessage',
      'POST https://api.telegram.org/bot****/sendMessage',
    ],
  ])('replaces %s', (_what, text, expected) => {
    expect(redactCredentials(text)).toBe(expected);
  });

  it.each([
    'The SMTP server refused the recipient: 550 5.1.1 No such user here',
    'Authentication unsuccessful AAAAAAAA; see https://support.example.com/kb/Authentication',
    'Basic settings are missing',
    'The registration token is not a valid FCM registration token',
    'mailto:someone@example.org bounced',
  ])('leaves a text without credentials as it is: %s', (text) => {
    expect(redactCredentials(text)).toBe(text);
  });

  it('replaces known secrets as they are, URL-encoded and inside any base64 at any alignment', () => {
    const secret = 'p@ss:w/rd-77';
    for (const prefix of ['', 'x', 'xy', 'xyz']) {
      const text = `seen ${b64(`${prefix}${secret}`)} and ${secret} and ${encodeURIComponent(secret)}`;
      const out = redactCredentials(text, [secret]);
      expect(out).toBe('seen **** and **** and ****');
    }
  });

  it('tells when a secret too short to replace is quoted', () => {
    expect(quotesShortSecret('535 bad login for ab', ['ab'])).toBe(true);
    expect(quotesShortSecret('535 bad login', ['ab', 'longer-secret'])).toBe(false);
  });
});

describe('the log serializer of errors', () => {
  it('writes an error without the credentials its message, stack and fields quote', () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString('utf8'));
        callback();
      },
    });
    const token = b64('\0mailer\0Secret-Pass-9');
    const error = Object.assign(new Error(`Invalid login: 535 Authentication failed: AUTH PLAIN ${token}`), {
      response: `535 Authentication failed: AUTH PLAIN ${token}`,
      url: 'https://bob:hunter2@feeds.example.com/a.xml',
    });
    pino(loggerOptions('info'), stream).error({ err: error }, 'send failed');
    const written = lines.join('');
    expect(written).toContain('AUTH PLAIN ****');
    expect(written).toContain('https://****@feeds.example.com/a.xml');
    expect(written).not.toContain(token);
    expect(written).not.toContain('hunter2');
  });
});
