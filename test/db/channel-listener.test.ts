import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ChannelListener, LISTENER_TIMING, reconnectDelay, type ChannelListenerOptions } from '../../src/db/postgres/channel-listener.js';
import { scriptArgs } from '../helpers/child-script.js';
import { TcpProxy } from '../helpers/tcp-proxy.js';
import { waitFor } from '../helpers/wait.js';

/** The LISTEN connection that carries admin changes between processes (docs/settings-caches.md). */

describe('reconnectDelay', () => {
  const timing = { ...LISTENER_TIMING, backoffMs: 100, maxBackoffMs: 1_000 };

  it('doubles from the backoff per failed attempt up to the ceiling', () => {
    const none = () => 0;
    expect([0, 1, 2, 3, 4, 5, 40].map((attempt) => reconnectDelay(attempt, timing, none))).toEqual([100, 200, 400, 800, 1000, 1000, 1000]);
  });

  it('takes up to a fifth off at random, so that nodes do not reconnect in step', () => {
    expect(reconnectDelay(3, timing, () => 0.999_999)).toBe(640);
    expect(reconnectDelay(9, timing, () => 0.5)).toBe(900);
  });
});

const URL_ = process.env.TEST_DATABASE_URL;

describe.skipIf(!URL_)('ChannelListener on PostgreSQL', () => {
  let admin: pg.Client;
  let proxy: TcpProxy;
  const open: ChannelListener[] = [];

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: URL_ });
    await admin.connect();
    const target = new URL(URL_!);
    proxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port || 5432) });
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((listener) => listener.close()));
    proxy.refuse(false);
  });
  afterAll(async () => {
    await admin.end();
    await proxy.close();
  });

  /** A listener on a channel and under an application_name of its own, recording what it is told. */
  function listen(options: { viaProxy?: boolean; timing?: ChannelListenerOptions['timing'] } = {}) {
    const name = `test-listener-${crypto.randomBytes(4).toString('hex')}`;
    const channel = `test_${crypto.randomBytes(4).toString('hex')}`;
    const seen = { payloads: [] as string[], connected: 0, waits: [] as number[] };
    const url = new URL(URL_!);
    if (options.viaProxy) {
      url.hostname = '127.0.0.1';
      url.port = String(proxy.port);
    }
    const listener = new ChannelListener({
      url: url.toString(),
      channel,
      applicationName: name,
      timing: options.timing ?? { backoffMs: 20, maxBackoffMs: 200 },
      onNotification: (payload) => seen.payloads.push(payload),
      onConnected: () => (seen.connected += 1),
      onLost: (_error, retryInMs) => seen.waits.push(retryInMs),
    });
    open.push(listener);
    const notify = (payload: string) => admin.query('select pg_notify($1, $2)', [channel, payload]);
    const backends = async () =>
      (await admin.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1', [name])).rows.map((r) => r.pid);
    const terminate = () => admin.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [name]);
    return { listener, seen, notify, backends, terminate };
  }

  it('hears what another connection notifies on its channel, and is told of its connection once', async () => {
    const { listener, seen, notify, backends } = listen();
    await listener.start();
    expect(listener.stats()).toEqual({ connected: true, connections: 1, notifications: 0 });
    expect(seen.connected).toBe(1);
    expect(await backends()).toHaveLength(1);
    await notify('first');
    await admin.query('select pg_notify($1, $2)', ['another_channel', 'not for it']);
    await notify('second');
    await waitFor(() => seen.payloads.length === 2, { what: 'two notifications' });
    expect(seen.payloads).toEqual(['first', 'second']);
    expect(listener.stats().notifications).toBe(2);
  });

  it('reconnects when its backend is terminated, and is told of the new connection', async () => {
    const { listener, seen, notify, backends, terminate } = listen();
    await listener.start();
    const [before] = await backends();
    await terminate();
    await waitFor(() => seen.connected === 2, { what: 'a second connection' });
    expect(seen.waits).toHaveLength(1);
    const after = await backends();
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(before);
    await notify('after the loss');
    await waitFor(() => seen.payloads.includes('after the loss'), { what: 'a notification on the new connection' });
    expect(listener.stats()).toMatchObject({ connected: true, connections: 2 });
  });

  it('misses what is notified while it has no connection, retries with a growing wait, and is told once it is back', async () => {
    const { listener, seen, notify, terminate } = listen({ viaProxy: true, timing: { backoffMs: 20, maxBackoffMs: 160 } });
    await listener.start();
    proxy.refuse(true);
    await terminate();
    await waitFor(() => seen.waits.length >= 6, { what: 'six failed attempts' });
    expect(listener.stats().connected).toBe(false);
    await notify('while away');
    const waits = seen.waits.slice(0, 6);
    // Each wait is the doubled backoff less up to a fifth: 20, 40, 80, 160, then the ceiling.
    [20, 40, 80, 160, 160, 160].forEach((full, i) => {
      expect(waits[i]).toBeGreaterThanOrEqual(full * 0.8);
      expect(waits[i]).toBeLessThanOrEqual(full);
    });
    proxy.refuse(false);
    await waitFor(() => seen.connected === 2, { what: 'the connection back' });
    await notify('back');
    await waitFor(() => seen.payloads.includes('back'), { what: 'a notification once back' });
    expect(seen.payloads).toEqual(['back']);
  });

  it('gives up a connection that stopped delivering without closing (its ping goes unanswered) and makes a new one', async () => {
    const { listener, seen, notify } = listen({
      viaProxy: true,
      timing: { backoffMs: 20, maxBackoffMs: 200, pingEveryMs: 100, timeoutMs: 400 },
    });
    await listener.start();
    expect(proxy.open).toBe(1);
    proxy.stallOpenConnections();
    await notify('into the void');
    await waitFor(() => seen.connected === 2, { what: 'a new connection after the unanswered ping', timeoutMs: 5_000 });
    expect(seen.payloads).toEqual([]);
    await notify('heard again');
    await waitFor(() => seen.payloads.includes('heard again'), { what: 'a notification on the new connection' });
  });

  it('closes its connection and makes no further attempt once closed', async () => {
    const { listener, seen, backends } = listen();
    await listener.start();
    await listener.close();
    await waitFor(async () => (await backends()).length === 0, { what: 'the backend to end' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(seen.waits).toEqual([]);
    expect(listener.stats()).toMatchObject({ connected: false, connections: 1 });
  });

  it('does not keep a process alive that has nothing else to do', async () => {
    const child = spawn(process.execPath, [...scriptArgs('test/db/listener-alone-script.ts')], {
      env: { PATH: process.env.PATH ?? '', LISTEN_URL: URL_! },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const code = await new Promise<number | null>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`the process with an open listener did not exit by itself\n${out}`));
      }, 20_000);
      child.on('close', (exitCode) => {
        clearTimeout(timer);
        resolve(exitCode);
      });
    });
    expect(out).toContain('listening: true');
    expect(code).toBe(0);
  }, 30_000);
});
