import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/create-db.js';
import { JobQueue } from '../../src/jobs/queue.js';
import { JobRunner } from '../../src/jobs/runner.js';
import { createLogger } from '../../src/process/logger.js';
import { closeResources } from '../../src/process/shutdown.js';
import { createTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../helpers/app.js';
import { deferred, waitFor } from '../helpers/wait.js';

const log = createLogger('silent');

describe('closing a process', () => {
  let t: TestApp;
  afterEach(async () => {
    await t.close();
  });

  it('waits for a running job to finish and records it before closing the database', async () => {
    t = await createTestApp();
    const queue = new JobQueue<{ 'test.slow': { n: number } }>({ db: t.db, clock: t.clock });
    const release = deferred();
    let started = false;
    const runner = new JobRunner<{ 'test.slow': { n: number } }>({ queue, clock: t.clock, pollIntervalMs: 5 }).register(
      'test.slow',
      async () => {
        started = true;
        await release.promise;
      },
    );
    const { job } = await queue.enqueue('test.slow', { n: 1 });
    runner.start();
    await waitFor(() => started, { what: 'the job to start' });

    let closed = false;
    const closing = closeResources({ runner, db: t.db }, log, 10_000).then((ok) => {
      closed = true;
      return ok;
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(closed).toBe(false);
    release.resolve();
    expect(await closing).toBe(true);

    // The handle is closed now: read the outcome through a new one on the same file.
    if (t.db.options.kind !== 'sqlite') throw new Error('this test runs on SQLite');
    const reopened = createDb(t.db.options);
    try {
      const row = await reopened.db.selectFrom('jobs').select('status').where('id', '=', job.id).executeTakeFirstOrThrow();
      expect(row.status).toBe('done');
    } finally {
      await reopened.destroy();
    }
    expect(await t.db.ping()).toBe(false);
  });

  it('finishes a request in flight before it stops, and refuses new connections meanwhile', async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');

    // A request whose body is still arriving: Fastify has started it, so close() waits.
    const body = JSON.stringify({ name: 'Arrives during shutdown' });
    const socket = net.connect(address.port, '127.0.0.1');
    let response = '';
    socket.on('data', (chunk: Buffer) => (response += chunk.toString()));
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    // `Connection: close`, and the body's rest written without ending the socket: a client
    // that half-closes its side (socket.end) gets its socket ended by Node before an answer
    // that waits on I/O can be written, which is Node's choice for a half-closed peer and
    // no behaviour of Patron's shutdown.
    const closedByServer = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write(
      `POST /admin/v1/shops HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer ${TEST_ADMIN_TOKEN}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 5)}`,
    );
    await new Promise((r) => setTimeout(r, 100));

    let closed = false;
    const closing = closeResources({ app: t.app }, log).then(() => (closed = true));
    await new Promise((r) => setTimeout(r, 100));
    expect(closed).toBe(false);
    const refused = await fetch(`http://127.0.0.1:${address.port}/health`).then(
      () => 'answered',
      () => 'refused',
    );
    expect(refused).toBe('refused');

    socket.write(body.slice(5));
    await closing;
    await closedByServer;
    expect(response).toMatch(/^HTTP\/1\.1 201 /);
    expect(response).toContain('"name":"Arrives during shutdown"');
  });
});
