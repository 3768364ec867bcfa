import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import type { DbOptions } from '../../src/db/create-db.js';
import type { Dialect } from '../../src/db/dialect.js';
import { freshDbOptions, removeDatabase } from '../helpers/db.js';
import { databaseEnv } from '../process/cli-harness.js';
import { CrashServer } from './crash-server.js';

/**
 * What the messaging crash tests (transact, chain, bulk) share: the mail peer that counts
 * what the killed and restarted server sends, the server's environment, an admin caller
 * and the load that runs until the kill.
 */

export const CRASH_WORKER_CONCURRENCY = 4;
/** Sends in flight at once (PATRON_DELIVERY_CONCURRENCY, the shipped default): the bound on resends after a kill. */
export const CRASH_DELIVERY_CONCURRENCY = 32;

export interface MailPeer {
  readonly url: string;
  /** Arrivals per Message-ID: more than one is a resend. */
  readonly received: Map<string, number>;
  /** The Message-IDs each address was sent. */
  readonly byAddress: Map<string, Set<string>>;
  close(): Promise<void>;
}

/** The HTTP peer that messaging-crash-server.ts's email vendor posts each send to; `answerAfterMs` slows it down. */
export async function startMailPeer(answerAfterMs = 0): Promise<MailPeer> {
  const received = new Map<string, number>();
  const byAddress = new Map<string, Set<string>>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const { to, messageId } = JSON.parse(body) as { to: string; messageId: string };
      received.set(messageId, (received.get(messageId) ?? 0) + 1);
      byAddress.set(to, (byAddress.get(to) ?? new Set()).add(messageId));
      if (answerAfterMs > 0) setTimeout(() => res.end('ok'), answerAfterMs);
      else res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mail`,
    received,
    byAddress,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** How many Message-IDs arrived more than once. */
export function resentCount(peer: MailPeer): number {
  return [...peer.received.values()].filter((count) => count > 1).length;
}

export function crashServerEnv(db: DbOptions, peer: MailPeer, adminToken: string, secretKey: string): Record<string, string> {
  return {
    ...databaseEnv(db),
    PATRON_ADMIN_TOKEN: adminToken,
    PATRON_SECRET_KEY: secretKey,
    PATRON_WORKER_CONCURRENCY: String(CRASH_WORKER_CONCURRENCY),
    PATRON_DELIVERY_CONCURRENCY: String(CRASH_DELIVERY_CONCURRENCY),
    PATRON_JOB_LEASE_SECONDS: '2',
    PEER_URL: peer.url,
  };
}

export type Caller = (method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>;

/** JSON calls with the admin token to the server `base()` names now (it changes on a restart). */
export function adminCaller(base: () => string, adminToken: string): Caller {
  return async (method, path, body) => {
    const r = await fetch(`${base()}${path}`, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await r.text();
    if (!r.ok) throw new Error(`${path}: ${r.status} ${text}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
}

export interface LoadUntilKill {
  readonly loops: number;
  readonly killAfterMs: number;
  readonly minAcknowledged: number;
  readonly loadLimitMs: number;
  /** One request of loop n, call i; throws when it is not acknowledged (the kill ends that loop). */
  send(n: number, i: number): Promise<void>;
}

/**
 * Runs `loops` request loops against the server and kills it with SIGKILL once
 * `killAfterMs` have passed and `minAcknowledged` requests were answered (or the load
 * limit is reached); answers how many were acknowledged before the kill.
 */
export async function loadUntilKill(server: CrashServer, load: LoadUntilKill): Promise<number> {
  let acknowledged = 0;
  let killed = false;
  const startedAt = Date.now();
  const within = () => Date.now() - startedAt < load.loadLimitMs;
  const loop = async (n: number) => {
    for (let i = 0; !killed && within(); i += 1) {
      try {
        await load.send(n, i);
        acknowledged += 1;
      } catch {
        return;
      }
    }
  };
  const loops = Promise.all(Array.from({ length: load.loops }, (_, n) => loop(n)));
  while ((Date.now() - startedAt < load.killAfterMs || acknowledged < load.minAcknowledged) && within()) {
    await new Promise((r) => setTimeout(r, 20));
  }
  killed = true;
  await server.kill();
  await loops;
  return acknowledged;
}

/** A crash test's database, mail peer and servers; read inside the test, after beforeAll ran. */
export interface CrashBed {
  readonly db: DbOptions;
  readonly peer: MailPeer;
  /** The server environment for this bed's database and peer. */
  env(adminToken: string, secretKey: string): Record<string, string>;
  /** Starts a server process on the bed; every one still alive is killed after the file. */
  start(env: Record<string, string>): CrashServer;
}

/** Registers the hooks of a crash test's `describe`: a fresh database of the dialect and a mail peer that answers after `answerAfterMs`. */
export function useCrashBed(dialect: Dialect, options: { readonly answerAfterMs?: number } = {}): CrashBed {
  let db: DbOptions | undefined;
  let peer: MailPeer | undefined;
  const servers: CrashServer[] = [];
  beforeAll(async () => {
    db = await freshDbOptions(dialect);
    peer = await startMailPeer(options.answerAfterMs ?? 0);
  });
  afterAll(async () => {
    for (const server of servers) server.child.kill('SIGKILL');
    await peer?.close();
    if (db) await removeDatabase(db);
  });
  const bed: CrashBed = {
    get db() {
      if (!db) throw new Error('the crash bed is read before its beforeAll ran');
      return db;
    },
    get peer() {
      if (!peer) throw new Error('the crash bed is read before its beforeAll ran');
      return peer;
    },
    env: (adminToken, secretKey) => crashServerEnv(bed.db, bed.peer, adminToken, secretKey),
    start(env) {
      const server = CrashServer.start(env);
      servers.push(server);
      return server;
    },
  };
  return bed;
}
