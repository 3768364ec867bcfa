import type { Migration } from 'kysely';
import type { Dialect } from '../dialect.js';
import { core } from './0001-core.js';

/**
 * Every migration, in order. Names sort lexically; never rename or edit a landed one.
 * Each entry is a factory so a migration can ask db/dialect.ts for the few
 * dialect-specific column types.
 */
const MIGRATIONS: ReadonlyArray<readonly [string, (dialect: Dialect) => Migration]> = [
  ['0001-core', core],
];

export function listMigrations(dialect: Dialect): Record<string, Migration> {
  return Object.fromEntries(MIGRATIONS.map(([name, make]) => [name, make(dialect)]));
}
