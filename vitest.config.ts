import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

// web/src holds the admin UI's unit tests (pure helpers); its browser tests are test/browser/*.spec.ts (Playwright).
const WORKERS = os.availableParallelism() + 1;

const INCLUDE = ['src/**/*.test.ts', 'test/**/*.test.ts', 'web/src/**/*.test.ts'];

export default defineConfig({
  test: {
    include: process.env.TEST_DIALECT === 'postgres' ? databaseTestFiles() : INCLUDE,
    // The cluster test runs on its own (npm run test:cluster, vitest.cluster.config.ts).
    exclude: ['**/node_modules/**', 'test/cluster/**'],
    environment: 'node',
    // Once per run: the migrated template databases that each createTestDb copies, and the
    // compiled tree that the tests' child processes run (test/global-setup.ts).
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one on a 2-core CI machine, which
    // leaves a core idle while a test file waits on a child process, a socket or PostgreSQL.
    // One more worker than cores keeps both busy through those waits (the SQLite pass on
    // 2 cores: 186 s against 217 s with 2 workers). The pool never shrinks (minWorkers =
    // maxWorkers): a worker retired as idle while Vitest handed it a file fails that file's
    // task with tinypool's "Terminating worker thread" (vitest-dev/vitest#8564), which the
    // run reports as an unhandled rejection.
    maxWorkers: WORKERS,
    minWorkers: WORKERS,
    // A worker keeps its imported modules from one test file to the next: importing the app's
    // module graph again for every file took more of CI's time than the tests themselves.
    // Each file still builds its own database, services and app (test/helpers), so no state
    // is shared through the modules; a spy is restored by the test that made it.
    isolate: false,
    testTimeout: 20_000,
    hookTimeout: 30_000,
    reporters: ['default'],
  },
});

/**
 * CI's PostgreSQL pass (TEST_DIALECT=postgres) runs only the test files that can reach
 * PostgreSQL: those that import test/helpers/db.ts and take their databases from its
 * dialect matrix, TEST_DIALECTS (named in the file or in a test file it imports). The rest
 * (pure domain, parsers, providers against local peers, and the route and process tests
 * that make a SQLite database whatever the matrix says) ran in the SQLite pass and would
 * run identically again: 30 such files took 113 s of the pass's 915 s of file time.
 */
function databaseTestFiles(): string[] {
  const root = path.resolve('test');
  const dbHelper = path.join(root, 'helpers', 'db.ts');
  const importsOf = new Map<string, string[]>();
  const relativeImports = (file: string): string[] => {
    let list = importsOf.get(file);
    if (list) return list;
    const text = fs.readFileSync(file, 'utf8');
    list = [...text.matchAll(/from\s+'(\.{1,2}\/[^']+)'/g)]
      .map((m) => path.resolve(path.dirname(file), (m[1] ?? '').replace(/\.js$/, '.ts')))
      .filter((p) => p.startsWith(root) && fs.existsSync(p));
    importsOf.set(file, list);
    return list;
  };
  const reachesPostgres = (file: string): boolean => {
    const seen = new Set<string>();
    const stack = [file];
    let db = false;
    let matrix = false;
    while (stack.length > 0) {
      const next = stack.pop() as string;
      if (seen.has(next)) continue;
      seen.add(next);
      if (next === dbHelper) db = true;
      else if (fs.readFileSync(next, 'utf8').includes('TEST_DIALECTS')) matrix = true;
      if (db && matrix) return true;
      stack.push(...relativeImports(next));
    }
    return false;
  };
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (full !== path.join(root, 'cluster')) walk(full);
      } else if (entry.name.endsWith('.test.ts') && reachesPostgres(full)) files.push(path.relative(process.cwd(), full));
    }
  };
  walk(root);
  return files;
}
