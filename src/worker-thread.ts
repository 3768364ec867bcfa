import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A worker thread running the module `entry` (a path without extension, relative to
 * `callerUrl`, the caller's import.meta.url). Built, that is the `.js` file. Run from src
 * through tsx (npm run dev, the tests), a worker does not inherit tsx's loader, so the
 * thread registers it before it loads the `.ts` file.
 */
export function startWorker(callerUrl: string, entry: string, options: WorkerOptions): Worker {
  if (!callerUrl.endsWith('.ts')) return new Worker(new URL(`${entry}.js`, callerUrl), options);
  const source = new URL(`${entry}.ts`, callerUrl).href;
  const boot = `import(${JSON.stringify(tsxLoaderUrl())}).then(({ register }) => { register(); return import(${JSON.stringify(source)}); })`;
  return new Worker(boot, { ...options, eval: true });
}

/**
 * tsx's ESM loader API. Under vitest, modules have no import.meta.resolve, and require.resolve
 * finds the CommonJS twin, which cannot register the loader: the ESM entry is read from
 * tsx's package exports.
 */
function tsxLoaderUrl(): string {
  if (typeof import.meta.resolve === 'function') return import.meta.resolve('tsx/esm/api');
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  const entry = exports['./esm/api']?.import.default;
  if (!entry) throw new Error('tsx/esm/api is not found');
  return pathToFileURL(path.join(path.dirname(manifest), entry)).href;
}
