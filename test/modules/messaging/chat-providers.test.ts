import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { MaxProvider } from '../../../src/modules/messaging/providers/max.provider.js';
import { TelegramProvider } from '../../../src/modules/messaging/providers/telegram.provider.js';
import { WhatsappProvider } from '../../../src/modules/messaging/providers/whatsapp.provider.js';
import { json, startApiPeer, type ApiPeer } from './api-peer.js';

let peer: ApiPeer;
const clock = new ManualClock();
const options = { timeoutMs: 400, clock };
const context = { allowPrivate: true } as const;
const TOKEN = '123456:AAEabcdefghijklmnopqrstuvwxyz_-0';

beforeAll(async () => {
  peer = await startApiPeer();
});

afterAll(async () => {
  await peer.close();
});

function answer(status: number, body: unknown, headers: Record<string, string> = {}): void {
  peer.reply = (_request, response) => json(response, status, body, headers);
}

describe('TelegramProvider', () => {
  const provider = new TelegramProvider(options);
  const settings = () => ({ bot_token: TOKEN, api_base_url: `${peer.url}/tg/` });

  it('posts sendMessage with the token in the path and the chat id and text as JSON', async () => {
    answer(200, { ok: true, result: { message_id: 4711, chat: { id: 99 } } });
    const result = await provider.send({ ...settings(), parse_mode: 'HTML' }, { to: '-100123', text: 'Заказ <b>42</b>' }, context);
    expect(result).toEqual({ ok: true, providerMessageId: '4711' });
    const request = peer.seen.at(-1)!;
    expect(request).toMatchObject({ method: 'POST', path: `/tg/bot${TOKEN}/sendMessage` });
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers.authorization).toBeUndefined();
    expect(request.body).toBe(JSON.stringify({ chat_id: '-100123', text: 'Заказ <b>42</b>', parse_mode: 'HTML' }));
  });

  it('maps 429 with retry_after to temporary with its delay', async () => {
    answer(429, { ok: false, error_code: 429, description: 'Too Many Requests: retry after 17', parameters: { retry_after: 17 } });
    expect(await provider.send(settings(), { to: '1', text: 'x' }, context)).toEqual({
      ok: false,
      kind: 'temporary',
      message: 'Telegram answered 429: Too Many Requests: retry after 17',
      retryAfterMs: 17_000,
    });
  });

  it('maps a blocked bot and an unknown chat to dead_address, a bad token and other errors to permanent', async () => {
    answer(403, { ok: false, error_code: 403, description: 'Forbidden: bot was blocked by the user' });
    expect(await provider.send(settings(), { to: '1', text: 'x' }, context)).toMatchObject({
      kind: 'dead_address',
      message: 'Telegram answered 403: Forbidden: bot was blocked by the user',
    });
    answer(400, { ok: false, error_code: 400, description: 'Bad Request: chat not found' });
    expect(await provider.send(settings(), { to: '1', text: 'x' }, context)).toMatchObject({ kind: 'dead_address' });
    answer(401, { ok: false, error_code: 401, description: 'Unauthorized' });
    const unauthorized = await provider.send(settings(), { to: '1', text: 'x' }, context);
    expect(unauthorized).toEqual({ ok: false, kind: 'permanent', message: 'Telegram answered 401: Unauthorized' });
    answer(400, { ok: false, error_code: 400, description: 'Bad Request: message is too long' });
    expect(await provider.send(settings(), { to: '1', text: 'x' }, context)).toMatchObject({ kind: 'permanent' });
    answer(502, { ok: false });
    expect(await provider.send(settings(), { to: '1', text: 'x' }, context)).toMatchObject({ kind: 'temporary' });
  });

  it('gives up on a hanging API as temporary within the deadline, never naming the token', async () => {
    peer.reply = () => 'hang';
    const started = Date.now();
    const result = await provider.send(settings(), { to: '1', text: 'x' }, context);
    expect(result).toEqual({ ok: false, kind: 'temporary', message: 'Telegram: The request did not finish within 400 ms.' });
    expect(Date.now() - started).toBeLessThan(1500);
  });
});

