import { performance } from 'node:perf_hooks';
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../worker-thread.js';
import type { ChannelTemplates } from './domain/mailing.js';
import { FieldRenderError, RenderTimeExceeded, type MjmlProblem, type RenderChannel } from './template-engine.js';

/**
 * The render thread: renders that may take long run in a worker thread of their own, one
 * at a time, so that the thread that asked (the requests' for a preview, the jobs' for a
 * delivery) goes on serving others meanwhile (docs/messaging-templates.md, "Rendering limits").
 *
 * - One task at a time, in order. Before a task starts, its `admit` runs (the shop's
 *   budget, which throws to refuse); when it ends, `spent` is told what it took, before
 *   the next task is admitted, so that tasks queued together cannot all pass on a balance
 *   the first one spends.
 * - Liquid stops itself at the limit. What it cannot stop (an MJML compile, one
 *   filter over a large value) ends the thread at twice the limit: the task fails with
 *   the limit, and the next task starts a new thread.
 * - The thread starts at the first task and ends after a minute without one; it never
 *   keeps the process alive.
 */

export type RenderTask =
  | {
      readonly kind: 'channel';
      readonly channel: RenderChannel;
      readonly set: ChannelTemplates;
      readonly scope: Readonly<Record<string, unknown>>;
      /** The admin preview: answered as `{rendered, mjmlProblems}` (a Diagnosed). */
      readonly diagnose?: boolean;
    }
  | { readonly kind: 'mjml'; readonly source: string };

/** A channel rendered for the preview, with MJML's validation errors. */
export interface Diagnosed {
  readonly rendered: unknown;
  readonly mjmlProblems: readonly MjmlProblem[];
}

export type RenderReply =
  /** The thread begins the task (its modules, and mjml when the task needs it, are loaded). */
  | { readonly id: number; readonly started: true }
  /** An email's Liquid is done and its MJML compile begins (what a runaway stop then names). */
  | { readonly id: number; readonly phase: 'mjml' }
  | { readonly id: number; readonly ok: true; readonly value: unknown; readonly elapsedMs: number }
  | { readonly id: number; readonly ok: false; readonly message: string; readonly field?: string; readonly elapsedMs: number };

export interface RenderThreadData {
  readonly limitMs: number;
}

export interface TaskHooks {
  /** Runs just before the task starts; a throw refuses it (the task rejects with that error). */
  admit(): void;
  /** The task's render time, in ms, told once it ended. */
  spent(ms: number): void;
}

interface Queued {
  readonly task: RenderTask;
  readonly hooks: TaskHooks;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
}

interface Running extends Queued {
  readonly id: number;
  /** When the thread began the task: the runaway stop counts from then, not from the thread's own start. */
  started?: number;
  /** The task's MJML compile has begun. */
  compilingMjml?: boolean;
  timer?: NodeJS.Timeout;
}

const IDLE_MS = 60_000;
const COULD_NOT_RENDER = 'The template could not be rendered.';
/** The render thread's heap: a template's own memory limit is far below it. */
const HEAP_MB = 256;

export class RenderPool {
  private worker: Worker | undefined;
  private running: Running | undefined;
  private readonly queue: Queued[] = [];
  private nextId = 1;
  private idle: NodeJS.Timeout | undefined;
  private closed = false;

  /** `limitMs`: the longest a task may take (the render thread's engines stop Liquid there). */
  constructor(private readonly limitMs: number) {}

  run(task: RenderTask, hooks: TaskHooks): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('The renderer is closed.'));
    return new Promise((resolve, reject) => {
      this.queue.push({ task, hooks, resolve, reject });
      this.pump();
    });
  }

  /** Ends the render thread; the running and queued tasks fail. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idle);
    const running = this.running;
    this.running = undefined;
    clearTimeout(running?.timer);
    for (const item of [...(running ? [running] : []), ...this.queue.splice(0)]) item.reject(new Error('The renderer is closed.'));
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }

  private pump(): void {
    while (!this.running && !this.closed) {
      const item = this.queue.shift();
      if (!item) {
        this.idle ??= setTimeout(() => this.retire(), IDLE_MS).unref();
        return;
      }
      try {
        item.hooks.admit();
      } catch (error) {
        item.reject(error as Error);
        continue;
      }
      this.start(item);
    }
  }

  private start(item: Queued): void {
    clearTimeout(this.idle);
    this.idle = undefined;
    let worker: Worker;
    try {
      worker = this.worker ??= this.spawn();
    } catch {
      // A thread that cannot start says nothing a template's author could use.
      item.hooks.spent(0);
      item.reject(new Error(COULD_NOT_RENDER));
      return;
    }
    const running: Running = { ...item, id: this.nextId++ };
    try {
      worker.postMessage({ id: running.id, task: item.task });
    } catch {
      // A scope that cannot be copied to the thread (values a template's scope never holds: a function, a symbol).
      item.hooks.spent(0);
      item.reject(new Error(COULD_NOT_RENDER));
      return;
    }
    this.running = running;
  }

  private spawn(): Worker {
    const worker = startWorker(import.meta.url, './render-thread-entry', {
      workerData: { limitMs: this.limitMs } satisfies RenderThreadData,
      resourceLimits: { maxOldGenerationSizeMb: HEAP_MB },
    });
    worker.unref();
    worker.on('message', (reply: RenderReply) => {
      const running = this.running;
      if (this.worker !== worker || !running || reply.id !== running.id) return;
      if ('started' in reply) {
        running.started = performance.now();
        running.timer = setTimeout(() => this.stopRunaway(worker, running.id), this.limitMs * 2).unref();
      } else if ('phase' in reply) {
        running.compilingMjml = true;
      } else if (reply.ok) this.finish(running, reply.elapsedMs, () => running.resolve(reply.value));
      else {
        const error = reply.field === undefined ? new Error(reply.message) : new FieldRenderError(reply.message, reply.field);
        this.finish(running, reply.elapsedMs, () => running.reject(error));
      }
    });
    let failure: Error | undefined;
    worker.on('error', (error) => {
      failure = error;
    });
    worker.on('exit', () => {
      // A thread ended on purpose (a runaway, idle, closed) is no longer the pool's.
      if (this.worker !== worker) return;
      this.worker = undefined;
      const running = this.running;
      if (!running) return;
      // The thread ended under a task: out of memory, or an error of its own (its words stay in the thread).
      const outOfMemory = (failure as { code?: string } | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
      const message = outOfMemory ? 'The template takes more memory than a render may.' : COULD_NOT_RENDER;
      this.finish(running, sinceStart(running), () => running.reject(new Error(message)));
    });
    return worker;
  }

  /** A task past twice its limit: Liquid would have stopped itself, so the thread is stuck where it cannot; ended. */
  private stopRunaway(worker: Worker, id: number): void {
    const running = this.running;
    if (!running || running.id !== id) return;
    if (this.worker === worker) this.worker = undefined;
    void worker.terminate();
    const what = running.task.kind === 'mjml' || running.compilingMjml ? 'email.html (MJML)' : running.task.channel;
    this.finish(running, sinceStart(running), () =>
      running.reject(new RenderTimeExceeded(`${what} takes more than ${this.limitMs} ms to render`)),
    );
  }

  private finish(running: Running, elapsedMs: number, settle: () => void): void {
    clearTimeout(running.timer);
    this.running = undefined;
    running.hooks.spent(elapsedMs);
    settle();
    this.pump();
  }

  private retire(): void {
    this.idle = undefined;
    if (this.running || this.queue.length > 0) return;
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
  }
}

function sinceStart(running: Running): number {
  return running.started === undefined ? 0 : performance.now() - running.started;
}
