import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbOptions } from '../../src/db/create-db.js';
import { freshDbOptions, removeDatabase } from '../helpers/db.js';
import { CliProcess, databaseEnv } from './cli-harness.js';

const ADMIN_TOKEN = 'drain-test-admin-token-0123456789';

interface Answer {
  status: number;
  connection: string | undefined;
  reusedSocket: boolean;
  body: string;
}

function get(agent: http.Agent, url: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, connection: response.headers.connection, reusedSocket: request.reusedSocket, body }),
      );
    });
    request.on('error', reject);
  });
}

/**
 * The drain before a shutdown (docs/shutdown.md) in a real `patron serve`. The drain has
 * nothing to do with the database: SQLite alone (a fresh PostgreSQL schema costs ~20 s).
 */
describe('patron serve drains on SIGTERM', () => {
  let db: DbOptions;
  let server: CliProcess | undefined;
  beforeAll(async () => {
    db = await freshDbOptions('sqlite');
  });
  afterAll(async () => {
    server?.kill();
    await removeDatabase(db);
  });

  it('answers /ready 503 at once, serves a kept-alive client through the drain, finishes a request in flight, and exits 0', async () => {
    server = CliProcess.start(['serve', '--no-worker'], {
      ...databaseEnv(db),
      PORT: '0',
      HOST: '127.0.0.1',
      PATRON_ADMIN_TOKEN: ADMIN_TOKEN,
      PATRON_SHUTDOWN_DRAIN_SECONDS: '1',
    });
    const baseUrl = await server.waitUntilServing();
    const { port } = new URL(baseUrl);
    expect((await fetch(`${baseUrl}/ready`)).status).toBe(200);

    // A request in flight across the signal: its body is still arriving.
    const body = JSON.stringify({ name: 'Arrives after the drain' });
    const slow = net.connect(Number(port), '127.0.0.1');
    let slowAnswer = '';
    slow.on('data', (chunk: Buffer) => (slowAnswer += chunk.toString()));
    const slowClosed = new Promise<void>((resolve) => slow.once('close', () => resolve()));
    await new Promise<void>((resolve) => slow.once('connect', resolve));
    slow.write(
      `POST /admin/v1/shops HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 5)}`,
    );

    // A kept-alive client (a balancer's pooled connection): one socket, opened before the signal.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    expect(await get(agent, `${baseUrl}/health`)).toMatchObject({ status: 200, connection: 'keep-alive' });

    server.signal('SIGTERM');
    await server.waitForOutput(/"msg":"Draining: /);
    const ready = await fetch(`${baseUrl}/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'unavailable' });
    // Served as usual on the same connection, which the answer then asks the client to leave.
    expect(await get(agent, `${baseUrl}/health`)).toEqual({
      status: 200,
      connection: 'close',
      reusedSocket: true,
      body: '{"status":"ok"}',
    });
    agent.destroy();

    await server.waitForOutput(/"msg":"Drained: /);
    expect(slowAnswer).toBe('');
    slow.write(body.slice(5));
    await slowClosed;
    expect(slowAnswer).toMatch(/^HTTP\/1\.1 201 /);
    expect(slowAnswer).toContain('"name":"Arrives after the drain"');
    expect(await server.exit(10_000)).toBe(0);
    expect(server.stdout).toContain('"msg":"Stopped"');
  }, 60_000);
});
