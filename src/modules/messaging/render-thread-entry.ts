import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import type { RenderReply, RenderTask, RenderThreadData } from './render-pool.js';
import { firstLine, isMjml, loadMjml, TemplateEngine } from './template-engine.js';

/**
 * The render thread (render-pool.ts says why): one task at a time from the thread that
 * started it, answered with the result or the template's error in words, and the time
 * the render took.
 */

if (!parentPort) throw new Error('render-thread-entry runs in a worker thread');
const port = parentPort;
const engine = new TemplateEngine((workerData as RenderThreadData).limitMs);

port.on('message', ({ id, task }: { id: number; task: RenderTask }) => {
  // mjml loads at its first use, which is no template's doing: the task's time starts after it.
  if (task.kind === 'mjml' || (task.kind === 'channel' && task.channel === 'email' && isMjml(task.set.email?.html ?? ''))) loadMjml();
  post({ id, started: true });
  const started = performance.now();
  const rendered =
    task.kind === 'channel'
      ? engine.renderChannel(task.set, task.channel, task.scope, () => post({ id, phase: 'mjml' }))
      : engine.compileMjml(task.source);
  rendered.then(
    (value) => post({ id, ok: true, value, elapsedMs: performance.now() - started }),
    (error: unknown) => post({ id, ok: false, message: firstLine(error), elapsedMs: performance.now() - started }),
  );
});

function post(reply: RenderReply): void {
  port.postMessage(reply);
}
