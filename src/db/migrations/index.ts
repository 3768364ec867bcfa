import type { Migration } from 'kysely';
import type { Dialect } from '../dialect.js';
import { core } from './0001-core.js';
import { jobs } from './0002-jobs.js';
import { identity } from './0003-identity.js';
import { tracking } from './0004-tracking.js';
import { catalog } from './0005-catalog.js';

/**
 * Every migration, in order. Names sort lexically; never rename or edit a landed one.
 * Each entry is a factory so a migration can ask db/dialect.ts for the few
 * dialect-specific column types.
 */
const MIGRATIONS: ReadonlyArray<readonly [string, (dialect: Dialect) => Migration]> = [
  ['0001-core', core],
  ['0002-jobs', jobs],
  ['0003-identity', identity],
  ['0004-tracking', tracking],
  ['0005-catalog', catalog],
];

export function listMigrations(dialect: Dialect): Record<string, Migration> {
  return Object.fromEntries(MIGRATIONS.map(([name, make]) => [name, make(dialect)]));
}
