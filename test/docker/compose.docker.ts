import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * deploy/compose.yaml for real: the image built from the Dockerfile, PostgreSQL, the
 * one-shot migration, 3 API replicas, 2 workers and HAProxy, then a rolling update of the
 * API under load. Opt-in (`npm run test:docker`, docs/deploy.md): it needs a Docker daemon
 * and takes minutes. PATRON_DOCKER_STANDIN=1 builds stand-ins for the Docker Hub images
 * first (test/docker/standin/build.sh); PATRON_DOCKER_KEEP=1 leaves the stack running.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PROJECT = process.env.PATRON_DOCKER_PROJECT ?? 'patron-docker-test';
const PORT = Number(process.env.PATRON_DOCKER_PORT ?? 18080);
const BASE = `http://127.0.0.1:${PORT}`;
const METRICS_TOKEN = crypto.randomBytes(16).toString('hex');

interface Result {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(command: readonly string[], options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<Result> {
  const [program = '', ...args] = command;
  const child = spawn(program, args, { cwd: ROOT, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command.join(' ')} did not finish in ${options.timeoutMs} ms\n${stdout}\n${stderr}`));
    }, options.timeoutMs ?? 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

async function ok(command: readonly string[], options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<string> {
  const result = await run(command, options);
  if (result.code !== 0) throw new Error(`${command.join(' ')} exited ${result.code}\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** Compose v2 (`docker compose`) where the plugin is installed, else the standalone v1. */
async function composeProgram(): Promise<string[]> {
  const v2 = await run(['docker', 'compose', 'version']).catch(() => undefined);
  return v2?.code === 0 ? ['docker', 'compose'] : ['docker-compose'];
}

let composeBase: string[] = [];
let workDir = '';
let envFile = '';

const compose = (args: readonly string[], timeoutMs?: number): Promise<string> =>
  ok([...composeBase, '-p', PROJECT, '--env-file', envFile, '-f', 'deploy/compose.yaml', ...args], { timeoutMs: timeoutMs ?? 120_000 });
const ids = async (service: string): Promise<string[]> =>
  (await compose(['ps', '-q', service])).split('\n').filter((id) => id.trim() !== '');
const logs = (service: string): Promise<string> => compose(['logs', '--no-color', service]);
const inspect = async (id: string, format: string): Promise<string> => (await ok(['docker', 'inspect', '--format', format, id])).trim();

/** /ready inside one container (the image has node, not curl). */
async function readyInside(id: string): Promise<boolean> {
  const probe = "fetch('http://127.0.0.1:8080/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))";
  return (await run(['docker', 'exec', id, 'node', '-e', probe])).code === 0;
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error(`${what}: not within ${timeoutMs} ms`);
}

/** Patron's JSON log lines of a service, without compose's `name_1 | ` prefixes. */
function logLines(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .map((line) => line.replace(/^[^|{]*\|\s?/, ''))
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

beforeAll(async () => {
  composeBase = await composeProgram();
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'patron-docker-'));
  envFile = path.join(workDir, '.env');
  const lines = [
    `POSTGRES_PASSWORD=${crypto.randomBytes(24).toString('hex')}`,
    `PATRON_SECRET_KEY=${crypto.randomBytes(32).toString('hex')}`,
    `PATRON_METRICS_TOKEN=${METRICS_TOKEN}`,
    `PATRON_HTTP_PORT=${PORT}`,
    `PATRON_PUBLIC_URL=${BASE}`,
  ];
  if (process.env.PATRON_DOCKER_STANDIN === '1') {
    const exports = await ok(['test/docker/standin/build.sh'], { timeoutMs: 30 * 60_000 });
    lines.push(...[...exports.matchAll(/^export (PATRON_[A-Z_]+_IMAGE=\S+)$/gm)].map((m) => m[1] ?? ''));
  }
  fs.writeFileSync(envFile, `${lines.join('\n')}\n`, { mode: 0o600 });
  await compose(['down', '-v', '--remove-orphans']);
  await compose(['up', '-d', '--build'], 40 * 60_000);
  await waitFor('every API replica ready', async () => (await Promise.all((await ids('api')).map(readyInside))).every(Boolean), 5 * 60_000);
  await waitFor('HAProxy answering /ready', async () => (await fetch(`${BASE}/ready`)).status === 200, 60_000);
}, 50 * 60_000);

afterAll(async () => {
  if (process.env.PATRON_DOCKER_KEEP !== '1' && envFile !== '') await compose(['down', '-v', '--remove-orphans'], 300_000);
  if (workDir !== '') fs.rmSync(workDir, { recursive: true, force: true });
}, 300_000);

describe('deploy/compose.yaml', () => {
  it('migrates once, in the one-shot service, before any API replica or worker starts', async () => {
    const [migrate] = await compose(['ps', '-a', '-q', 'migrate']).then((out) => out.split('\n').filter(Boolean));
    expect(await inspect(migrate ?? '', '{{.State.ExitCode}}')).toBe('0');
    expect(await logs('migrate')).toMatch(/Applied \d+ migration\(s\) to PostgreSQL/);
    const finished = Date.parse(await inspect(migrate ?? '', '{{.State.FinishedAt}}'));
    for (const service of ['api', 'worker']) {
      for (const id of await ids(service)) {
        expect(Date.parse(await inspect(id, '{{.State.StartedAt}}')), service).toBeGreaterThanOrEqual(finished);
      }
      // Each found the schema up to date and applied nothing.
      expect(logLines(await logs(service)).filter((l) => l.msg === 'Applied database migrations')).toEqual([]);
    }
  });

  it('runs 3 API replicas and 2 workers, and HAProxy sends requests to each replica in turn', async () => {
    expect(await ids('api')).toHaveLength(3);
    expect(await ids('worker')).toHaveLength(2);
    expect(logLines(await logs('worker')).filter((l) => l.msg === 'Job worker started')).toHaveLength(2);
    const probe = crypto.randomBytes(6).toString('hex');
    for (let i = 0; i < 12; i++) expect((await fetch(`${BASE}/health?probe=${probe}-${i}`)).status).toBe(200);
    const servers = (await logs('haproxy'))
      .split('\n')
      .filter((line) => line.includes(`probe=${probe}-`))
      .map((line) => / patron\/(\S+) /.exec(line)?.[1]);
    expect(servers).toHaveLength(12);
    expect(new Set(servers).size).toBe(3);
  });

  it("gives Patron the client's address through HAProxy, not HAProxy's nor a forged one", async () => {
    const probe = crypto.randomBytes(6).toString('hex');
    const response = await fetch(`${BASE}/health?probe=${probe}`, { headers: { 'x-forwarded-for': '203.0.113.7' } });
    expect(response.status).toBe(200);
    const proxied = (await logs('haproxy')).split('\n').find((line) => line.includes(`probe=${probe}`)) ?? '';
    const client = /\|\s*([0-9.]+):\d+ \[/.exec(proxied)?.[1];
    expect(client).toBeDefined();
    const seen = logLines(await logs('api')).find((l) => (l.req as { url?: string } | undefined)?.url === `/health?probe=${probe}`);
    expect((seen?.req as { remoteAddress?: string } | undefined)?.remoteAddress).toBe(client);
    expect(client).not.toBe('203.0.113.7');
  });

  it('serves the admin UI and the API document from the image', async () => {
    const ui = await fetch(`${BASE}/admin/`);
    expect(ui.status).toBe(200);
    expect(ui.headers.get('content-type')).toContain('text/html');
    expect(await ui.text()).toContain('/admin/assets/');
    const openapi = await fetch(`${BASE}/docs/json`);
    expect(openapi.status).toBe(200);
    expect(((await openapi.json()) as { openapi?: string }).openapi).toMatch(/^3\./);
  });

  it('prints the first start once among the replicas that started together', async () => {
    const text = await logs('api');
    expect(text.match(/Admin token \(shown only this once/g)).toHaveLength(1);
    expect(text.match(/\/admin\/invite\//g)).toHaveLength(1);
  });

  it('runs jobs on the workers (the API replicas serve with --no-worker), counted in /metrics', async () => {
    expect((await fetch(`${BASE}/metrics`)).status).toBe(401);
    await waitFor(
      'a job done',
      async () => {
        const text = await (await fetch(`${BASE}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
        return Number(/^patron_jobs\{state="done"\} (\d+)$/m.exec(text)?.[1] ?? 0) > 0;
      },
      120_000,
    );
  });

  it('replaces the API replicas one at a time under load without a failed request', async () => {
    const token = /Admin token \(shown only this once[^\n]*\n[^\n]*?([A-Za-z0-9_-]{32,})/.exec(await logs('api'))?.[1];
    expect(token).toBeDefined();
    const before = await ids('api');
    const statuses = new Map<string, number>();
    let loading = true;
    const load = async (): Promise<void> => {
      while (loading) {
        let key: string;
        try {
          const response = await fetch(`${BASE}/admin/v1/shops`, { headers: { authorization: `Bearer ${token}` } });
          await response.arrayBuffer();
          key = String(response.status);
        } catch (error) {
          key = `error: ${(error as Error).message}`;
        }
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
      }
    };
    const loaders = [load(), load(), load(), load()];
    let update: Result;
    try {
      update = await run(['deploy/rolling-update.sh', 'api'], {
        env: {
          ...process.env,
          COMPOSE: `${composeBase.join(' ')} --env-file ${envFile}`,
          COMPOSE_PROJECT_NAME: PROJECT,
          COMPOSE_FILE: 'deploy/compose.yaml',
        },
        timeoutMs: 15 * 60_000,
      });
    } finally {
      loading = false;
      await Promise.all(loaders);
    }
    expect(update.code, update.stderr).toBe(0);
    expect(update.stdout.match(/^replaced \S+ \(exit 0\) with \S+$/gm)).toHaveLength(3);
    const after = await ids('api');
    expect(after).toHaveLength(3);
    expect(after.filter((id) => before.includes(id))).toEqual([]);
    expect([...statuses.keys()]).toEqual(['200']);
    expect(statuses.get('200')).toBeGreaterThan(100);
  });
});
