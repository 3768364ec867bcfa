import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { scriptArgs } from './child-script.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Runs a worker script (a path from the repository root) in a child process
 * (test/helpers/child-script.ts says how), with only `env` besides PATH and HOME, and
 * answers the JSON it prints on stdout: how the tests that race two processes against one
 * database count what each got.
 */
export function runWorker<T>(script: string, env: Record<string, string>, timeoutMs: number): Promise<T> {
  const child = spawn(process.execPath, scriptArgs(script), {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} did not finish\n${stderr}`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(JSON.parse(stdout) as T);
      else reject(new Error(`${script} exited ${code}\n${stderr}`));
    });
  });
}
