/**
 * What test/global-setup.ts prepares once per run, handed to the test workers in their
 * environment (vitest starts them after the setup ran): test/helpers/db.ts and
 * test/helpers/child-script.ts read it, and do without when it is absent (watch mode, or a
 * helper used outside vitest, as a bench or a script may).
 */
export const PREPARED = {
  /** A SQLite file with every migration applied, which createTestDb copies. */
  sqliteTemplate: 'TEST_SQLITE_TEMPLATE',
  /** A PostgreSQL database with every migration applied, which createTestDb clones. */
  postgresTemplate: 'TEST_POSTGRES_TEMPLATE',
  /** The repository's src and test helpers compiled to JavaScript, for child processes to run. */
  childBuild: 'TEST_CHILD_BUILD',
} as const;
