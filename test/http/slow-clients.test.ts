import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statusSuccess } from '../../src/http/envelopes.js';
import type { PublicRouteModule } from '../../src/public-api/types.js';
import { createTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../helpers/app.js';
import { createShopFixture } from '../helpers/factories.js';
import { buildYml, sampleFeed } from '../helpers/feed-builder.js';
import { connectRaw, jsonBodyOf, sleep, statusOf } from '../helpers/raw-client.js';
import { createPublicTestApp } from './public-test-app.js';

/**
 * The slow-client bounds (http/connection-limits.ts, docs/limits.md) over real sockets,
 * with bounds short enough for a quick test: 500 ms for headers, a pause in a body and
 * idle keep-alive; 2.5 s for a whole request.
 */
const BOUND_MS = 500;
const REQUEST_MS = 2500;
// Detection runs on a period of a quarter of the bound; the rest is a loaded machine's slack.
const LATE_MS = 1200;

/** A public route that takes twice the pause to answer once its body is in. */
const slowAnswer: PublicRouteModule = (scope) => {
  scope.post('/test/slow-answer', { config: { envelope: 'status', auth: 'none' } }, async (request) => {
    await sleep(BOUND_MS * 2);
    return statusSuccess({ payload: { input: request.input } });
  });
};

async function listen(t: TestApp): Promise<number> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return (t.app.server.address() as AddressInfo).port;
}

