import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { scriptArgs } from '../helpers/child-script.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * A crash test's server process (messaging-crash-server.ts): started with its
 * environment, its URL once it prints `LISTENING <url>`, and killed with SIGKILL.
 */
export class CrashServer {
  readonly url: Promise<string>;
  private readonly exited: Promise<void>;
  constructor(readonly child: ChildProcess) {
    let out = '';
    let err = '';
    child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
    this.url = new Promise((resolve, reject) => {
      child.stdout?.on('data', (c: Buffer) => {
        out += c.toString();
        const match = /LISTENING (\S+)/.exec(out);
        if (match?.[1]) resolve(match[1]);
      });
      child.on('close', (code) => reject(new Error(`server exited ${code}\n${err}`)));
    });
    this.exited = new Promise((resolve) => child.on('close', () => resolve()));
  }
  static start(env: Record<string, string>): CrashServer {
    const child = spawn(process.execPath, scriptArgs('test/crash/messaging-crash-server.ts'), {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new CrashServer(child);
  }
  async kill(): Promise<void> {
    this.child.kill('SIGKILL');
    await this.exited;
  }
}
