import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  EVENT_TYPES,
  MAX_PAYLOAD_BYTES,
  messageId,
  messageOutcomeEvent,
  outcomeEventType,
  trackingEvent,
} from '../../../src/modules/webhooks/domain/events.js';
import { judgeAttempt, MAX_ATTEMPTS, nextDelayMs, RETRY_BACKOFF } from '../../../src/modules/webhooks/domain/retry.js';
import { formatSecret, secretKey, sign, webhookHeaders } from '../../../src/modules/webhooks/domain/signing.js';
import type { StoredEvent } from '../../../src/modules/tracking/tracking.types.js';

/** Webhook signing, the retry schedule and the payloads (src/modules/webhooks/domain; docs/webhooks.md). */

const KEY = Buffer.from('00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff', 'hex');
const SECRET = formatSecret(KEY);

/** What a receiver computes, written here from the specification's words rather than from our code. */
function expectedSignature(key: Buffer, id: string, timestamp: number, body: string): string {
  return `v1,${crypto.createHmac('sha256', key).update(`${id}.${timestamp}.${body}`, 'utf8').digest('base64')}`;
}

describe('webhook signing', () => {
  it('formats a secret as whsec_ and standard base64 of its bytes, and reads the bytes back', () => {
    expect(SECRET).toBe('whsec_ABEiM0RVZneImaq7zN3u/wARIjNEVWZ3iJmqu8zd7v8=');
    expect(secretKey(SECRET)).toEqual(KEY);
    expect(secretKey('ABEiM0RVZneImaq7zN3u/wARIjNEVWZ3iJmqu8zd7v8=')).toBeUndefined();
    expect(secretKey(`whsec_${Buffer.alloc(16).toString('base64')}`)).toBeUndefined();
    expect(secretKey('whsec_not base64!')).toBeUndefined();
  });

  it('signs id.timestamp.body with HMAC-SHA256 under the key bytes, as v1,<base64>', () => {
    const id = 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W';
    const body = '{"type":"message.opened","timestamp":"2026-01-15T12:00:00.000Z","data":{"code":"ab","seq":0,"address":"é@example.org"}}';
    const signature = sign(SECRET, id, 1768478400, body);
    expect(signature).toBe(expectedSignature(KEY, id, 1768478400, body));
    expect(signature).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    // Any change to the id, the timestamp or a byte of the body changes the signature.
    expect(sign(SECRET, id, 1768478401, body)).not.toBe(signature);
    expect(sign(SECRET, `${id}x`, 1768478400, body)).not.toBe(signature);
    expect(sign(SECRET, id, 1768478400, `${body} `)).not.toBe(signature);
  });

  it('lists one signature per secret, space-delimited, the current one first', () => {
    const other = formatSecret(Buffer.alloc(32, 7));
    const headers = webhookHeaders([SECRET, other], 'msg_x', 1700000000, '{}');
    expect(headers['webhook-id']).toBe('msg_x');
    expect(headers['webhook-timestamp']).toBe('1700000000');
    expect(headers['webhook-signature']).toBe(
      `${expectedSignature(KEY, 'msg_x', 1700000000, '{}')} ${expectedSignature(Buffer.alloc(32, 7), 'msg_x', 1700000000, '{}')}`,
    );
  });
});

describe('webhook retries', () => {
  it('succeeds on 2xx, disables on 410 and retries other answers and network failures', () => {
    expect(judgeAttempt({ ok: true, status: 204 }, 1, 0.5)).toEqual({ kind: 'succeeded' });
    expect(judgeAttempt({ ok: true, status: 410 }, 1, 0.5)).toMatchObject({ kind: 'gone' });
    expect(judgeAttempt({ ok: true, status: 302 }, 1, 0.5)).toEqual({
      kind: 'retry',
      error: 'The endpoint answered HTTP 302.',
      delayMs: 30_000,
    });
    expect(judgeAttempt({ ok: false, code: 'timeout', reason: 'The request did not finish within 15 s.' }, 2, 0.5)).toEqual({
      kind: 'retry',
      error: 'The request did not finish within 15 s.',
      delayMs: 60_000,
    });
  });

  it('gives up at once on a refused address, an invalid URL or an oversized answer', () => {
    expect(judgeAttempt({ ok: false, code: 'refused_address', reason: 'No.' }, 1, 0.5)).toEqual({ kind: 'failed', error: 'No.' });
    expect(judgeAttempt({ ok: false, code: 'invalid_url', reason: 'Bad.' }, 1, 0.5)).toEqual({ kind: 'failed', error: 'Bad.' });
    expect(judgeAttempt({ ok: false, code: 'too_large', reason: 'Big.' }, 1, 0.5)).toMatchObject({ kind: 'failed' });
  });

  it('doubles from 30 s to a cap of 6 h over 15 attempts, then fails', () => {
    const delays = Array.from({ length: MAX_ATTEMPTS - 1 }, (_, i) => nextDelayMs(i + 1, 0.5));
    expect(delays.slice(0, 4)).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(delays.at(-1)).toBe(RETRY_BACKOFF.maxMs);
    const span = delays.reduce((a, b) => a + b, 0);
    expect(span / 3_600_000).toBeCloseTo(32.5, 0);
    expect(judgeAttempt({ ok: true, status: 500 }, MAX_ATTEMPTS, 0.5)).toEqual({
      kind: 'failed',
      error: 'The endpoint answered HTTP 500. No attempts are left.',
    });
  });

  it('spreads each delay by at most 10% and honours a longer Retry-After within the cap', () => {
    expect(nextDelayMs(1, 0)).toBe(27_000);
    expect(nextDelayMs(1, 0.999999)).toBe(33_000);
    expect(nextDelayMs(20, 1)).toBe(RETRY_BACKOFF.maxMs);
    expect(nextDelayMs(1, 0.5, 120_000)).toBe(120_000);
    expect(nextDelayMs(1, 0.5, 1_000)).toBe(30_000);
    expect(nextDelayMs(1, 0.5, 48 * 3_600_000)).toBe(RETRY_BACKOFF.maxMs);
  });
});

