import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { HttpSmsProvider, type HttpSmsSettings } from '../../../src/modules/messaging/providers/http-sms.provider.js';
import { json, startApiPeer, type ApiPeer } from './api-peer.js';

let peer: ApiPeer;
const clock = new ManualClock(Date.UTC(2026, 0, 15, 12, 0, 0));
const provider = new HttpSmsProvider({ timeoutMs: 500, clock });
const context = { allowPrivate: true } as const;
const message = { to: '79001234567', body: 'Your code: 1234 — Привет & co' };

beforeAll(async () => {
  peer = await startApiPeer();
});

afterAll(async () => {
  await peer.close();
});

beforeEach(() => {
  peer.reply = (_request, response) => json(response, 200, { data: { id: 'gw-77' } });
});

const base = (overrides: Partial<HttpSmsSettings> = {}): HttpSmsSettings => ({ url: `${peer.url}/api/send?v=2`, ...overrides });

describe('HttpSmsProvider', () => {
  it('posts JSON with the default field names and reads the message id at a configured path', async () => {
    const result = await provider.send(
      base({ auth: 'bearer', token: 'tok-1', from: 'Patron', message_id_field: 'data.id' }),
      message,
      context,
    );
    expect(result).toEqual({ ok: true, providerMessageId: 'gw-77' });
    const request = peer.seen.at(-1)!;
    expect(request).toMatchObject({ method: 'POST', path: '/api/send?v=2' });
    expect(request.headers).toMatchObject({ authorization: 'Bearer tok-1', 'content-type': 'application/json' });
    expect(request.body).toBe(JSON.stringify({ to: '79001234567', text: message.body, from: 'Patron' }));
  });

  it('posts a form with custom field names, extra fields, a plus-prefixed number and basic auth', async () => {
    const settings = base({
      format: 'form',
      auth: 'basic',
      username: 'shop',
      password: 'p:ss',
      to_field: 'phone',
      text_field: 'msg',
      from_field: 'sender',
      from: 'Shop',
      to_format: 'plus',
      extra_fields: { route: 'direct' },
    });
    expect(await provider.send(settings, message, context)).toEqual({ ok: true });
    const request = peer.seen.at(-1)!;
    expect(request.headers.authorization).toBe(`Basic ${Buffer.from('shop:p:ss').toString('base64')}`);
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request.body).toBe(
      `route=direct&phone=%2B79001234567&msg=${new URLSearchParams({ m: message.body }).toString().slice(2)}&sender=Shop`,
    );
    expect(Object.fromEntries(new URLSearchParams(request.body))).toEqual({
      route: 'direct',
      phone: '+79001234567',
      msg: message.body,
      sender: 'Shop',
    });
  });

  it('sends GET fields in the query string after the URL’s own, with a key in a named header', async () => {
    await provider.send(base({ method: 'GET', auth: 'header', header_name: 'X-Api-Key', token: 'k-9' }), message, context);
    const request = peer.seen.at(-1)!;
    expect(request.method).toBe('GET');
    expect(request.body).toBe('');
    expect(request.headers['x-api-key']).toBe('k-9');
    const url = new URL(request.path, peer.url);
    expect(url.pathname).toBe('/api/send');
    expect([...url.searchParams]).toEqual([
      ['v', '2'],
      ['to', '79001234567'],
      ['text', message.body],
    ]);
  });

  it('sends the message code in id_field, for a gateway that drops a repeated client id, and nothing without the setting', async () => {
    await provider.send(base({ id_field: 'client_ref' }), { ...message, idKey: 'Xy_1-code' }, context);
    expect(JSON.parse(peer.seen.at(-1)!.body)).toEqual({ to: '79001234567', text: message.body, client_ref: 'Xy_1-code' });
    await provider.send(base({ method: 'GET', id_field: 'ref' }), { ...message, idKey: 'Xy_1-code' }, context);
    expect(new URL(peer.seen.at(-1)!.path, peer.url).searchParams.get('ref')).toBe('Xy_1-code');
    await provider.send(base(), { ...message, idKey: 'Xy_1-code' }, context);
    expect(JSON.parse(peer.seen.at(-1)!.body)).toEqual({ to: '79001234567', text: message.body });
  });

  it('refuses settings whose auth type lacks its credentials, without calling', async () => {
    const before = peer.seen.length;
    expect(await provider.send(base({ auth: 'bearer' }), message, context)).toMatchObject({ ok: false, kind: 'permanent' });
    expect(peer.seen.length).toBe(before);
  });

  it('maps 429 with Retry-After in seconds or as a date, and 5xx, to temporary', async () => {
    peer.reply = (_request, response) => json(response, 429, { message: 'Too many\nrequests' }, { 'retry-after': '30' });
    expect(await provider.send(base(), message, context)).toEqual({
      ok: false,
      kind: 'temporary',
      message: 'The SMS gateway answered 429: Too many requests',
      retryAfterMs: 30_000,
    });
    peer.reply = (_request, response) => json(response, 503, {}, { 'retry-after': new Date(clock.now() + 90_000).toUTCString() });
    expect(await provider.send(base(), message, context)).toEqual({
      ok: false,
      kind: 'temporary',
      message: 'The SMS gateway answered 503.',
      retryAfterMs: 90_000,
    });
    peer.reply = (_request, response) => {
      response.writeHead(502).end('bad gateway');
    };
    expect(await provider.send(base(), message, context)).toEqual({
      ok: false,
      kind: 'temporary',
      message: 'The SMS gateway answered 502: bad gateway',
    });
  });

  it('maps other 4xx to permanent with the gateway’s words', async () => {
    peer.reply = (_request, response) => json(response, 400, { error: { message: 'invalid phone' } });
    expect(await provider.send(base(), message, context)).toEqual({
      ok: false,
      kind: 'permanent',
      message: 'The SMS gateway answered 400: invalid phone',
    });
  });

  it('gives up on a gateway that hangs, as temporary, within the deadline', async () => {
    peer.reply = () => 'hang';
    const started = Date.now();
    expect(await provider.send(base(), message, context)).toEqual({
      ok: false,
      kind: 'temporary',
      message: 'SMS gateway: The request did not finish within 500 ms.',
    });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('refuses a private gateway address unless the guard allows it', async () => {
    expect(await provider.send(base(), message, { allowPrivate: false })).toMatchObject({ ok: false, kind: 'permanent' });
  });
});
