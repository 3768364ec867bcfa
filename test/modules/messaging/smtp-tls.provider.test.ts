import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EmailMessage, SendContext } from '../../../src/modules/messaging/providers/provider.js';
import { SmtpProvider } from '../../../src/modules/messaging/providers/smtp.provider.js';
import { startSmtpPeer, type SmtpPeer, type SmtpPeerOptions } from '../../helpers/smtp-peer.js';

const LOCAL: SendContext = { allowPrivate: ['127.0.0.1', '::1'] };
const message: EmailMessage = {
  to: 'anna@example.com',
  cc: [],
  bcc: [],
  subject: 'TLS',
  html: '<p>over TLS</p>',
  text: 'over TLS',
  headers: {},
};

let dir: string;
let tls: { key: string; cert: string };
const cleanups: (() => Promise<void>)[] = [];

beforeAll(() => {
  // A self-signed certificate for "localhost", made for this run.
  dir = mkdtempSync(path.join(tmpdir(), 'patron-smtp-tls-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost',
      '-keyout',
      path.join(dir, 'key.pem'),
      '-out',
      path.join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  tls = { key: readFileSync(path.join(dir, 'key.pem'), 'utf8'), cert: readFileSync(path.join(dir, 'cert.pem'), 'utf8') };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function peer(options: SmtpPeerOptions): Promise<SmtpPeer> {
  const started = await startSmtpPeer(options);
  cleanups.push(() => started.close());
  return started;
}

function send(url: string): ReturnType<SmtpProvider['send']> {
  const provider = new SmtpProvider();
  cleanups.push(() => provider.close());
  return provider.send({ smtp_url: url, from: 'shop@example.org', timeout_ms: 5000 }, message, LOCAL);
}

describe('SmtpProvider over TLS', () => {
  it('sends over smtps:// (TLS from the start), naming the host for TLS while connecting to the checked address', async () => {
    const smtp = await peer({ tls: { ...tls, implicitTls: true }, auth: { user: 'shop', pass: 'secret-pass' } });
    const result = await send(`smtps://shop:secret-pass@localhost:${smtp.port}?tls_verify=false`);
    expect(result.ok).toBe(true);
    expect(smtp.received[0]).toMatchObject({ secure: true, user: 'shop' });
  });

  it('refuses a certificate that does not verify unless tls_verify=false, as temporary, sending nothing', async () => {
    const smtp = await peer({ tls: { ...tls, implicitTls: true } });
    const result = await send(`smtps://localhost:${smtp.port}`);
    expect(result).toMatchObject({ ok: false, kind: 'temporary' });
    expect(smtp.received).toHaveLength(0);
  });

  it('upgrades with STARTTLS when the server offers it', async () => {
    const smtp = await peer({ tls, auth: { user: 'shop', pass: 'secret-pass' } });
    const result = await send(`smtp://shop:secret-pass@localhost:${smtp.port}?starttls=required&tls_verify=false`);
    expect(result.ok).toBe(true);
    expect(smtp.received[0]).toMatchObject({ secure: true, user: 'shop' });
  });

  it('with starttls=required, never logs in or sends over a server without STARTTLS', async () => {
    const smtp = await peer({ auth: { user: 'shop', pass: 'secret-pass' } });
    const result = await send(`smtp://shop:secret-pass@127.0.0.1:${smtp.port}?starttls=required`);
    // The server answers STARTTLS with 500: a settings mismatch, not worth a retry.
    expect(result).toEqual({
      ok: false,
      kind: 'permanent',
      message: 'The SMTP server refused STARTTLS: 500 Error: command not recognized',
    });
    expect(smtp.authAttempts).toBe(0);
    expect(smtp.received).toHaveLength(0);
  });

  it('with starttls=never, stays in plain text even when STARTTLS is offered', async () => {
    const smtp = await peer({ tls });
    expect((await send(`smtp://127.0.0.1:${smtp.port}?starttls=never`)).ok).toBe(true);
    expect(smtp.received[0]).toMatchObject({ secure: false });
  });
});
