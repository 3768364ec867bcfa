import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/** The largest feed the Patron under test takes (PATRON_FEED_MAX_BYTES): 4 MiB. */
const FEED_MAX_BYTES = 4 * 1024 * 1024;

/** The one private address the Patron under test may reach: a spec's local SMTP server. */
export const SMTP_CATCHER_HOST = '127.0.0.2';

/**
 * Starts the built Patron (`node dist/cli.js serve`, what `npm start` runs) on a free port
 * and a fresh database: a new SQLite file, or a new database on the PostgreSQL server of
 * TEST_DATABASE_URL when it is set. The tests read its address and admin token from the
 * environment this sets (Playwright passes it to the workers) and seed through the admin API.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const root = path.resolve(import.meta.dirname, '..', '..');
  for (const built of ['dist/cli.js', 'web/dist/index.html']) {
    if (!fs.existsSync(path.join(root, built))) throw new Error(`${built} is missing: run npm run build before npm run test:browser`);
  }
  const teardown: (() => Promise<void>)[] = [];
  const cleanup = async () => {
    for (const step of teardown.reverse()) await step().catch((error: unknown) => console.error(error));
  };
  try {
    const dataDir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'patron-browser-'));
    teardown.push(() => fs.promises.rm(dataDir, { recursive: true, force: true }));
    const databaseUrl = await freshPostgres(teardown);
    const port = await freePort();
    // The server's clock runs ahead by what this file holds (advanceServerClock in admin-api.ts).
    const clockFile = path.join(dataDir, 'clock-offset');
    await fs.promises.writeFile(clockFile, '0');
    const adminToken = crypto.randomBytes(24).toString('hex');
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PATRON_DATA_DIR: dataDir,
      PATRON_ADMIN_TOKEN: adminToken,
      PATRON_PUBLIC_URL: `http://127.0.0.1:${port}`,
      PATRON_TEST_CLOCK_FILE: clockFile,
      // Every test makes a user and signs in: at a test cost, not a tenth of a second of CPU each.
      PATRON_INSECURE_TEST_PASSWORD_HASHING: 'on',
      LOG_LEVEL: 'warn',
      // No balancer watches it: the teardown's SIGTERM stops it without a drain (docs/shutdown.md).
      PATRON_SHUTDOWN_DRAIN_SECONDS: '0',
      // Small enough that the catalog spec's "too large" feed is quick to make and send.
      PATRON_FEED_MAX_BYTES: String(FEED_MAX_BYTES),
      // The dashboards spec's SMTP catcher listens there; 127.0.0.1 stays refused (the catalog spec's broken picture).
      PATRON_FETCH_ALLOW_PRIVATE: SMTP_CATCHER_HOST,
    };
    delete env.DATABASE_URL;
    if (databaseUrl) env.DATABASE_URL = databaseUrl;
    const child = spawn(process.execPath, ['dist/cli.js', 'serve'], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
    teardown.push(() => stop(child));
    const baseUrl = `http://127.0.0.1:${port}`;
    await waitUntilReady(`${baseUrl}/ready`, child);
    process.env.PATRON_BROWSER_BASE_URL = baseUrl;
    process.env.PATRON_BROWSER_ADMIN_TOKEN = adminToken;
    process.env.PATRON_BROWSER_FEED_MAX_BYTES = String(FEED_MAX_BYTES);
    process.env.PATRON_BROWSER_CLOCK_FILE = clockFile;
    console.log(`Patron for the browser tests at ${baseUrl} on ${databaseUrl ? 'PostgreSQL' : 'SQLite'}`);
  } catch (error) {
    await cleanup();
    throw error;
  }
  return cleanup;
}

async function freshPostgres(teardown: (() => Promise<void>)[]): Promise<string | undefined> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return undefined;
  const name = `patron_browser_${crypto.randomBytes(6).toString('hex')}`;
  await adminQuery(url, `create database "${name}"`);
  teardown.push(() => adminQuery(url, `drop database if exists "${name}" with (force)`));
  // Commits that do not wait for the disk, as the test suite's databases (test/helpers/db.ts):
  // what the browser sees is the same, and nothing here outlives a crash of PostgreSQL.
  await adminQuery(url, `alter database "${name}" set synchronous_commit = off`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  return target.toString();
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitUntilReady(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`patron serve exited with ${child.exitCode} before it was ready`);
    const ok = await fetch(url)
      .then((res) => res.ok)
      .catch(() => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`patron serve was not ready at ${url} within 60 s`);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
