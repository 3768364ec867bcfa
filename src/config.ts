import path from 'node:path';
import { parseAddressRange } from './net/ip-ranges.js';

/**
 * The only module that reads process.env. Everything else receives a frozen Config.
 * Validation collects every bad variable before failing, so an operator fixes them
 * all in one go instead of one restart per typo.
 */

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  /** undefined: embedded SQLite file in dataDir; otherwise a postgres:// URL. */
  readonly databaseUrl: string | undefined;
  /** Where admin changes are heard (modules/system/settings-notifications.ts): PATRON_DATABASE_LISTEN_URL, else DATABASE_URL. */
  readonly databaseListenUrl: string | undefined;
  /** undefined: generated on first start and stored hashed. */
  readonly adminToken: string | undefined;
  /**
   * PATRON_METRICS_TOKEN: when set, /metrics answers whoever presents it as a Bearer
   * token, from any address; undefined: /metrics answers loopback clients only.
   */
  readonly metricsToken: string | undefined;
  /**
   * PATRON_SECRET_KEY: the AES-256 key (64 hex characters or 32 bytes in base64) that
   * seals messaging provider secrets at rest. undefined: the key file in dataDir is used,
   * generated on first need (modules/messaging/secret-box.ts).
   */
  readonly secretKey: string | undefined;
  readonly logLevel: LogLevel;
  /** Largest accepted request body, in bytes. */
  readonly bodyLimit: number;
  /** How many jobs one worker process runs at once. */
  readonly workerConcurrency: number;
  /** Message deliveries one worker process sends at once, in slots of their own beside workerConcurrency. */
  readonly deliveryConcurrency: number;
  /** The nice value of `patron serve`'s job thread: 0 (the default) leaves it as the HTTP thread; higher puts requests first on busy cores (README). */
  readonly jobThreadNice: number;
  /**
   * PATRON_TEST_CLOCK_FILE: for tests only, a file holding milliseconds that the server's
   * clock runs ahead of the system's (clock.ts, OffsetFileClock). undefined: the system clock.
   */
  readonly testClockFile: string | undefined;
  /**
   * PATRON_INSECURE_TEST_PASSWORD_HASHING=on: for test runs only, admin users' passwords are
   * hashed at a cost some 32 times lower (modules/admin-users/passwords.ts), cheap to guess
   * from a stolen hash. Off by default; a hash made so is made again at full cost when its
   * user signs in to a server without it.
   */
  readonly insecureTestPasswordHashing: boolean;
  /** PATRON_SHUTDOWN_DRAIN_SECONDS in ms: serving on after SIGTERM with /ready at 503 (docs/shutdown.md). */
  readonly shutdownDrainMs: number;
  /** How long a job's claim lasts without a heartbeat, in ms: a killed worker's job is taken over after it. */
  readonly jobLeaseMs: number;
  /**
   * How long a running feed import counts as alive without a heartbeat, in ms: the job
   * lease (PATRON_JOB_LEASE_SECONDS), so that a killed catalog.fetch job and its import
   * are free at about the same time. The import beats every eighth of it; the longest
   * stall between beats of a 100,000-offer import is measured in docs/catalog-import.md.
   */
  readonly importLeaseMs: number;
  /** Largest product feed accepted (admin API upload, CLI, scheduled fetch), in bytes. */
  readonly feedMaxBytes: number;
  /**
   * Which non-public addresses outbound fetches (feeds, pictures) may reach
   * (net/safe-fetch.ts): none (false), all (true), or these addresses and CIDR ranges.
   */
  readonly fetchAllowPrivate: boolean | readonly string[];
  /** This server's base URL as clients reach it, without a trailing slash (absolute picture links). */
  readonly publicUrl: string;
  /** Memory for GET /products/get answers kept by one process, in bytes (0: none kept). */
  readonly productCacheBytes: number;
  /** Bounds on slow clients and open connections (src/http/connection-limits.ts, docs/limits.md). */
  readonly connections: ConnectionLimitsConfig;
  /** Per-address and per-shop request limits (src/http/limits/, docs/limits.md). */
  readonly rateLimit: RateLimitConfig;
  /**
   * Proxies whose X-Forwarded-For is believed (addresses and CIDR ranges); false: the
   * client address is the socket's, and X-Forwarded-For is ignored.
   */
  readonly trustProxy: false | readonly string[];
  /**
   * How long after a click on a message a purchase counts for that message
   * (PATRON_MESSAGE_ATTRIBUTION_DAYS, default 7; docs/messaging.md "Tracking"), in ms.
   */
  readonly messageAttributionMs: number;
  /** What rendering a template may cost (docs/messaging-templates.md, "Rendering limits"). */
  readonly render: RenderConfig;
  /** The audit log of admin changes (docs/audit-log.md). */
  readonly auditLog: AuditLogConfig;
  /** How long an admin UI sign-in lasts (docs/admin-users.md, "Sessions"). */
  readonly adminSessions: AdminSessionConfig;
  /**
   * PATRON_DASHBOARD_ROLLUPS=off keeps no daily rollups (default on; docs/dashboards.md):
   * for a benchmark's baseline, not for production, as the dashboards then miss what is written.
   */
  readonly dashboardRollups: boolean;
}