describe('webhook events', () => {
  const facts = {
    shopId: 'a1',
    code: 'Xy',
    seq: 2,
    channel: 'email',
    messageType: 'transactional',
    profileId: 7,
    address: 'a@example.org',
  };

  it('builds a message outcome payload with a stable id that has no full stop', () => {
    const event = messageOutcomeEvent(facts, 'hard_bounced_at', Date.UTC(2026, 0, 15))!;
    expect(event.type).toBe('message.bounced');
    expect(JSON.parse(event.body)).toEqual({
      type: 'message.bounced',
      timestamp: '2026-01-15T00:00:00.000Z',
      data: {
        code: 'Xy',
        seq: 2,
        channel: 'email',
        message_type: 'transactional',
        profile_id: 7,
        address: 'a@example.org',
        bounce_type: 'hard',
      },
    });
    expect(event.id).toMatch(/^msg_[A-Za-z0-9_-]{27}$/);
    expect(messageOutcomeEvent(facts, 'hard_bounced_at', Date.UTC(2027, 0, 1))!.id).toBe(event.id);
    expect(messageOutcomeEvent(facts, 'soft_bounced_at', 0)!.id).not.toBe(event.id);
    expect(messageId('a2', 'hard_bounced_at:Xy:2')).not.toBe(event.id);
    expect(messageOutcomeEvent(facts, 'purchased_at', 0)).toBeUndefined();
    expect(outcomeEventType('sent_at')).toBe('message.sent');
  });

  it('builds tracking payloads, custom events as tracking.custom, and thins one past the size limit', () => {
    const base: StoredEvent = {
      id: 41,
      shopId: 'a1',
      profileId: 3,
      did: 'd',
      event: 'cart',
      custom: false,
      time: 0,
      items: [],
      params: { stream: 'web' },
    };
    const cart = trackingEvent(base);
    expect(cart.type).toBe('tracking.cart');
    expect(JSON.parse(cart.body).data).toEqual({
      event_id: 41,
      event: 'cart',
      profile_id: 3,
      did: 'd',
      items: [],
      params: { stream: 'web' },
    });
    expect(trackingEvent({ ...base, event: 'signup', custom: true }).type).toBe('tracking.custom');
    const big = trackingEvent({ ...base, params: { label: 'x'.repeat(MAX_PAYLOAD_BYTES) } });
    expect(Buffer.byteLength(big.body)).toBeLessThan(1024);
    expect(JSON.parse(big.body).data).toEqual({ event_id: 41, event: 'cart', profile_id: 3, did: 'd', truncated: true });
    expect(EVENT_TYPES).toContain('tracking.purchase');
  });
});

describe('docs/webhooks.md', () => {
  it('names every event type and the retry schedule the code has', async () => {
    const { readFile } = await import('node:fs/promises');
    const text = await readFile(new URL('../../../docs/webhooks.md', import.meta.url), 'utf8');
    for (const type of EVENT_TYPES) expect(text).toContain(`\`${type}\``);
    expect(text).toContain(`${MAX_ATTEMPTS} attempts in all`);
    expect(text).toContain(`30 s × 2ⁿ⁻¹, at most ${RETRY_BACKOFF.maxMs / 3_600_000} hours`);
    expect(RETRY_BACKOFF.baseMs).toBe(30_000);
  });
});
