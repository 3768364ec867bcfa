import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import type { RenderReply, RenderTask, RenderThreadData } from './render-pool.js';
import { FieldRenderError, firstLine, isMjml, loadMjml, TemplateEngine, type MjmlProblem } from './template-engine.js';

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
  let mjmlProblems: readonly MjmlProblem[] = [];
  const rendered: Promise<unknown> =
    task.kind === 'channel'
      ? engine.renderChannel(
          task.set,
          task.channel,
          task.scope,
          () => post({ id, phase: 'mjml' }),
          (problems) => {
            mjmlProblems = problems;
          },
        )
      : engine.compileMjml(task.source);
  const diagnose = task.kind === 'channel' && task.diagnose === true;
  rendered.then(
    (value) => post({ id, ok: true, value: diagnose ? { rendered: value, mjmlProblems } : value, elapsedMs: performance.now() - started }),
    (error: unknown) =>
      post({
        id,
        ok: false,
        message: firstLine(error),
        ...(error instanceof FieldRenderError && { field: error.field }),
        elapsedMs: performance.now() - started,
      }),
  );
});

function post(reply: RenderReply): void {
  port.postMessage(reply);
}