export interface AuditLogConfig {
  /** PATRON_AUDIT_LOG=off records nothing (default on): for a benchmark's baseline, not for production. */
  readonly enabled: boolean;
  /** How many days an entry is kept (PATRON_AUDIT_RETENTION_DAYS, default 365). */
  readonly retentionDays: number;
}

export interface AdminSessionConfig {
  /** Without a request for this long, a session ends (PATRON_ADMIN_SESSION_IDLE_MINUTES, default 12 h). */
  readonly idleMs: number;
  /** A session ends this long after sign-in, however used (PATRON_ADMIN_SESSION_MAX_HOURS, default 7 days). */
  readonly absoluteMs: number;
}

export interface RenderConfig {
  /** The longest one render of a channel's template may take, in ms (PATRON_RENDER_LIMIT_MS). */
  readonly limitMs: number;
  /** Render time a shop may take a second in one thread, in ms (PATRON_RENDER_BUDGET_MS). */
  readonly budgetMsPerSecond: number;
}

export interface ConnectionLimitsConfig {
  /** Time for a client to send a request's headers, from the connection (or the request's first byte). */
  readonly headersTimeoutMs: number;
  /** Longest pause while a request body arrives, between two chunks. */
  readonly bodyIdleTimeoutMs: number;
  /** Time for a whole request (headers and body) to arrive; 0: no total deadline. */
  readonly requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open. */
  readonly keepAliveTimeoutMs: number;
  /** Open connections one process accepts; further ones are closed at once. */
  readonly maxConnections: number;
}

export interface RateLimitConfig {
  /** false: PATRON_RATE_LIMIT=off, no limit applies. */
  readonly enabled: boolean;
  /** Requests a second from one client address (the bucket holds one second's worth). */
  readonly addressPerSecond: number;
  /** Public requests a second for one shop. */
  readonly shopPerSecond: number;
  /** Devices GET /init may create a minute for one client address. */
  readonly devicesPerMinute: number;
  /** Wrong shop secrets (or wrong admin tokens) one address may send within the window. */
  readonly authFailures: number;
  readonly authFailureWindowSeconds: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

type Env = Readonly<Record<string, string | undefined>>;

function readInt(env: Env, name: string, fallback: number, min: number, max: number, problems: string[]): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw.trim());
  if (!Number.isInteger(value) || value < min || value > max) {
    problems.push(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
    return fallback;
  }
  return value;
}

