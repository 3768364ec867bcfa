import { generateKeyPairSync } from 'node:crypto';
import net, { type AddressInfo } from 'node:net';
import { simpleParser, type AddressObject } from 'mailparser';
import { afterEach, describe, expect, it } from 'vitest';
import type { EmailMessage, SendContext } from '../../../src/modules/messaging/providers/provider.js';
import { SmtpProvider, type SmtpSettings } from '../../../src/modules/messaging/providers/smtp.provider.js';
import { verifyDkim } from '../../helpers/dkim-verify.js';
import { startSmtpPeer, type SmtpPeer } from '../../helpers/smtp-peer.js';
import { waitFor } from '../../helpers/wait.js';

const LOOPBACK: SendContext = { allowPrivate: ['127.0.0.1'] };

const message: EmailMessage = {
  to: 'anna@example.com',
  cc: ['boris@example.com'],
  bcc: ['audit@example.net'],
  subject: 'Ваш заказ №42 — подтверждён ✓',
  html: '<p>Здравствуйте, Анна! Заказ <b>42</b> принят.</p>',
  text: 'Здравствуйте, Анна! Заказ 42 принят.',
  headers: {
    'List-Unsubscribe': '<https://patron.example.org/u/abc123>, <mailto:unsubscribe@example.org?subject=abc123>',
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  },
};

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function peer(options: Parameters<typeof startSmtpPeer>[0] = {}): Promise<SmtpPeer> {
  const started = await startSmtpPeer(options);
  cleanups.push(() => started.close());
  return started;
}

function provider(): SmtpProvider {
  const created = new SmtpProvider();
  cleanups.push(() => created.close());
  return created;
}

function settings(port: number, extra: Partial<SmtpSettings> = {}): SmtpSettings {
  return { smtp_url: `smtp://127.0.0.1:${port}`, from: 'Shop <shop@example.org>', timeout_ms: 5000, ...extra };
}

function addresses(field: AddressObject | AddressObject[] | undefined): string[] {
  const list = field === undefined ? [] : Array.isArray(field) ? field : [field];
  return list.flatMap((object) => object.value.map((entry) => entry.address ?? ''));
}

