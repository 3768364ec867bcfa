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
  /** undefined: generated on first start and stored hashed. */
  readonly adminToken: string | undefined;
  readonly logLevel: LogLevel;
  /** Largest accepted request body, in bytes. */
  readonly bodyLimit: number;
  /** How many jobs one worker process runs at once. */
  readonly workerConcurrency: number;
  /** How long a job's claim lasts without a heartbeat, in ms: a killed worker's job is taken over after it. */
  readonly jobLeaseMs: number;
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
}

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

type Env = Readonly<Record<string, string | undefined>>;

function readInt(
  env: Env,
  name: string,
  fallback: number,
  min: number,
  max: number,
  problems: string[],
): number {
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
  const entries = raw.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
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

export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): Config {
  const problems: string[] = [];

  const port = readInt(env, 'PORT', 8080, 0, 65535, problems);
  const host = env.HOST?.trim() || '0.0.0.0';

  const dataDirRaw = env.PATRON_DATA_DIR?.trim() || './data';
  const dataDir = path.resolve(cwd, dataDirRaw);

  let databaseUrl: string | undefined;
  const dbRaw = env.DATABASE_URL?.trim();
  if (dbRaw) {
    if (!/^postgres(ql)?:\/\//.test(dbRaw)) {
      problems.push('DATABASE_URL must start with postgres:// or postgresql:// (leave it unset for SQLite)');
    } else {
      try {
        new URL(dbRaw);
        databaseUrl = dbRaw;
      } catch {
        problems.push('DATABASE_URL is not a valid URL');
      }
    }
  }

  let adminToken: string | undefined;
  const tokenRaw = env.PATRON_ADMIN_TOKEN;
  if (tokenRaw !== undefined && tokenRaw !== '') {
    if (tokenRaw.length < 16 || /\s/.test(tokenRaw)) {
      problems.push('PATRON_ADMIN_TOKEN must be at least 16 characters with no white space');
    } else {
      adminToken = tokenRaw;
    }
  }

  let logLevel: LogLevel = 'info';
  const levelRaw = env.LOG_LEVEL?.trim().toLowerCase();
  if (levelRaw) {
    if ((LOG_LEVELS as readonly string[]).includes(levelRaw)) logLevel = levelRaw as LogLevel;
    else problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}"`);
  }

  const bodyLimit = readInt(env, 'PATRON_BODY_LIMIT', 10 * 1024 * 1024, 1024, 1024 * 1024 * 1024, problems);
  const workerConcurrency = readInt(env, 'PATRON_WORKER_CONCURRENCY', 4, 1, 256, problems);
  const jobLeaseSeconds = readInt(env, 'PATRON_JOB_LEASE_SECONDS', 10, 2, 3600, problems);
  const feedMaxBytes = readInt(env, 'PATRON_FEED_MAX_BYTES', 1024 * 1024 * 1024, 1024, 64 * 1024 * 1024 * 1024, problems);
  const fetchAllowPrivate = readAllowPrivate(env, problems);
  const publicUrl = readPublicUrl(env, port, problems);
  const productCacheMb = readInt(env, 'PATRON_PRODUCT_CACHE_MB', 64, 0, 64 * 1024, problems);

  if (problems.length > 0) throw new ConfigError(problems);

  return Object.freeze({
    port,
    host,
    dataDir,
    databaseUrl,
    adminToken,
    logLevel,
    bodyLimit,
    workerConcurrency,
    jobLeaseMs: jobLeaseSeconds * 1000,
    feedMaxBytes,
    fetchAllowPrivate,
    publicUrl,
    productCacheBytes: productCacheMb * 1024 * 1024,
  });
}
