import type { Logger } from './logger.js';

/** What a running process holds open; filled in as start-up gets that far. */
export interface ProcessResources {
  /** The drain before the close (http/draining.ts): /ready answers 503 from the signal on. */
  drain?: { begin(): void };
  app?: { close(): Promise<unknown> };
  /** Tracking's group commit: events that wait for their batch are committed before the database closes. */
  tracking?: { drain(): Promise<void> };
  runner?: { stop(options?: { timeoutMs?: number }): Promise<{ unfinished: number }> };
  /** The process's entry of PATRON_FETCH_ALLOW_PRIVATE (modules/system/fetch-rule.ts), removed before the database closes. */
  fetchRule?: { leave(): Promise<void> };
  /** The connection that hears admin changes (modules/system/settings-notifications.ts): kept while requests are served. */
  settingsNotifications?: { close(): Promise<void> };
  db?: { destroy(): Promise<void> };
}

export interface ShutdownOptions {
  readonly log: Logger;
  /**
   * PATRON_SHUTDOWN_DRAIN_SECONDS in ms: how long requests are still served, with /ready
   * answering 503, before the server stops accepting. Only when there is a drain to begin.
   */
  readonly drainMs?: number;
  /** Past this, the process exits with 1 whatever is still open. */
  readonly totalTimeoutMs?: number;
  /** How long running jobs may take to finish before their handlers are aborted. */
  readonly jobWaitMs?: number;
  /** process.exit, replaceable in tests. */
  readonly exit?: (code: number) => void;
}

export const SHUTDOWN_TIMEOUT_MS = 30_000;
export const JOB_WAIT_MS = 20_000;

/**
 * Closes what the process holds, in dependency order: stop accepting requests (Fastify
 * then finishes the requests in flight) while the job runner stops claiming and waits
 * for running jobs; then the connection that hears admin changes, and the database both
 * of them use. Returns false when a step failed (each failure is logged and the next
 * step still runs).
 */
export async function closeResources(resources: ProcessResources, log: Logger, jobWaitMs: number = JOB_WAIT_MS): Promise<boolean> {
  const results = await Promise.allSettled([
    // Once the server stops accepting, commit the events still waiting for their batch.
    (async () => {
      try {
        await resources.app?.close();
      } finally {
        await resources.tracking?.drain();
      }
    })(),
    resources.runner?.stop({ timeoutMs: jobWaitMs }).then(({ unfinished }) => {
      if (unfinished > 0) {
        log.warn({ unfinished }, 'Jobs still running at shutdown were aborted; another worker retries them');
      }
    }),
  ]);
  const ruleResult = await Promise.allSettled([resources.fetchRule?.leave(), resources.settingsNotifications?.close()]);
  const dbResult = await Promise.allSettled([resources.db?.destroy()]);
  let ok = true;
  for (const result of [...results, ...ruleResult, ...dbResult]) {
    if (result.status === 'rejected') {
      ok = false;
      log.error({ err: result.reason as unknown }, 'A shutdown step failed');
    }
  }
  return ok;
}

export interface GracefulShutdown {
  /** True once a signal has started the shutdown. */
  readonly started: boolean;
  /** Runs the shutdown as a signal would (for a fatal start-up error, say). */
  begin(reason: string, exitCode?: number): void;
}

/**
 * SIGTERM or SIGINT begins the drain (docs/shutdown.md: /ready answers 503 while every
 * other request is still served, for drainMs), then closes the resources and exits 0; a
 * second signal exits at once with 1 (an operator pressing Ctrl-C twice means it), and so
 * does the total timeout, counted from the end of the drain.
 */
export function installGracefulShutdown(resources: ProcessResources, options: ShutdownOptions): GracefulShutdown {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const totalTimeoutMs = options.totalTimeoutMs ?? SHUTDOWN_TIMEOUT_MS;
  let started = false;

  const begin = (reason: string, exitCode = 0): void => {
    if (started) {
      options.log.warn({ reason }, 'Second signal: exiting without waiting');
      exit(1);
      return;
    }
    started = true;
    const drainMs = resources.drain === undefined ? 0 : (options.drainMs ?? 0);
    resources.drain?.begin();
    options.log.info({ reason, drainMs }, 'Shutting down');
    const close = (): void => {
      const timer = setTimeout(() => {
        options.log.error({ timeoutMs: totalTimeoutMs }, 'Shutdown took too long: exiting');
        exit(1);
      }, totalTimeoutMs);
      timer.unref();
      void closeResources(resources, options.log, options.jobWaitMs).then((ok) => {
        clearTimeout(timer);
        options.log.info('Stopped');
        exit(ok ? exitCode : 1);
      });
    };
    if (drainMs === 0) return close();
    options.log.info({ drainMs }, 'Draining: /ready answers 503, requests are still served');
    setTimeout(() => {
      options.log.info('Drained: no longer accepting connections');
      close();
    }, drainMs);
  };

  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => begin(signal));

  return {
    get started() {
      return started;
    },
    begin,
  };
}
