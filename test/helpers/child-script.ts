import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PREPARED } from './prepared.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The node arguments that run one of the repository's TypeScript files (a path from the
 * repository root) in a child process: its compiled twin from the run's build
 * (test/global-setup.ts), with source maps so that a stack names the .ts lines, or the
 * source itself through tsx when there is no build (watch mode, where sources change).
 */
export function scriptArgs(file: string): string[] {
  const build = process.env[PREPARED.childBuild];
  if (build) return ['--enable-source-maps', path.join(build, file.replace(/\.ts$/, '.js'))];
  return ['--import', 'tsx', path.join(ROOT, file)];
}