/** `true`/`false`, or a comma-separated list of addresses and CIDR ranges. */
function readAllowPrivate(env: Env, problems: string[]): boolean | readonly string[] {
  const name = 'PATRON_FETCH_ALLOW_PRIVATE';
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '' || ['0', 'false', 'no', 'off'].includes(raw)) return false;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0 || entries.some((entry) => parseAddressRange(entry) === undefined)) {
    problems.push(`${name} must be true, false or a comma-separated list of addresses and CIDR ranges, got "${env[name]}"`);
    return false;
  }
  return Object.freeze(entries);
}

/** An http(s) base URL with no query or fragment; a path prefix (behind a proxy) is kept. */
function readPublicUrl(env: Env, port: number, problems: string[]): string {
  const fallback = `http://127.0.0.1:${port}`;
  const raw = env.PATRON_PUBLIC_URL?.trim();
  if (!raw) return fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    problems.push(`PATRON_PUBLIC_URL is not a valid URL, got "${raw}"`);
    return fallback;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '' || url.hash !== '' || url.username !== '') {
    problems.push(`PATRON_PUBLIC_URL must be an http:// or https:// URL without credentials, query or fragment, got "${raw}"`);
    return fallback;
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/** A 256-bit key as 64 hex characters or base64 (standard or url-safe); normalised to hex. */
function readSecretKey(env: Env, problems: string[]): string | undefined {
  const raw = env.PATRON_SECRET_KEY?.trim();
  if (!raw) return undefined;
  if (/^[0-9a-fA-F]{64}$/.test(raw)) return raw.toLowerCase();
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(raw)) {
    const bytes = Buffer.from(raw.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (bytes.length === 32) return bytes.toString('hex');
  }
  problems.push('PATRON_SECRET_KEY must be 32 bytes: 64 hexadecimal characters or 44 characters of base64');
  return undefined;
}

export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): Config {
  const problems: string[] = [];

  const port = readInt(env, 'PORT', 8080, 0, 65535, problems);
  const host = env.HOST?.trim() || '0.0.0.0';

  const dataDirRaw = env.PATRON_DATA_DIR?.trim() || './data';
  const dataDir = path.resolve(cwd, dataDirRaw);

  const databaseUrl = readPostgresUrl(env, 'DATABASE_URL', ' (leave it unset for SQLite)', problems);
  const listenUrl = readPostgresUrl(env, 'PATRON_DATABASE_LISTEN_URL', '', problems);
  if (listenUrl && !env.DATABASE_URL?.trim()) problems.push('PATRON_DATABASE_LISTEN_URL is for PostgreSQL: set DATABASE_URL too');

  let adminToken: string | undefined;
  const tokenRaw = env.PATRON_ADMIN_TOKEN;
  if (tokenRaw !== undefined && tokenRaw !== '') {
    if (tokenRaw.length < 16 || /\s/.test(tokenRaw)) {
      problems.push('PATRON_ADMIN_TOKEN must be at least 16 characters with no white space');
    } else {
      adminToken = tokenRaw;
    }
  }

  const metricsToken = readToken(env, 'PATRON_METRICS_TOKEN', problems);
  const secretKey = readSecretKey(env, problems);

  let logLevel: LogLevel = 'info';
  const levelRaw = env.LOG_LEVEL?.trim().toLowerCase();
  if (levelRaw) {
    if ((LOG_LEVELS as readonly string[]).includes(levelRaw)) logLevel = levelRaw as LogLevel;
    else problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}"`);
  }

  const bodyLimit = readInt(env, 'PATRON_BODY_LIMIT', 10 * 1024 * 1024, 1024, 1024 * 1024 * 1024, problems);
  const workerConcurrency = readInt(env, 'PATRON_WORKER_CONCURRENCY', 4, 1, 256, problems);
  const deliveryConcurrency = readInt(env, 'PATRON_DELIVERY_CONCURRENCY', 32, 1, 256, problems);
  const jobThreadNice = readInt(env, 'PATRON_JOB_THREAD_NICE', 0, 0, 19, problems);
  const jobLeaseSeconds = readInt(env, 'PATRON_JOB_LEASE_SECONDS', 10, 2, 3600, problems);
  const shutdownDrainSeconds = readInt(env, 'PATRON_SHUTDOWN_DRAIN_SECONDS', 5, 0, 600, problems);
  const feedMaxBytes = readInt(env, 'PATRON_FEED_MAX_BYTES', 1024 * 1024 * 1024, 1024, 64 * 1024 * 1024 * 1024, problems);
  const fetchAllowPrivate = readAllowPrivate(env, problems);
  const insecureTestPasswordHashing = readSwitch(env, 'PATRON_INSECURE_TEST_PASSWORD_HASHING', false, problems);
  const testClockFile = env.PATRON_TEST_CLOCK_FILE?.trim() ? path.resolve(cwd, env.PATRON_TEST_CLOCK_FILE.trim()) : undefined;
  const publicUrl = readPublicUrl(env, port, problems);
  const productCacheMb = readInt(env, 'PATRON_PRODUCT_CACHE_MB', 64, 0, 64 * 1024, problems);

  const connections = readConnectionLimits(env, problems);
  const rateLimit = readRateLimit(env, problems);
  const trustProxy = readTrustProxy(env, problems);
  const attributionDays = readInt(env, 'PATRON_MESSAGE_ATTRIBUTION_DAYS', 7, 0, 365, problems);
  const render: RenderConfig = {
    limitMs: readInt(env, 'PATRON_RENDER_LIMIT_MS', 500, 10, 10_000, problems),
    budgetMsPerSecond: readInt(env, 'PATRON_RENDER_BUDGET_MS', 500, 10, 1_000, problems),
  };
  const adminSessions: AdminSessionConfig = Object.freeze({
    idleMs: readInt(env, 'PATRON_ADMIN_SESSION_IDLE_MINUTES', 12 * 60, 5, 30 * 24 * 60, problems) * 60_000,
    absoluteMs: readInt(env, 'PATRON_ADMIN_SESSION_MAX_HOURS', 7 * 24, 1, 365 * 24, problems) * 3_600_000,
  });

  const auditLog: AuditLogConfig = {
    enabled: readSwitch(env, 'PATRON_AUDIT_LOG', true, problems),
    retentionDays: readInt(env, 'PATRON_AUDIT_RETENTION_DAYS', 365, 1, 36_500, problems),
  };

  if (problems.length > 0) throw new ConfigError(problems);

  return Object.freeze({
    port,
    host,
    dataDir,
    databaseUrl,
    databaseListenUrl: databaseUrl === undefined ? undefined : (listenUrl ?? databaseUrl),
    adminToken,
    metricsToken,
    secretKey,
    logLevel,
    bodyLimit,
    workerConcurrency,
    deliveryConcurrency,
    jobThreadNice,
    testClockFile,
    insecureTestPasswordHashing,
    shutdownDrainMs: shutdownDrainSeconds * 1000,
    jobLeaseMs: jobLeaseSeconds * 1000,
    importLeaseMs: jobLeaseSeconds * 1000,
    feedMaxBytes,
    fetchAllowPrivate,
    publicUrl,
    productCacheBytes: productCacheMb * 1024 * 1024,
    connections,
    rateLimit,
    trustProxy,
    messageAttributionMs: attributionDays * 24 * 60 * 60 * 1000,
    render,
    auditLog,
    adminSessions,
    dashboardRollups: readSwitch(env, 'PATRON_DASHBOARD_ROLLUPS', true, problems),
  });
}

