import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { composeMime, fromHeaderValue, type MimeInput } from '../../../src/modules/messaging/providers/mime-message.js';

const base: MimeInput = {
  from: fromHeaderValue('Shop <shop@example.org>'),
  to: 'anna@example.com',
  cc: [],
  subject: 'Order 42',
  messageId: '<k1@example.org>',
  date: new Date('2026-11-28T10:00:00Z'),
  headers: {},
  text: 'Order 42 is placed.',
  html: '<p>Order <b>42</b> is placed.</p>',
  boundary: '=_patron_test_1',
};

function text(input: Partial<MimeInput>): string {
  const raw = composeMime({ ...base, ...input });
  if (!raw) throw new Error('not composed');
  return raw.toString('latin1');
}

describe('composeMime', () => {
  it('writes the headers in order, without Bcc, and a multipart/alternative of text then HTML', async () => {
    const raw = text({ cc: ['boris@example.com', 'vera@example.com'], headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } });
    expect(raw.split('\r\n\r\n')[0]!.split('\r\n')).toEqual([
      'From: Shop <shop@example.org>',
      'To: anna@example.com',
      'Cc: boris@example.com, vera@example.com',
      'Subject: Order 42',
      'Message-ID: <k1@example.org>',
      'Date: Sat, 28 Nov 2026 10:00:00 +0000',
      'MIME-Version: 1.0',
      'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
      'Content-Type: multipart/alternative; boundary="=_patron_test_1"',
    ]);
    const parsed = await simpleParser(Buffer.from(raw, 'latin1'));
    expect(parsed.text?.trim()).toBe(base.text);
    expect(parsed.html).toBe(base.html);
    expect(parsed.date?.toISOString()).toBe('2026-11-28T10:00:00.000Z');
  });

  it('sends short-lined ASCII as 7bit, long lines as quoted-printable and mostly non-Latin text as base64', async () => {
    const long = `<p>${'a="b" '.repeat(30)}</p>`;
    const cyrillic = 'Здравствуйте, Анна! Ваш заказ принят.';
    const raw = text({ text: 'short line', html: long });
    expect(raw).toContain('Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 7bit\r\n\r\nshort line');
    expect(raw).toContain('Content-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable');
    expect(raw.split('\r\n').every((line) => line.length <= 78)).toBe(true);
    const mixed = text({ text: cyrillic, html: `<p>${cyrillic}</p>` });
    expect(mixed).toMatch(/Content-Type: text\/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64/);
    const parsed = await simpleParser(Buffer.from(mixed, 'latin1'));
    expect(parsed.text?.trim()).toBe(cyrillic);
    expect(parsed.html).toBe(`<p>${cyrillic}</p>`);
    expect((await simpleParser(Buffer.from(raw, 'latin1'))).html).toBe(long);
  });

  it('encodes a part that holds its boundary line, so that it cannot end the part early', async () => {
    const forged = `before\r\n--${base.boundary}--\r\nafter`;
    const raw = text({ text: forged });
    expect(raw.split('\r\n').filter((line) => line.startsWith(`--${base.boundary}`))).toHaveLength(3);
    expect((await simpleParser(Buffer.from(raw, 'latin1'))).text?.trim()).toBe(forged.replaceAll('\r\n', '\n'));
  });

  it('encodes a non-ASCII subject and display name as encoded words', async () => {
    const raw = text({ subject: 'Заказ №42 ✓', from: fromHeaderValue('Магазин «Ромашка» <shop@example.org>') });
    expect(raw).toMatch(/^From: =\?UTF-8\?/m);
    expect(raw).toMatch(/^Subject: =\?UTF-8\?/m);
    const parsed = await simpleParser(Buffer.from(raw, 'latin1'));
    expect(parsed.subject).toBe('Заказ №42 ✓');
    expect(parsed.from?.value).toEqual([{ name: 'Магазин «Ромашка»', address: 'shop@example.org' }]);
  });

  it('sends a single part when the text or the HTML is empty, and no Subject header for an empty subject', async () => {
    const htmlOnly = text({ text: '', subject: '' });
    expect(htmlOnly).not.toContain('multipart');
    expect(htmlOnly).not.toMatch(/^Subject:/m);
    expect(htmlOnly).toMatch(/^Content-Type: text\/html; charset=utf-8$/m);
    const textOnly = text({ html: '' });
    expect(textOnly).toMatch(/^Content-Type: text\/plain; charset=utf-8$/m);
    expect((await simpleParser(Buffer.from(textOnly, 'latin1'))).text?.trim()).toBe(base.text);
  });

  it('leaves to nodemailer what it does not compose: a non-ASCII address or header value', () => {
    expect(composeMime({ ...base, to: 'анна@пример.рф' })).toBeUndefined();
    expect(composeMime({ ...base, cc: ['борис@example.com'] })).toBeUndefined();
    expect(composeMime({ ...base, headers: { 'X-Note': 'заметка' } })).toBeUndefined();
  });
});