describe('SmtpProvider', () => {
  it('delivers the exact envelope, headers, UTF-8 subject and both parts, and returns its Message-ID', async () => {
    const smtp = await peer();
    const result = await provider().send(settings(smtp.port), message, LOOPBACK);

    expect(result.ok).toBe(true);
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.mailFrom).toBe('shop@example.org');
    expect(mail.rcptTo).toEqual(['anna@example.com', 'boris@example.com', 'audit@example.net']);
    const parsed = await simpleParser(mail.raw);
    expect(parsed.from?.value).toEqual([{ name: 'Shop', address: 'shop@example.org' }]);
    expect(addresses(parsed.to)).toEqual(['anna@example.com']);
    expect(addresses(parsed.cc)).toEqual(['boris@example.com']);
    expect(parsed.bcc).toBeUndefined();
    expect(mail.raw.toString()).not.toMatch(/^bcc:/im);
    expect(mail.raw.toString()).not.toContain('audit@example.net');
    expect(parsed.subject).toBe(message.subject);
    expect(parsed.html).toBe(message.html);
    expect(parsed.text?.trim()).toBe(message.text);
    // Long header lines arrive folded; unfolding (RFC 5322 2.2.3) gives back the value as set.
    const line = (key: string): string | undefined =>
      parsed.headerLines.find((header) => header.key === key)?.line.replace(/\r\n(?=[ \t])/g, '');
    expect(line('list-unsubscribe')).toBe(`List-Unsubscribe: ${message.headers['List-Unsubscribe']}`);
    expect(line('list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(parsed.messageId).toMatch(/^<[0-9a-f-]{36}@example\.org>$/);
    expect(result).toEqual({ ok: true, providerMessageId: parsed.messageId });
  });

  it("builds the Message-ID from the delivery's idKey and the sender's domain, the same on a resend", async () => {
    const smtp = await peer();
    const keyed = { ...message, idKey: 'Ab_c-1.0' };
    const first = await provider().send(settings(smtp.port), keyed, LOOPBACK);
    const again = await provider().send(settings(smtp.port), keyed, LOOPBACK);
    expect(first).toEqual({ ok: true, providerMessageId: '<Ab_c-1.0@example.org>' });
    expect(again).toEqual(first);
    expect((await simpleParser(smtp.received[1]!.raw)).messageId).toBe('<Ab_c-1.0@example.org>');
  });

  it('signs with DKIM when dkim is set: d= and s= as configured, and the signature verifies', async () => {
    const smtp = await peer();
    const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const dkim = {
      domain: 'example.org',
      selector: 'patron2026',
      private_key: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    };
    const result = await provider().send(settings(smtp.port, { dkim }), message, LOOPBACK);

    expect(result.ok).toBe(true);
    const raw = smtp.received[0]!.raw;
    const check = verifyDkim(raw, keys.publicKey);
    expect(check.reason).toBe('ok');
    expect(check.tags.d).toBe('example.org');
    expect(check.tags.s).toBe('patron2026');
    expect(check.tags.h?.toLowerCase().split(':')).toEqual(expect.arrayContaining(['from', 'to', 'subject', 'message-id']));
    // The verifier does fail: one changed byte of the body breaks it.
    const tampered = Buffer.from(raw.toString('binary').replace('Content-Type: text/plain', 'Content-Type: text/plain '), 'binary');
    expect(verifyDkim(tampered, keys.publicKey).valid).toBe(false);
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
    expect(verifyDkim(raw, other.publicKey).reason).toBe('signature does not verify');
  });

  it('sends without DKIM-Signature when dkim is not set', async () => {
    const smtp = await peer();
    await provider().send(settings(smtp.port), message, LOOPBACK);
    expect(smtp.received[0]!.raw.toString()).not.toMatch(/^dkim-signature:/im);
  });

  it('refuses a DKIM key that is not a readable RSA key, as permanent', async () => {
    const smtp = await peer();
    const dkim = {
      domain: 'example.org',
      selector: 's1',
      private_key: '-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----',
    };
    const result = await provider().send(settings(smtp.port, { dkim }), message, LOOPBACK);
    expect(result).toEqual({ ok: false, kind: 'permanent', message: 'The DKIM private key is not a readable RSA key in PEM.' });
    expect(smtp.connections).toBe(0);
  });

  it('reuses one pooled connection for sends in a row, and at most max_connections for parallel sends', async () => {
    const smtp = await peer();
    const smtpProvider = provider();
    for (let i = 0; i < 5; i += 1) {
      expect((await smtpProvider.send(settings(smtp.port), { ...message, cc: [], bcc: [] }, LOOPBACK)).ok).toBe(true);
    }
    expect(smtp.received).toHaveLength(5);
    expect(smtp.connections).toBe(1);

    const parallel = await peer();
    const pooled = settings(parallel.port, { pool: { max_connections: 2 } });
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => smtpProvider.send(pooled, { ...message, to: `p${i}@example.com`, cc: [], bcc: [] }, LOOPBACK)),
    );
    expect(results.every((r) => r.ok)).toBe(true);
    expect(parallel.received.map((m) => m.rcptTo[0]).sort()).toEqual(Array.from({ length: 12 }, (_, i) => `p${i}@example.com`).sort());
    expect(parallel.connections).toBeGreaterThanOrEqual(1);
    expect(parallel.connections).toBeLessThanOrEqual(2);
  });

  it('replaces a pooled connection after pool.max_messages messages', async () => {
    const smtp = await peer();
    const smtpProvider = provider();
    for (let i = 0; i < 5; i += 1) {
      const sent = await smtpProvider.send(settings(smtp.port, { pool: { max_messages: 2 } }), { ...message, cc: [], bcc: [] }, LOOPBACK);
      expect(sent.ok).toBe(true);
    }
    expect(smtp.received).toHaveLength(5);
    expect(smtp.connections).toBe(3);
  });

  it('delivers a text whose lines start with dots, and ASCII parts unchanged', async () => {
    const smtp = await peer();
    const dotted = { ...message, subject: 'Order 42', text: '.\n..two\n. three', html: '<p>plain</p>', cc: [], bcc: [] };
    expect((await provider().send(settings(smtp.port), dotted, LOOPBACK)).ok).toBe(true);
    const parsed = await simpleParser(smtp.received[0]!.raw);
    expect(parsed.text?.trim()).toBe('.\n..two\n. three');
    expect(parsed.html).toBe('<p>plain</p>');
    expect(parsed.subject).toBe('Order 42');
  });

  it('opens a new pool after close()', async () => {
    const smtp = await peer();
    const smtpProvider = provider();
    await smtpProvider.send(settings(smtp.port), message, LOOPBACK);
    await smtpProvider.close();
    await smtpProvider.send(settings(smtp.port), message, LOOPBACK);
    expect(smtp.connections).toBe(2);
    expect(smtp.received).toHaveLength(2);
  });

  it('closes a pool left unused longer than idlePoolMs at a later send, and keeps the pool in use', async () => {
    const first = await peer();
    const second = await peer();
    const smtpProvider = new SmtpProvider({ idlePoolMs: 200 });
    cleanups.push(() => smtpProvider.close());
    await smtpProvider.send(settings(first.port), message, LOOPBACK);
    await smtpProvider.send(settings(second.port), message, LOOPBACK);
    expect(first.closedConnections).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await smtpProvider.send(settings(second.port), message, LOOPBACK);
    await waitFor(() => first.closedConnections === 1, { what: 'the idle pool to close' });
    expect(second.closedConnections).toBe(0);
    expect(second.connections).toBe(1);
  });

  it('sends a From with a non-ASCII display name, encoded', async () => {
    const smtp = await peer();
    const result = await provider().send(settings(smtp.port, { from: 'Магазин «Ромашка» <shop@example.org>' }), message, LOOPBACK);
    expect(result.ok).toBe(true);
    const parsed = await simpleParser(smtp.received[0]!.raw);
    expect(parsed.from?.value).toEqual([{ name: 'Магазин «Ромашка»', address: 'shop@example.org' }]);
    expect(smtp.received[0]!.raw.toString('binary')).toMatch(/^From: =\?UTF-8\?/m);
  });

  it('logs in with the user and password of smtp_url', async () => {
    const smtp = await peer({ auth: { user: 'shop@example.org', pass: 'p@ss:w/rd' } });
    const url = `smtp://${encodeURIComponent('shop@example.org')}:${encodeURIComponent('p@ss:w/rd')}@127.0.0.1:${smtp.port}`;
    const result = await provider().send(settings(smtp.port, { smtp_url: url }), message, LOOPBACK);
    expect(result.ok).toBe(true);
    expect(smtp.received[0]!.user).toBe('shop@example.org');
  });

  it('reports a refused login as permanent without the user or password', async () => {
    const smtp = await peer({ auth: { user: 'mailer-login', pass: 'right-secret' } });
    const url = `smtp://mailer-login:wrong-secret@127.0.0.1:${smtp.port}`;
    const result = await provider().send(settings(smtp.port, { smtp_url: url }), message, LOOPBACK);
    expect(result).toMatchObject({ ok: false, kind: 'permanent' });
    const text = result.ok ? '' : result.message;
    expect(text).toMatch(/^The SMTP server refused the login: 535 /);
    expect(text).not.toContain('mailer-login');
    expect(text).not.toContain('wrong-secret');
    expect(smtp.received).toHaveLength(0);
  });

  it('maps a 4xx reply to temporary', async () => {
    const smtp = await peer({ rcptReplies: { 'anna@example.com': '451 4.3.0 Try again later' } });
    const result = await provider().send(settings(smtp.port), { ...message, cc: [], bcc: [] }, LOOPBACK);
    expect(result).toEqual({
      ok: false,
      kind: 'temporary',
      message: 'The SMTP server refused the recipient: 451 4.3.0 Try again later',
    });
  });

  it('maps a 5xx reply to the message to permanent', async () => {
    const smtp = await peer({ dataReply: '554 5.7.1 Message rejected as spam' });
    const result = await provider().send(settings(smtp.port), message, LOOPBACK);
    expect(result).toEqual({
      ok: false,
      kind: 'permanent',
      message: 'The SMTP server refused the message: 554 5.7.1 Message rejected as spam',
    });
  });

  it('maps 550 mailbox unknown to dead_address, with or without an enhanced code, but not a 550 policy refusal', async () => {
    const smtp = await peer({
      rcptReplies: {
        'gone@example.com': '550 5.1.1 No such user',
        'plain@example.com': '550 Mailbox unavailable',
        'policy@example.com': '550 5.7.1 Relaying denied',
      },
    });
    const smtpProvider = provider();
    const send = (to: string): ReturnType<SmtpProvider['send']> =>
      smtpProvider.send(settings(smtp.port), { ...message, to, cc: [], bcc: [] }, LOOPBACK);
    expect(await send('gone@example.com')).toEqual({
      ok: false,
      kind: 'dead_address',
      message: 'The SMTP server refused the recipient: 550 5.1.1 No such user',
    });
    expect(await send('plain@example.com')).toMatchObject({ ok: false, kind: 'dead_address' });
    expect(await send('policy@example.com')).toMatchObject({ ok: false, kind: 'permanent' });
    expect(smtp.received).toHaveLength(0);
  });

  it('reports a dead main recipient even when its copies were accepted, and does not ask for a retry', async () => {
    const smtp = await peer({ rcptReplies: { 'anna@example.com': '550 5.1.1 No such user' } });
    const result = await provider().send(settings(smtp.port), message, LOOPBACK);
    expect(result).toMatchObject({ ok: false, kind: 'dead_address' });
    expect(smtp.received[0]?.rcptTo).toEqual(['boris@example.com', 'audit@example.net']);
  });

  it('gives up on a server that never greets within timeout_ms, as temporary', async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    cleanups.push(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    });
    const port = (silent.address() as AddressInfo).port;
    const started = performance.now();
    const result = await provider().send(settings(port, { timeout_ms: 700 }), message, LOOPBACK);
    const elapsed = performance.now() - started;
    expect(result).toMatchObject({ ok: false, kind: 'temporary' });
    expect(elapsed).toBeGreaterThanOrEqual(600);
    expect(elapsed).toBeLessThan(3000);
  });

  it('gives up on a server that never answers the end of DATA, as an unknown outcome (it may have taken the message), signed or not', async () => {
    const smtp = await peer({ hangAfterData: true });
    const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const dkim = {
      domain: 'example.org',
      selector: 's1',
      private_key: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    };
    for (const extra of [{}, { dkim }]) {
      const started = performance.now();
      const result = await provider().send(settings(smtp.port, { timeout_ms: 700, ...extra }), message, LOOPBACK);
      expect(result).toEqual({
        ok: false,
        kind: 'unknown',
        message:
          'The SMTP server did not answer in time after it was sent the whole message: it may have taken it. Not sent again, so that it is not sent twice.',
      });
      expect(performance.now() - started).toBeLessThan(3000);
    }
  });

  it('reports a server that stops answering before the message was sent as temporary, not unknown', async () => {
    // Greets, then never answers EHLO: nothing of the message left.
    const sockets: net.Socket[] = [];
    const greetsOnly = net.createServer((socket) => {
      sockets.push(socket);
      socket.write('220 greets only\r\n');
    });
    await new Promise<void>((resolve) => greetsOnly.listen(0, '127.0.0.1', resolve));
    cleanups.push(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => greetsOnly.close(() => resolve()));
    });
    const result = await provider().send(settings((greetsOnly.address() as AddressInfo).port, { timeout_ms: 700 }), message, LOOPBACK);
    expect(result).toEqual({ ok: false, kind: 'temporary', message: 'The SMTP server did not answer in time.' });
  });

  it('reports a refused connection as temporary without the address', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const result = await provider().send(settings(port), message, LOOPBACK);
    expect(result).toEqual({ ok: false, kind: 'temporary', message: 'The connection to the SMTP server failed or broke off.' });
  });

  it.each([
    ['to', { to: 'anna@example.com\r\nBcc: victim@example.net' }],
    ['cc', { cc: ['boris@example.com\nX-Evil: 1'] }],
    ['bcc', { bcc: ['audit@example.net\r'] }],
  ])('refuses a line break in %s as permanent (header injection), before connecting', async (_field, patch) => {
    const smtp = await peer();
    const result = await provider().send(settings(smtp.port), { ...message, ...patch }, LOOPBACK);
    expect(result).toEqual({
      ok: false,
      kind: 'permanent',
      message: 'An email address holds a line break; refused (header injection).',
    });
    expect(smtp.connections).toBe(0);
  });

  it('refuses a header value with a line break, and a header the provider writes itself', async () => {
    const smtp = await peer();
    const smtpProvider = provider();
    const injected = await smtpProvider.send(
      settings(smtp.port),
      { ...message, headers: { 'List-Unsubscribe': '<https://x.example/u>\r\nBcc: victim@example.net' } },
      LOOPBACK,
    );
    expect(injected).toMatchObject({ ok: false, kind: 'permanent' });
    const own = await smtpProvider.send(settings(smtp.port), { ...message, headers: { From: 'ceo@example.org' } }, LOOPBACK);
    expect(own).toEqual({ ok: false, kind: 'permanent', message: 'The header "From" cannot be set by a message.' });
    const badId = await smtpProvider.send(settings(smtp.port), { ...message, headers: { 'Message-ID': '<abc.0@patron>' } }, LOOPBACK);
    expect(badId).toEqual({ ok: false, kind: 'permanent', message: 'The header "Message-ID" cannot be set by a message.' });
    expect(smtp.connections).toBe(0);
  });

  it('refuses an SMTP server on a private address unless the context allows it', async () => {
    const smtp = await peer();
    const smtpProvider = provider();
    const refused = await smtpProvider.send(settings(smtp.port), message, { allowPrivate: false });
    expect(refused).toMatchObject({ ok: false, kind: 'permanent' });
    expect(refused.ok ? '' : refused.message).toMatch(/private network address/);
    const byName = await smtpProvider.send(settings(smtp.port, { smtp_url: `smtp://localhost:${smtp.port}` }), message, {
      allowPrivate: ['10.0.0.0/8'],
    });
    expect(byName).toMatchObject({ ok: false, kind: 'permanent' });
    expect(smtp.connections).toBe(0);

    expect((await smtpProvider.send(settings(smtp.port), message, { allowPrivate: ['127.0.0.0/8'] })).ok).toBe(true);
    // The pool of these settings exists now; a send whose context forbids the address still may not use it.
    expect(await smtpProvider.send(settings(smtp.port), message, { allowPrivate: false })).toMatchObject({
      ok: false,
      kind: 'permanent',
    });
    expect(smtp.received).toHaveLength(1);
  });

  it('resolves a host name through the guard and connects to the address it checked', async () => {
    const smtp = await peer();
    const result = await provider().send(
      settings(smtp.port, { smtp_url: `smtp://localhost:${smtp.port}?starttls=never&ehlo=mail.example.org` }),
      message,
      { allowPrivate: ['127.0.0.1', '::1'] },
    );
    expect(result.ok).toBe(true);
    expect(smtp.received).toHaveLength(1);
  });

  it('refuses settings it cannot use, as permanent, naming no secret', async () => {
    const result = await provider().send(
      settings(1, { smtp_url: 'smtp://user:topsecret@127.0.0.1:25?startls=required' }),
      message,
      LOOPBACK,
    );
    expect(result).toEqual({ ok: false, kind: 'permanent', message: 'The SMTP URL has an unknown option "startls".' });
    const badFrom = await provider().send(settings(1, { from: 'Shop <not-an-address>' }), message, LOOPBACK);
    expect(badFrom).toMatchObject({ ok: false, kind: 'permanent' });
  });
});