/** A postgres:// URL, or undefined when unset; `hint` ends the message of one that is not. */
function readPostgresUrl(env: Env, name: string, hint: string, problems: string[]): string | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  if (!/^postgres(ql)?:\/\//.test(raw)) problems.push(`${name} must start with postgres:// or postgresql://${hint}`);
  else if (URL.canParse(raw)) return raw;
  else problems.push(`${name} is not a valid URL`);
  return undefined;
}

/** on/off (true/false, 1/0, yes/no); `fallback` when unset. */
function readSwitch(env: Env, name: string, fallback: boolean, problems: string[]): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['on', 'true', '1', 'yes'].includes(raw)) return true;
  if (['off', 'false', '0', 'no'].includes(raw)) return false;
  problems.push(`${name} must be on or off, got "${env[name]}"`);
  return fallback;
}

/** A token an operator sets (16 characters or more, no white space); undefined when unset. */
function readToken(env: Env, name: string, problems: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (raw.length < 16 || /\s/.test(raw)) {
    problems.push(`${name} must be at least 16 characters with no white space`);
    return undefined;
  }
  return raw;
}

/** docs/limits.md gives the reasons for these defaults. */
function readConnectionLimits(env: Env, problems: string[]): ConnectionLimitsConfig {
  const hour = 60 * 60 * 1000;
  const headersTimeoutMs = readInt(env, 'PATRON_HEADERS_TIMEOUT_MS', 20_000, 100, hour, problems);
  const bodyIdleTimeoutMs = readInt(env, 'PATRON_BODY_IDLE_TIMEOUT_MS', 30_000, 100, hour, problems);
  const requestTimeoutMs = readInt(env, 'PATRON_REQUEST_TIMEOUT_MS', 30 * 60 * 1000, 0, 24 * hour, problems);
  const keepAliveTimeoutMs = readInt(env, 'PATRON_KEEP_ALIVE_TIMEOUT_MS', 72_000, 100, hour, problems);
  const maxConnections = readInt(env, 'PATRON_MAX_CONNECTIONS', 10_000, 1, 1_000_000, problems);
  // Node refuses a headers timeout longer than the request's (the headers are part of it).
  if (requestTimeoutMs > 0 && requestTimeoutMs < headersTimeoutMs) {
    problems.push('PATRON_REQUEST_TIMEOUT_MS must be 0 or at least PATRON_HEADERS_TIMEOUT_MS');
  }
  return Object.freeze({ headersTimeoutMs, bodyIdleTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs, maxConnections });
}

