import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './processes.js';

/**
 * The benches' SMTP peer on the loopback interface, in a process of its own
 * (smtp-peer-process.ts): it takes every message, counts arrivals by key (what a pattern's
 * first group finds in the message, or each recipient) and notes when the last arrived.
 *
 * Not in the bench's process: there, parsing some thousand messages a second shared one
 * event loop with the load client, whose requests then went out late and whose answers
 * were read late, and the paced runs charged that wait to the server (the client's loop
 * lagged several milliseconds at p99, a good part of the 20 ms target).
 */
export interface PeerRequest {
  readonly id: number;
  readonly op: 'reset' | 'count' | 'snapshot' | 'stop';
}

export interface PeerReply {
  readonly id: number;
  readonly received: number;
  /** When the last message arrived, in milliseconds since the epoch (0: none yet). */
  readonly lastAt: number;
  readonly byKey?: readonly (readonly [string, number])[];
  /** The first message only: the port the peer listens on. */
  readonly port?: number;
}

export interface PeerCount {
  readonly received: number;
  /** When the last message arrived, on this process's performance.now() clock (0: none yet). */
  readonly lastAt: number;
}

export interface PeerSnapshot extends PeerCount {
  readonly byKey: ReadonlyMap<string, number>;
}

const PEER_PROCESS = path.join(ROOT, 'bench/lib/smtp-peer-process.ts');

export class SmtpPeer {
  port = 0;
  private child: ChildProcess | undefined;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (reply: PeerReply) => void; reject: (error: Error) => void }>();

  /** `keyPattern`: a message's key is its first group's match; absent: each recipient is a key. */
  constructor(private readonly keyPattern?: RegExp) {}

  async start(): Promise<void> {
    const child = fork(PEER_PROCESS, [], {
      execArgv: ['--import', 'tsx'],
      env: {
        PATH: process.env.PATH ?? '',
        ...(this.keyPattern && { PEER_KEY_PATTERN: this.keyPattern.source, PEER_KEY_FLAGS: this.keyPattern.flags }),
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child = child;
    const ready = new Promise<PeerReply>((resolve, reject) => this.waiting.set(0, { resolve, reject }));
    child.on('message', (reply: PeerReply) => {
      const waiter = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      waiter?.resolve(reply);
    });
    child.on('exit', (code) => {
      for (const waiter of this.waiting.values()) waiter.reject(new Error(`the SMTP peer exited with ${code}`));
      this.waiting.clear();
    });
    this.port = (await ready).port ?? 0;
    if (this.port === 0) throw new Error('the SMTP peer did not say its port');
  }

  /** Forgets what arrived so far. */
  async reset(): Promise<void> {
    await this.ask('reset');
  }

  /** How many messages arrived, and when the last did. */
  async count(): Promise<PeerCount> {
    return this.local(await this.ask('count'));
  }

  /** count, with the arrivals of each key. */
  async snapshot(): Promise<PeerSnapshot> {
    const reply = await this.ask('snapshot');
    return { ...this.local(reply), byKey: new Map(reply.byKey ?? []) };
  }

  async stop(): Promise<void> {
    if (!this.child || this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child?.once('exit', resolve));
    await this.ask('stop').catch(() => undefined);
    await exited;
  }

  private local(reply: PeerReply): PeerCount {
    return { received: reply.received, lastAt: reply.lastAt === 0 ? 0 : reply.lastAt - performance.timeOrigin };
  }

  private ask(op: PeerRequest['op']): Promise<PeerReply> {
    const child = this.child;
    if (!child?.connected) return Promise.reject(new Error('the SMTP peer is not running'));
    const id = this.nextId;
    this.nextId += 1;
    return new Promise<PeerReply>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      child.send({ id, op } satisfies PeerRequest, (error) => {
        if (!error) return;
        this.waiting.delete(id);
        reject(error);
      });
    });
  }
}
