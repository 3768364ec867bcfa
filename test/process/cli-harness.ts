import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DbOptions } from '../../src/db/create-db.js';
import { scriptArgs } from '../helpers/child-script.js';

/**
 * Runs the real `patron` command (src/cli.ts, test/helpers/child-script.ts says how) in a
 * child process with a clean environment: only what a test passes, never the caller's
 * PATRON_* or DATABASE_URL.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export type Env = Record<string, string>;

/** The environment that points a process at a test database. */
export function databaseEnv(options: DbOptions): Env {
  if (options.kind === 'sqlite') return { PATRON_DATA_DIR: path.dirname(options.file) };
  return { DATABASE_URL: options.url };
}

function childEnv(env: Env): NodeJS.ProcessEnv {
  // No drain before a shutdown (docs/shutdown.md) unless a test asks for one: no balancer watches these.
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'info', PATRON_SHUTDOWN_DRAIN_SECONDS: '0', ...env };
}

function spawnCli(args: readonly string[], env: Env): ChildProcess {
  return spawn(process.execPath, [...scriptArgs('src/cli.ts'), ...args], {
    cwd: ROOT,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a one-shot command to completion (bounded). */
export function runCli(args: readonly string[], env: Env, timeoutMs = 30_000): Promise<CliResult> {
  const child = spawnCli(args, env);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`patron ${args.join(' ')} did not finish in ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A long-running `patron serve` or `patron worker`. */
export class CliProcess {
  private out = '';
  private err = '';
  private readonly exited: Promise<number | null>;

  constructor(private readonly child: ChildProcess) {
    child.stdout?.on('data', (chunk: Buffer) => (this.out += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (this.err += chunk.toString()));
    this.exited = new Promise((resolve) => child.on('close', (code) => resolve(code)));
  }

  static start(args: readonly string[], env: Env): CliProcess {
    return new CliProcess(spawnCli(args, env));
  }

  get stdout(): string {
    return this.out;
  }

  /** The process id: `patron serve` names its settings listener's connection after it. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  get stderr(): string {
    return this.err;
  }

  /** Polls the output until `test` matches it (bounded); fails early if the process exits. */
  async waitForOutput(test: RegExp, timeoutMs = 30_000): Promise<RegExpExecArray> {
    const deadline = Date.now() + timeoutMs;
    let exited = false;
    void this.exited.then(() => (exited = true));
    for (;;) {
      const match = test.exec(this.out);
      if (match) return match;
      if (exited) throw new Error(`The process exited before printing ${test}\n${this.out}\n${this.err}`);
      if (Date.now() > deadline) throw new Error(`No ${test} within ${timeoutMs} ms\n${this.out}\n${this.err}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Waits for the "Patron is listening" log line, then until /health answers; returns the base URL. */
  async waitUntilServing(timeoutMs = 30_000): Promise<string> {
    const match = await this.waitForOutput(/"url":"(http:\/\/[^"]+)"[^\n]*"msg":"Patron is listening"/, timeoutMs);
    const baseUrl = match[1]!;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const ok = await fetch(`${baseUrl}/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return baseUrl;
      if (Date.now() > deadline) throw new Error(`${baseUrl}/health did not answer within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  signal(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  /** Resolves with the exit code, or rejects after the timeout (and kills the process). */
  async exit(timeoutMs = 30_000): Promise<number | null> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        this.child.kill('SIGKILL');
        reject(new Error(`The process did not exit within ${timeoutMs} ms\n${this.out}\n${this.err}`));
      }, timeoutMs);
    });
    try {
      return await Promise.race([this.exited, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** For afterAll: makes sure nothing outlives the test file. */
  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}