function readRateLimit(env: Env, problems: string[]): RateLimitConfig {
  const name = 'PATRON_RATE_LIMIT';
  const switchRaw = env[name]?.trim().toLowerCase();
  let enabled = true;
  if (switchRaw === 'off' || switchRaw === 'false' || switchRaw === '0') enabled = false;
  else if (switchRaw !== undefined && switchRaw !== '' && !['on', 'true', '1'].includes(switchRaw)) {
    problems.push(`${name} must be on or off, got "${env[name]}"`);
  }
  return Object.freeze({
    enabled,
    addressPerSecond: readInt(env, 'PATRON_RATE_LIMIT_ADDRESS', 20_000, 1, 10_000_000, problems),
    shopPerSecond: readInt(env, 'PATRON_RATE_LIMIT_SHOP', 50_000, 1, 10_000_000, problems),
    devicesPerMinute: readInt(env, 'PATRON_RATE_LIMIT_DEVICES', 300, 1, 10_000_000, problems),
    authFailures: readInt(env, 'PATRON_RATE_LIMIT_AUTH_FAILURES', 20, 1, 1_000_000, problems),
    authFailureWindowSeconds: readInt(env, 'PATRON_RATE_LIMIT_AUTH_WINDOW_SECONDS', 300, 1, 24 * 60 * 60, problems),
  });
}

/** A comma-separated list of proxy addresses and CIDR ranges; unset: no proxy is trusted. */
function readTrustProxy(env: Env, problems: string[]): false | readonly string[] {
  const name = 'PATRON_TRUST_PROXY';
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return false;
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0 || entries.some((entry) => parseAddressRange(entry) === undefined)) {
    problems.push(`${name} must be a comma-separated list of proxy addresses and CIDR ranges, got "${raw}"`);
    return false;
  }
  return Object.freeze(entries);
}
