import path from 'node:path';
import { createPostgresHandle } from './postgres/connection.js';
import { createSqliteHandle } from './sqlite/connection.js';
import type { DbOptions, DbHandle } from './handle.js';

export type { DbHandle, DbOptions, SqliteStorage } from './handle.js';

export function dbOptionsFromConfig(config: { databaseUrl: string | undefined; dataDir: string }): DbOptions {
  return config.databaseUrl
    ? { kind: 'postgres', url: config.databaseUrl }
    : { kind: 'sqlite', file: path.join(config.dataDir, 'patron.sqlite') };
}

export function createDb(options: DbOptions): DbHandle {
  return options.kind === 'sqlite' ? createSqliteHandle(options) : createPostgresHandle(options);
}
