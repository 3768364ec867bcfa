import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type * as Esbuild from 'esbuild';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createDb } from '../src/db/create-db.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { PREPARED } from './helpers/prepared.js';

/**
 * Once per run, before any test file: the migrated databases that test/helpers/db.ts
 * copies for each createTestDb, instead of running every migration again for each file
 * (on PostgreSQL, `CREATE DATABASE … TEMPLATE`), and the compiled tree that child
 * processes run. The templates are made by the real migrations; the tests of migrations
 * themselves start from freshDbOptions and run them. In watch mode nothing is prepared,
 * so that an edited migration or source is seen on the next rerun.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const teardown: (() => Promise<void>)[] = [];
  for (const name of Object.values(PREPARED)) delete process.env[name];
  if (project.config.watch) return () => Promise.resolve();
  const undo = async (): Promise<void> => {
    for (const name of Object.values(PREPARED)) delete process.env[name];
    for (const step of teardown.reverse()) await step();
  };
  try {
    await prepareTemplates(teardown);
    await prepareChildBuild(project.config.root, teardown);
  } catch (error) {
    await undo();
    throw error;
  }
  return undo;
}

async function prepareTemplates(teardown: (() => Promise<void>)[]): Promise<void> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'patron-template-'));
  teardown.push(() => fs.promises.rm(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'patron.sqlite');
  const sqlite = createDb({ kind: 'sqlite', file });
  try {
    await migrateToLatest(sqlite);
  } finally {
    // Closing the last connection checkpoints the WAL into the file and deletes it: the file alone is the database.
    await sqlite.destroy();
  }
  process.env[PREPARED.sqliteTemplate] = file;

  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    // Named per run: two runs on one server (CI and an engineer) never share or drop each other's.
    const name = `patron_template_${crypto.randomBytes(6).toString('hex')}`;
    await adminQuery(url, `create database "${name}"`);
    teardown.push(() => adminQuery(url, `drop database if exists "${name}" with (force)`));
    // Its migrations commit without waiting for the disk, as the copies do (test/helpers/db.ts).
    await adminQuery(url, `alter database "${name}" set synchronous_commit = off`);
    const target = new URL(url);
    target.pathname = `/${name}`;
    const postgres = createDb({ kind: 'postgres', url: target.toString(), poolSize: 1 });
    try {
      await migrateToLatest(postgres);
    } finally {
      // A template may have no open connection while databases are created from it.
      await postgres.destroy();
    }
    process.env[PREPARED.postgresTemplate] = name;
  }
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

/**
 * The tests that run Patron as a process (`patron serve`, the crash and race tests) start
 * dozens of processes, each of which loaded every module through tsx's loader: a second
 * of CPU or more per process, and per worker thread, on top of Patron's own start. Once
 * per run, the repository's TypeScript is compiled here by the esbuild that tsx uses, with
 * tsx's options, into a tree shaped like the repository (package.json and node_modules
 * beside src/ and test/), and test/helpers/child-script.ts runs the compiled files.
 */
async function prepareChildBuild(root: string, teardown: (() => Promise<void>)[]): Promise<void> {
  const out = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'patron-build-'));
  teardown.push(() => fs.promises.rm(out, { recursive: true, force: true }));
  const entryPoints = ['src', 'test'].flatMap((dir) =>
    fs
      .readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts') && !file.endsWith('.test.ts'))
      .map((file) => path.join(dir, file)),
  );
  const fromTsx = createRequire(createRequire(import.meta.url).resolve('tsx/package.json'));
  const esbuild = fromTsx('esbuild') as typeof Esbuild;
  const tsconfig = JSON.parse(await fs.promises.readFile(path.join(root, 'tsconfig.json'), 'utf8')) as {
    compilerOptions: Record<string, unknown>;
  };
  await esbuild.build({
    absWorkingDir: root,
    entryPoints,
    outdir: out,
    outbase: '.',
    bundle: false,
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node}`,
    sourcemap: 'inline',
    keepNames: true,
    minifyWhitespace: true,
    tsconfigRaw: { compilerOptions: tsconfig.compilerOptions },
    logLevel: 'error',
  });
  // "type": "module" makes the .js files ES modules; src/version.ts reads the version from it.
  await fs.promises.copyFile(path.join(root, 'package.json'), path.join(out, 'package.json'));
  await fs.promises.symlink(path.join(root, 'node_modules'), path.join(out, 'node_modules'), 'dir');
  process.env[PREPARED.childBuild] = out;
}
