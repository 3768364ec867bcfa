import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/**
 * A Patron cluster on this machine, built from the parts a deployment uses: `patron serve
 * --no-worker` API processes and `patron worker` processes (the built dist/cli.js, as
 * production runs it) on one fresh PostgreSQL database, behind HAProxy (Debian's
 * package: round robin, health checks on /ready) and optionally through pgbouncer in
 * transaction pooling mode. The cluster test (cluster.test.ts) and the cluster bench
 * (bench/cluster.bench.ts) drive it; every node can be killed, stopped and started again.
 */

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = path.join(ROOT, 'dist/cli.js');
export const HAPROXY = '/usr/sbin/haproxy';
export const PGBOUNCER = '/usr/sbin/pgbouncer';

/** Debian's PostgreSQL binaries (initdb, pg_ctl): the newest installed version. */
function postgresBin(): string | undefined {
  const base = '/usr/lib/postgresql';
  if (!fs.existsSync(base)) return undefined;
  const versions = fs
    .readdirSync(base)
    .filter((v) => fs.existsSync(path.join(base, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : path.join(base, versions[0], 'bin');
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

async function adminQuery(serverUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** Where a missing part can be had: the test and the bench say so rather than fail obscurely. */
export function missingParts(options: { pgbouncer: boolean }): string[] {
  const missing: string[] = [];
  if (!fs.existsSync(HAPROXY)) missing.push(`${HAPROXY} (apt-get install haproxy)`);
  if (options.pgbouncer && !fs.existsSync(PGBOUNCER)) missing.push(`${PGBOUNCER} (apt-get install pgbouncer)`);
  if (!fs.existsSync(CLI)) missing.push(`${CLI} (npm run build)`);
  if (postgresBin() === undefined) missing.push('/usr/lib/postgresql/<version>/bin/initdb (apt-get install postgresql)');
  return missing;
}

/** One long-running child process: a Patron node, HAProxy or pgbouncer. */
export class Child {
  private out = '';
  private exitCode: number | null | undefined;
  private readonly exited: Promise<number | null>;

  constructor(
    readonly name: string,
    private readonly child: ChildProcess,
  ) {
    const keep = (chunk: Buffer): void => {
      this.out = (this.out + chunk.toString()).slice(-20_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.exited = new Promise((resolve) =>
      child.on('close', (code, signal) => {
        this.exitCode = code ?? (signal ? -1 : null);
        resolve(this.exitCode);
      }),
    );
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  get running(): boolean {
    return this.exitCode === undefined;
  }

  output(): string {
    return this.out;
  }

  signal(signal: NodeJS.Signals): void {
    if (this.running) this.child.kill(signal);
  }

  /** Resolves with the exit code (-1 after a signal), or rejects after the timeout (and kills it). */
  async exit(timeoutMs = 30_000): Promise<number | null> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        this.child.kill('SIGKILL');
        reject(new Error(`${this.name} did not exit within ${timeoutMs} ms:\n${this.out.slice(-3000)}`));
      }, timeoutMs);
    });
    try {
      return await Promise.race([this.exited, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async untilExited(): Promise<number | null> {
    return this.exited;
  }
}

export interface ClusterOptions {
  readonly apiNodes: number;
  readonly workers: number;
  /** The nodes reach PostgreSQL through a pgbouncer in transaction pooling mode. */
  readonly pgbouncer: boolean;
  readonly adminToken: string;
  /** More environment for every node. */
  readonly env?: Record<string, string>;
}

export type NodeKind = 'api' | 'worker';

/** A Patron process of the cluster, which keeps its port (API) across restarts. */
export class PatronNode {
  process: Child | undefined;
  /** Times this node was started. */
  starts = 0;

  constructor(
    readonly cluster: Cluster,
    readonly kind: NodeKind,
    readonly index: number,
    readonly port: number,
  ) {}

  get name(): string {
    return `${this.kind}${this.index + 1}`;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts the process and waits until it serves (API: /ready answers 200; worker: it says it runs). */
  async start(timeoutMs = 120_000): Promise<void> {
    if (this.process?.running) throw new Error(`${this.name} is running`);
    const args = this.kind === 'api' ? ['serve', '--no-worker'] : ['worker'];
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: ROOT,
      env: this.cluster.nodeEnv(this),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.process = new Child(this.name, child);
    this.starts += 1;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (!this.process.running) throw new Error(`${this.name} exited before serving:\n${this.process.output().slice(-4000)}`);
      if (this.kind === 'api') {
        const ok = await fetch(`${this.baseUrl}/ready`).then(
          (r) => r.status === 200,
          () => false,
        );
        if (ok) return;
      } else if (/"msg":"Job worker started"/.test(this.process.output())) return;
      if (Date.now() > deadline)
        throw new Error(`${this.name} did not come up within ${timeoutMs} ms:\n${this.process.output().slice(-4000)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** kill -9: no drain, no goodbye. */
  async kill(): Promise<void> {
    this.process?.signal('SIGKILL');
    await this.process?.exit();
  }

  /** SIGTERM and the graceful exit (the drain, then the close); resolves with the exit code. */
  async stop(timeoutMs = 60_000): Promise<number | null> {
    if (!this.process?.running) return this.process ? this.process.untilExited() : null;
    this.process.signal('SIGTERM');
    return this.process.exit(timeoutMs);
  }
}

/**
 * A PostgreSQL server of the cluster's own (initdb into a temp folder, on a free port),
 * so that the test may stop and restart it under load without touching the machine's
 * server or anyone else's databases on it. It runs as the `postgres` user when started
 * as root (PostgreSQL refuses root).
 */
export class PostgresServer {
  readonly port: number;
  private constructor(
    private readonly bin: string,
    private readonly dataDir: string,
    port: number,
  ) {
    this.port = port;
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  /** Runs a PostgreSQL program (asynchronously: the test's clients go on sending meanwhile). */
  private static async run(bin: string, args: readonly string[]): Promise<void> {
    const asRoot = process.getuid?.() === 0;
    const command = asRoot ? 'runuser' : bin;
    const rest = asRoot ? ['-u', 'postgres', '--', bin, ...args] : [...args];
    const child = spawn(command, rest, { cwd: '/', stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', resolve);
    });
    if (code !== 0) throw new Error(`${[command, ...rest].join(' ')} exited ${code}:\n${out}`);
  }

  static async start(dir: string): Promise<PostgresServer> {
    const bin = postgresBin();
    if (!bin) throw new Error('no PostgreSQL binaries under /usr/lib/postgresql');
    const dataDir = path.join(dir, 'postgres');
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    fs.chmodSync(dir, 0o755);
    if (process.getuid?.() === 0) execFileSync('chown', ['-R', 'postgres:postgres', dataDir]);
    await PostgresServer.run(path.join(bin, 'initdb'), [
      '-D',
      dataDir,
      '-U',
      'postgres',
      '--auth=trust',
      '--no-sync',
      '-E',
      'UTF8',
      '--locale=C',
    ]);
    const server = new PostgresServer(bin, dataDir, await freePort());
    await server.startServer();
    return server;
  }

  private async startServer(): Promise<void> {
    const options = `-p ${this.port} -k ${this.dataDir} -c listen_addresses=127.0.0.1 -c max_connections=300`;
    await PostgresServer.run(path.join(this.bin, 'pg_ctl'), [
      '-D',
      this.dataDir,
      '-o',
      options,
      '-l',
      path.join(this.dataDir, 'log'),
      '-w',
      'start',
    ]);
  }

  /** A fast restart (the connected sessions are cut), as an operator's restart or a failover would. */
  async restart(): Promise<void> {
    await PostgresServer.run(path.join(this.bin, 'pg_ctl'), ['-D', this.dataDir, '-m', 'fast', '-w', 'stop']);
    await this.startServer();
  }

  async stop(): Promise<void> {
    await PostgresServer.run(path.join(this.bin, 'pg_ctl'), ['-D', this.dataDir, '-m', 'immediate', '-w', 'stop']);
  }
}

/**
 * The cluster: a PostgreSQL server of its own with one database, optionally pgbouncer,
 * the nodes and HAProxy in front of the API nodes. `url` is HAProxy's address, where
 * clients send their requests.
 */
export class Cluster {
  readonly api: PatronNode[] = [];
  readonly workers: PatronNode[] = [];
  readonly secretKey = crypto.randomBytes(32).toString('hex');
  private readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patron-cluster-'));
  private haproxy: Child | undefined;
  private pgbouncer: Child | undefined;
  private haproxyPort = 0;
  private pgbouncerPort = 0;
  private postgresServer: PostgresServer | undefined;
  readonly databaseName = `patron_cluster_${crypto.randomBytes(6).toString('hex')}`;

  private constructor(readonly options: ClusterOptions) {}

  get postgres(): PostgresServer {
    if (!this.postgresServer) throw new Error('the cluster has no PostgreSQL server');
    return this.postgresServer;
  }

  /** The database's own URL (direct to PostgreSQL), for the test's checks. */
  get databaseUrl(): string {
    return `postgres://postgres@127.0.0.1:${this.postgres.port}/${this.databaseName}`;
  }

  get url(): string {
    return `http://127.0.0.1:${this.haproxyPort}`;
  }

  /** The URL the nodes use: direct, or through pgbouncer. */
  get nodeDatabaseUrl(): string {
    if (!this.options.pgbouncer) return this.databaseUrl;
    return `postgres://postgres@127.0.0.1:${this.pgbouncerPort}/${this.databaseName}`;
  }

  static async start(options: ClusterOptions): Promise<Cluster> {
    const missing = missingParts(options);
    if (missing.length > 0) throw new Error(`The cluster needs: ${missing.join(', ')}`);
    const cluster = new Cluster(options);
    try {
      cluster.postgresServer = await PostgresServer.start(cluster.dir);
      await adminQuery(cluster.postgres.url, `create database "${cluster.databaseName}"`);
      if (options.pgbouncer) await cluster.startPgbouncer();
      for (let i = 0; i < options.apiNodes; i += 1) cluster.api.push(new PatronNode(cluster, 'api', i, await freePort()));
      for (let i = 0; i < options.workers; i += 1) cluster.workers.push(new PatronNode(cluster, 'worker', i, 0));
      // Every node at once against the empty database: the migrations run once (docs/scaling.md).
      await Promise.all([...cluster.api, ...cluster.workers].map((node) => node.start()));
      await cluster.startHaproxy();
      return cluster;
    } catch (error) {
      await cluster.close();
      throw error;
    }
  }

  nodeEnv(node: PatronNode): NodeJS.ProcessEnv {
    return {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      PORT: String(node.port || 0),
      DATABASE_URL: this.nodeDatabaseUrl,
      PATRON_SECRET_KEY: this.secretKey,
      PATRON_ADMIN_TOKEN: this.options.adminToken,
      // The load comes from one address (HAProxy's): the abuse limits would measure themselves.
      PATRON_RATE_LIMIT: 'off',
      // The SMTP peer and the feed server listen on the loopback interface.
      PATRON_FETCH_ALLOW_PRIVATE: '127.0.0.1',
      PATRON_TRUST_PROXY: '127.0.0.1',
      // HAProxy below checks /ready every 500 ms and takes a node out after 2 failures.
      PATRON_SHUTDOWN_DRAIN_SECONDS: '3',
      PATRON_DATA_DIR: path.join(this.dir, node.name),
      ...this.options.env,
      // A worker is known to run by its "Job worker started" line (start() waits for it).
      ...(node.kind === 'worker' && { LOG_LEVEL: 'info' }),
    };
  }

  private async startPgbouncer(): Promise<void> {
    this.pgbouncerPort = await freePort();
    const dir = path.join(this.dir, 'pgbouncer');
    fs.mkdirSync(dir, { recursive: true });
    const server = new URL(this.postgres.url);
    fs.writeFileSync(path.join(dir, 'userlist.txt'), '"postgres" ""\n');
    fs.writeFileSync(
      path.join(dir, 'pgbouncer.ini'),
      [
        '[databases]',
        `* = host=${server.hostname} port=${server.port || 5432}`,
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${this.pgbouncerPort}`,
        'unix_socket_dir =',
        'auth_type = trust',
        `auth_file = ${path.join(dir, 'userlist.txt')}`,
        'pool_mode = transaction',
        'default_pool_size = 40',
        'max_client_conn = 1000',
        'ignore_startup_parameters = extra_float_digits,options,statement_timeout',
        'server_reset_query =',
        '',
      ].join('\n'),
    );
    fs.chmodSync(this.dir, 0o755);
    fs.chmodSync(dir, 0o755);
    // pgbouncer refuses to run as root: as root, it is told to become postgres.
    const args = [...(process.getuid?.() === 0 ? ['-u', 'postgres'] : []), path.join(dir, 'pgbouncer.ini')];
    this.pgbouncer = new Child('pgbouncer', spawn(PGBOUNCER, args, { stdio: ['ignore', 'pipe', 'pipe'] }));
    await this.waitForPort(this.pgbouncerPort, this.pgbouncer);
  }

  private haproxyConfig(): string {
    const servers = this.api.map((node) => `    server ${node.name} 127.0.0.1:${node.port} check`);
    return [
      'global',
      '    maxconn 4096',
      'defaults',
      '    mode http',
      '    timeout connect 2s',
      '    timeout client 60s',
      '    timeout server 60s',
      '    option forwardfor',
      // A request whose connection to a node failed (a node killed or stopping) goes to another.
      '    retries 3',
      '    option redispatch',
      '    retry-on conn-failure empty-response',
      'frontend patron',
      `    bind 127.0.0.1:${this.haproxyPort}`,
      '    default_backend nodes',
      'backend nodes',
      '    balance roundrobin',
      '    option httpchk GET /ready?scope=node',
      '    http-check expect status 200',
      '    default-server inter 500ms fall 2 rise 2',
      '    timeout check 2s',
      ...servers,
      '',
    ].join('\n');
  }

  private async startHaproxy(): Promise<void> {
    this.haproxyPort = await freePort();
    const file = path.join(this.dir, 'haproxy.cfg');
    fs.writeFileSync(file, this.haproxyConfig());
    this.haproxy = new Child('haproxy', spawn(HAPROXY, ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] }));
    await this.waitForPort(this.haproxyPort, this.haproxy);
    // Until its first health checks pass, HAProxy takes every node as up: wait for one answer through it.
    const deadline = Date.now() + 15_000;
    for (;;) {
      const ok = await fetch(`${this.url}/ready`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) return;
      if (Date.now() > deadline) throw new Error(`HAProxy did not forward within 15 s:\n${this.haproxy.output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  private async waitForPort(port: number, child: Child): Promise<void> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      if (!child.running) throw new Error(`${child.name} exited:\n${child.output()}`);
      const open = await new Promise<boolean>((resolve) => {
        const socket = net.connect(port, '127.0.0.1');
        socket.once('connect', () => {
          socket.destroy();
          resolve(true);
        });
        socket.once('error', () => resolve(false));
      });
      if (open) return;
      if (Date.now() > deadline) throw new Error(`${child.name} did not listen on ${port} within 15 s:\n${child.output()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** A direct client of the cluster's database, for the test's checks (the caller ends it). */
  async client(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.databaseUrl });
    // A restart of the server cuts it: the test makes a new one afterwards.
    client.on('error', () => undefined);
    await client.connect();
    return client;
  }

  /** The output of every process, for a failure's message. */
  outputs(): string {
    const all = [...this.api, ...this.workers].map((n) => `--- ${n.name} ---\n${n.process?.output().slice(-3000) ?? ''}`);
    if (this.haproxy) all.push(`--- haproxy ---\n${this.haproxy.output().slice(-2000)}`);
    if (this.pgbouncer) all.push(`--- pgbouncer ---\n${this.pgbouncer.output().slice(-2000)}`);
    return all.join('\n');
  }

  async close(): Promise<void> {
    await Promise.all([...this.api, ...this.workers].map((node) => node.kill().catch(() => undefined)));
    for (const child of [this.haproxy, this.pgbouncer]) {
      child?.signal('SIGKILL');
      await child?.exit().catch(() => undefined);
    }
    await this.postgresServer?.stop().catch(() => undefined);
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