async function metricValue(t: TestApp, name: string): Promise<number> {
  const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name} `));
  return Number(line?.split(' ')[1]);
}

describe('slow clients', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createPublicTestApp([slowAnswer], {
      env: {
        PATRON_HEADERS_TIMEOUT_MS: String(BOUND_MS),
        PATRON_BODY_IDLE_TIMEOUT_MS: String(BOUND_MS),
        PATRON_KEEP_ALIVE_TIMEOUT_MS: String(BOUND_MS),
        PATRON_REQUEST_TIMEOUT_MS: String(REQUEST_MS),
      },
    });
    port = await listen(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 408 and closes the connection when a POST /push body stops arriving', async () => {
    const before = await metricValue(t, 'patron_http_body_timeouts_total');
    const client = await connectRaw(port);
    client.write('POST /push HTTP/1.1\r\nHost: patron\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"shop_id":"');
    const { text, afterMs } = await client.closed;
    expect(statusOf(text)).toBe(408);
    expect(text).toMatch(/\r\nConnection: close\r\n/i);
    expect(text).toMatch(/\r\nAccess-Control-Allow-Origin: \*\r\n/i);
    expect(jsonBodyOf(text)).toEqual({
      status: 'error',
      payload: { message: 'The request body stopped arriving before it was complete.' },
    });
    expect(afterMs).toBeGreaterThanOrEqual(BOUND_MS - 20);
    expect(afterMs).toBeLessThan(BOUND_MS + LATE_MS);
    expect(await metricValue(t, 'patron_http_body_timeouts_total')).toBe(before + 1);
  });

  it('never cuts a request whose body is in while the server takes longer than the pause to answer', async () => {
    const client = await connectRaw(port);
    const body = '{"a":"b"}';
    client.write(
      'POST /test/slow-answer HTTP/1.1\r\nHost: patron\r\nContent-Type: application/json\r\n' +
        `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 4)}`,
    );
    await sleep(BOUND_MS / 2);
    client.write(body.slice(4));
    const { text, afterMs } = await client.closed;
    expect(statusOf(text)).toBe(200);
    expect(jsonBodyOf(text)).toEqual({ status: 'success', payload: { input: { a: 'b' } } });
    expect(afterMs).toBeGreaterThan(BOUND_MS * 2);
  });

  it('answers 408 and closes the connection when an admin body stops arriving', async () => {
    const client = await connectRaw(port);
    client.write(
      `POST /admin/v1/shops HTTP/1.1\r\nHost: patron\r\nAuthorization: Bearer ${TEST_ADMIN_TOKEN}\r\n` +
        'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"nam\r\n',
    );
    const { text, afterMs } = await client.closed;
    expect(statusOf(text)).toBe(408);
    expect(jsonBodyOf(text)).toEqual({
      error: { code: 'REQUEST_TIMEOUT', message: 'The request body stopped arriving before it was complete.' },
    });
    expect(afterMs).toBeLessThan(BOUND_MS + LATE_MS);
  });

  it('lets a feed upload that keeps arriving take longer than the pause, and closes one that stops', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const feed = Buffer.from(buildYml(sampleFeed()));
    const head =
      `PUT /admin/v1/shops/${shopId}/feed HTTP/1.1\r\nHost: patron\r\nAuthorization: Bearer ${TEST_ADMIN_TOKEN}\r\n` +
      `Content-Type: application/xml\r\nContent-Length: ${feed.length}\r\nConnection: close\r\n\r\n`;

    const steady = await connectRaw(port);
    steady.write(head);
    // Twelve pieces, each a quarter of the pause apart: the upload lasts about 3x the bound.
    const pieces = 12;
    const size = Math.ceil(feed.length / pieces);
    for (let i = 0; i < pieces; i += 1) {
      await sleep(BOUND_MS / 4);
      steady.socket.write(feed.subarray(i * size, (i + 1) * size));
    }
    const done = await steady.closed;
    expect(statusOf(done.text)).toBe(200);
    expect(done.afterMs).toBeGreaterThan(BOUND_MS * 2);
    expect(await t.app.services.catalog.currentGeneration(shopId)).toBe(1);

    const stalled = await connectRaw(port);
    stalled.write(head);
    stalled.socket.write(feed.subarray(0, size));
    const cut = await stalled.closed;
    expect(statusOf(cut.text)).toBe(408);
    expect(cut.afterMs).toBeLessThan(BOUND_MS + LATE_MS);
    expect(await t.app.services.catalog.currentGeneration(shopId)).toBe(1);
    // The cut upload is an import that failed, not one left running: the next one lands.
    const status = await t.app.inject({ method: 'GET', url: `/admin/v1/shops/${shopId}/feed`, headers: t.adminHeaders });
    expect(status.json()).toMatchObject({ generation: 1, last_import: { status: 'failed' } });
    const again = await t.app.inject({
      method: 'PUT',
      url: `/admin/v1/shops/${shopId}/feed`,
      headers: { ...t.adminHeaders, 'content-type': 'application/xml' },
      payload: feed,
    });
    expect(again.statusCode).toBe(200);
    expect(await t.app.services.catalog.currentGeneration(shopId)).toBeGreaterThan(1);
  });

  it('ends a body trickled just inside the pause at the whole-request bound', async () => {
    const client = await connectRaw(port);
    client.write('POST /push HTTP/1.1\r\nHost: patron\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n');
    const trickle = setInterval(() => client.write(' '), BOUND_MS / 3);
    try {
      const { text, afterMs } = await client.closed;
      expect(statusOf(text)).toBe(408);
      expect(afterMs).toBeGreaterThanOrEqual(REQUEST_MS - 20);
      expect(afterMs).toBeLessThan(REQUEST_MS + LATE_MS);
    } finally {
      clearInterval(trickle);
    }
  });

  it('answers 408 and closes the connection when the headers never end', async () => {
    const client = await connectRaw(port);
    client.write('GET /health HTTP/1.1\r\nHost: patron\r\n');
    const { text, afterMs } = await client.closed;
    expect(statusOf(text)).toBe(408);
    expect(afterMs).toBeGreaterThanOrEqual(BOUND_MS - 20);
    expect(afterMs).toBeLessThan(BOUND_MS + LATE_MS);
  });

  it('answers 408 and closes a connection that never sends a byte within the headers bound', async () => {
    const client = await connectRaw(port);
    const { text, afterMs } = await client.closed;
    expect(statusOf(text)).toBe(408);
    expect(afterMs).toBeLessThan(BOUND_MS + LATE_MS);
  });

  it('closes an idle keep-alive connection after the keep-alive bound (and the second Node adds), not before', async () => {
    const client = await connectRaw(port);
    client.write('GET /health HTTP/1.1\r\nHost: patron\r\n\r\n');
    await sleep(BOUND_MS / 3);
    expect(statusOf(client.received())).toBe(200);
    expect(client.socket.destroyed).toBe(false);
    const { afterMs } = await client.closed;
    // Node holds the socket one second past the timeout it announces, so that a client
    // reusing it at the last moment does not race the close.
    expect(afterMs).toBeGreaterThanOrEqual(BOUND_MS + 1000 - 20);
    expect(afterMs).toBeLessThan(BOUND_MS + 1000 + LATE_MS);
  });
});

describe('connection cap', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp({ env: { PATRON_MAX_CONNECTIONS: '3' } });
    port = await listen(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('closes a connection beyond PATRON_MAX_CONNECTIONS at once, and accepts again once one ends', async () => {
    const open = await Promise.all([connectRaw(port), connectRaw(port), connectRaw(port)]);
    // The server counts a connection once it has accepted it; wait for all three.
    for (;;) {
      const count = await new Promise<number>((resolve) => t.app.server.getConnections((_e, n) => resolve(n)));
      if (count === 3) break;
      await sleep(5);
    }
    const refused = await connectRaw(port);
    const { text, afterMs } = await refused.closed;
    expect(text).toBe('');
    expect(afterMs).toBeLessThan(1000);
    expect(open.every((client) => !client.socket.destroyed)).toBe(true);

    const text2 = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(text2).toMatch(/^patron_http_connections_refused_total 1$/m);

    open[0].destroy();
    await open[0].closed;
    await sleep(50);
    const accepted = await connectRaw(port);
    accepted.write('GET /health HTTP/1.1\r\nHost: patron\r\nConnection: close\r\n\r\n');
    expect(statusOf((await accepted.closed).text)).toBe(200);
    for (const client of open) client.destroy();
  });
});