describe('WhatsappProvider', () => {
  const provider = new WhatsappProvider(options);
  const settings = () => ({ access_token: 'EAAG-secret', phone_number_id: '1098765', api_base_url: `${peer.url}/v21.0` });

  it('posts a text message to /{phone_number_id}/messages with a bearer token', async () => {
    answer(200, {
      messaging_product: 'whatsapp',
      contacts: [{ input: '79001234567', wa_id: '79001234567' }],
      messages: [{ id: 'wamid.HBgL' }],
    });
    const result = await provider.send(settings(), { to: '+79001234567', text: 'Ваш заказ готов' }, context);
    expect(result).toEqual({ ok: true, providerMessageId: 'wamid.HBgL' });
    const request = peer.seen.at(-1)!;
    expect(request).toMatchObject({ method: 'POST', path: '/v21.0/1098765/messages' });
    expect(request.headers).toMatchObject({ authorization: 'Bearer EAAG-secret', 'content-type': 'application/json' });
    expect(request.body).toBe(
      JSON.stringify({
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: '79001234567',
        type: 'text',
        text: { preview_url: false, body: 'Ваш заказ готов' },
      }),
    );
  });

  it('sends the text as the body parameter of a configured template', async () => {
    answer(200, { messages: [{ id: 'wamid.T' }] });
    await provider.send(
      { ...settings(), template_name: 'patron_notice', template_language: 'ru' },
      { to: '79001234567', text: 'Код 1234' },
      context,
    );
    expect(JSON.parse(peer.seen.at(-1)!.body)).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '79001234567',
      type: 'template',
      template: {
        name: 'patron_notice',
        language: { code: 'ru' },
        components: [{ type: 'body', parameters: [{ type: 'text', text: 'Код 1234' }] }],
      },
    });
  });

  it('maps rate limits to temporary, a number not on WhatsApp to dead_address, the rest to permanent', async () => {
    const error = (code: number, message: string, status = 400) =>
      answer(status, {
        error: { message, type: 'OAuthException', code, error_data: { messaging_product: 'whatsapp', details: `${message}.` } },
      });
    error(130429, 'Rate limit hit');
    expect(await provider.send(settings(), { to: '1', text: 'x' }, context)).toEqual({
      ok: false,
      kind: 'temporary',
      message: 'WhatsApp answered 400 (code 130429): Rate limit hit.',
    });
    error(131056, 'Pair rate limit hit');
    expect(await provider.send(settings(), { to: '1', text: 'x' }, context)).toMatchObject({ kind: 'temporary' });
    error(131026, 'Message undeliverable');
    expect(await provider.send(settings(), { to: '1', text: 'x' }, context)).toMatchObject({ kind: 'dead_address' });
    error(190, 'Invalid OAuth access token', 401);
    expect(await provider.send(settings(), { to: '1', text: 'x' }, context)).toMatchObject({ kind: 'permanent' });
    answer(503, { error: { message: 'Service unavailable', code: 131016 } }, { 'retry-after': '5' });
    expect(await provider.send(settings(), { to: '1', text: 'x' }, context)).toMatchObject({ kind: 'temporary', retryAfterMs: 5000 });
  });

  it('gives up on a hanging API as temporary within the deadline', async () => {
    peer.reply = () => 'hang';
    expect(await provider.send(settings(), { to: '1', text: 'x' }, context)).toMatchObject({ ok: false, kind: 'temporary' });
  });
});

describe('MaxProvider', () => {
  const provider = new MaxProvider(options);
  const settings = () => ({ access_token: 'max-secret', api_base_url: `${peer.url}/max` });

  it('posts /messages with the user id in the query and the bare token in Authorization', async () => {
    answer(200, {
      message: { recipient: { user_id: 5551234, chat_type: 'dialog' }, timestamp: 1, body: { mid: 'mid.0000abc', seq: 1, text: 'Привет' } },
    });
    const result = await provider.send(settings(), { to: '5551234', text: 'Привет' }, context);
    expect(result).toEqual({ ok: true, providerMessageId: 'mid.0000abc' });
    const request = peer.seen.at(-1)!;
    expect(request).toMatchObject({ method: 'POST', path: '/max/messages?user_id=5551234' });
    expect(request.headers).toMatchObject({ authorization: 'max-secret', 'content-type': 'application/json' });
    expect(request.body).toBe(JSON.stringify({ text: 'Привет' }));
  });

  it('addresses a chat id and formats the text when configured', async () => {
    answer(200, { message: { body: { mid: 'mid.1' } } });
    await provider.send({ ...settings(), recipient: 'chat_id', format: 'html' }, { to: '-7001', text: '<b>x</b>' }, context);
    const request = peer.seen.at(-1)!;
    expect(request.path).toBe('/max/messages?chat_id=-7001');
    expect(request.body).toBe(JSON.stringify({ text: '<b>x</b>', format: 'html' }));
  });

  it('maps 429 and 503 to temporary, a suspended bot or unknown user to dead_address, the rest to permanent', async () => {
    answer(429, { code: 'too.many.requests', message: 'Too many requests' }, { 'retry-after': '3' });
    expect(await provider.send(settings(), { to: '1', text: 'x' }, context)).toEqual({
      ok: false,
      kind: 'temporary',
      message: 'MAX answered 429 (too.many.requests): Too many requests',
      retryAfterMs: 3000,
    });
    answer(503, { code: 'service.unavailable', message: 'Try later' });
    expect(await provider.send(settings(), { to: '1', text: 'x' }, context)).toMatchObject({ kind: 'temporary' });
    answer(403, { code: 'chat.denied', message: 'Bot was suspended by user' });
    expect(await provider.send(settings(), { to: '1', text: 'x' }, context)).toMatchObject({ kind: 'dead_address' });
    answer(404, { code: 'not.found', message: 'User not found' });
    expect(await provider.send(settings(), { to: '1', text: 'x' }, context)).toMatchObject({ kind: 'dead_address' });
    peer.reply = (_request, response) => {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>');
    };
    expect(await provider.send(settings(), { to: '1', text: 'x' }, context)).toMatchObject({ kind: 'permanent' });
    answer(401, { code: 'verify.token', message: 'Invalid access_token' });
    expect(await provider.send(settings(), { to: '1', text: 'x' }, context)).toMatchObject({ kind: 'permanent' });
  });

  it('refuses a recipient that is not a numeric id without calling', async () => {
    const before = peer.seen.length;
    expect(await provider.send(settings(), { to: '+7 900 123', text: 'x' }, context)).toMatchObject({ kind: 'dead_address' });
    expect(peer.seen.length).toBe(before);
  });

  it('gives up on a hanging API as temporary within the deadline', async () => {
    peer.reply = () => 'hang';
    expect(await provider.send(settings(), { to: '1', text: 'x' }, context)).toEqual({
      ok: false,
      kind: 'temporary',
      message: 'MAX: The request did not finish within 400 ms.',
    });
  });
});
