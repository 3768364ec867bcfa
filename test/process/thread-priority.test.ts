import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { lowerThreadPriority, threadNice } from '../../src/process/thread-priority.js';

const linux = process.platform === 'linux';

/** Runs lowerThreadPriority with each value in turn in a thread of its own, and reads back what the kernel has for that thread. */
function inThread(...nices: number[]): Promise<{ outcomes: unknown[]; nice: number | undefined }> {
  const moduleUrl = new URL('../../src/process/thread-priority.ts', import.meta.url).href;
  // A worker does not inherit tsx's loader: it registers it (resolved from the working directory) before it loads the module.
  const source = `
    const { parentPort, workerData } = require('node:worker_threads');
    import('tsx/esm/api').then(({ register }) => { register(); return import(workerData.moduleUrl); }).then((m) => {
      const outcomes = workerData.nices.map((nice) => m.lowerThreadPriority(nice));
      parentPort.postMessage({ outcomes, nice: m.threadNice() });
    }, (error) => parentPort.postMessage({ error: String(error) }));
  `;
  const worker = new Worker(source, { eval: true, workerData: { moduleUrl, nices } });
  return new Promise((resolve, reject) => {
    worker.once('message', (message: { outcomes: unknown[]; nice: number | undefined; error?: string }) => {
      void worker.terminate();
      if (message.error) reject(new Error(message.error));
      else resolve(message);
    });
    worker.once('error', reject);
  });
}

describe('thread priority', () => {
  it.runIf(linux)('lowers the calling thread alone: the kernel has the new nice value for it, the process keeps its own', async () => {
    const before = threadNice() ?? 0;
    // A run started under `nice` has threads at that value already: go one lower than it.
    const nice = Math.max(7, before + 1);
    const result = await inThread(nice);
    expect(result.outcomes).toEqual([{ applied: true, nice }]);
    expect(result.nice).toBe(nice);
    expect(threadNice()).toBe(before);
  });

  it.runIf(linux)('never raises a priority: a thread already at the value or lower is left as it is', async () => {
    const nice = Math.max(5, (threadNice() ?? 0) + 2);
    const result = await inThread(nice, nice - 1, nice);
    expect(result.outcomes).toEqual([
      { applied: true, nice },
      { applied: false, reason: `already at nice ${nice}` },
      { applied: false, reason: `already at nice ${nice}` },
    ]);
    expect(result.nice).toBe(nice);
  });

  it('leaves the thread as it is for 0 and refuses a value outside 0 to 19', () => {
    expect(lowerThreadPriority(0)).toEqual({ applied: false, reason: 'not asked for' });
    expect(() => lowerThreadPriority(20)).toThrow(RangeError);
    expect(() => lowerThreadPriority(-1)).toThrow(RangeError);
    expect(() => lowerThreadPriority(2.5)).toThrow(RangeError);
  });
});
