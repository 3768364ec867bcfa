import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Server processes under load: the real `patron serve` and the bare Fastify ceiling
 * (bare-app.ts), each in a child process so that both are measured alike, with the
 * client in this process.
 *
 * Patron runs as `npm start` runs it in production: `node dist/cli.js serve`, built
 * afresh from src/ once per bench run (about 10 s), so that an edit is always measured.
 * Not through tsx: its loader and source maps cost memory in every process (a peak RSS
 * under /push load a third higher or more than built) and a few per cent of CPU per
 * request, none of which production pays.
 */

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = path.join(ROOT, 'dist/cli.js');
const BARE_APP = path.join(ROOT, 'bench/lib/bare-app.ts');

let built: Promise<void> | undefined;

/** Builds dist/ from src/ (tsconfig.build.json), once per bench process. */
export function buildPatron(): Promise<void> {
  built ??= new Promise<void>((resolve, reject) => {
    const tsc = spawn(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    tsc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    tsc.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    tsc.on('error', reject);
    tsc.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`Building dist/ failed (tsc exited ${code}):\n${out}`))));
  });
  return built;
}

export interface ServerProcess {
  readonly pid: number;
  readonly baseUrl: string;
  /** SIGTERM and wait for a graceful exit (bounded); resolves with the exit code. */
  stop(timeoutMs?: number): Promise<number | null>;
  /** The last lines the process printed, for error messages. */
  output(): string;
}

/** A port that was free a moment ago, on the loopback interface. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/**
 * The environment of `--limits on`: the shipped abuse limits at work, with the per-address,
 * per-shop and new-device ceilings raised past what one load client can send, so that a
 * run measures what the bookkeeping costs each request rather than its refusals.
 */
export function benchLimitsEnv(mode: string | undefined): Record<string, string> {
  if (mode === undefined || mode === 'off') return {};
  if (mode !== 'on') throw new Error('--limits must be on or off');
  const ceiling = '10000000';
  return {
    PATRON_RATE_LIMIT: 'on',
    PATRON_RATE_LIMIT_ADDRESS: ceiling,
    PATRON_RATE_LIMIT_SHOP: ceiling,
    PATRON_RATE_LIMIT_DEVICES: ceiling,
  };
}

/** `patron serve` (built) on the database the environment names (PATRON_DATA_DIR or DATABASE_URL). */
export async function startPatron(
  env: Record<string, string>,
  extraNodeArgs: readonly string[] = [],
  serveArgs: readonly string[] = [],
): Promise<ServerProcess> {
  await buildPatron();
  const port = await freePort();
  const child = spawn(process.execPath, [...extraNodeArgs, CLI, 'serve', ...serveArgs], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      // A benchmark is one client address sending as fast as it can: measure Patron, not its limits.
      PATRON_RATE_LIMIT: 'off',
      PORT: String(port),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return ready(child, `http://127.0.0.1:${port}`, '/health');
}

/** The ceiling: Fastify parsing the same JSON body and answering `{"status":"success"}`. */
export async function startBare(env: Record<string, string> = {}): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', BARE_APP], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return ready(child, `http://127.0.0.1:${port}`, '/health');
}

async function ready(child: ChildProcess, baseUrl: string, probe: string, timeoutMs = 30_000): Promise<ServerProcess> {
  let out = '';
  const keep = (chunk: Buffer): void => {
    out = (out + chunk.toString()).slice(-8000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      exitCode = code;
      resolve(code);
    }),
  );
  const pid = child.pid;
  if (pid === undefined) throw new Error('the server process did not start');

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exitCode !== undefined) throw new Error(`The server exited with ${exitCode} before serving:\n${out}`);
    const ok = await fetch(`${baseUrl}${probe}`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${baseUrl}${probe} did not answer within ${timeoutMs} ms:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  return {
    pid,
    baseUrl,
    output: () => out,
    async stop(stopTimeoutMs = 30_000) {
      if (exitCode !== undefined) return exitCode;
      child.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<null>((resolve) => {
        timer = setTimeout(() => {
          child.kill('SIGKILL');
          resolve(null);
        }, stopTimeoutMs);
      });
      try {
        return await Promise.race([exited, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
