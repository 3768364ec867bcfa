import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { createDb, type DbOptions } from '../../src/db/create-db.js';
import { parseCommand, USAGE } from '../../src/process/cli-args.js';
import { createServices, type Services } from '../../src/services.js';
import { freshDbOptions, removeDatabase, TEST_DIALECTS } from '../helpers/db.js';
import { databaseEnv, runCli, type Env } from './cli-harness.js';

describe('patron user: parsing', () => {
  it('reads user create and user reset-password', () => {
    expect(parseCommand(['user', 'create', '--email', 'a@example.org', '--role', 'marketer'])).toEqual({
      kind: 'user-create',
      email: 'a@example.org',
      role: 'marketer',
      shops: null,
    });
    const shop = 'a'.repeat(30);
    expect(parseCommand(['user', 'create', '--email', 'a@example.org', '--role', 'analyst', '--shops', `${shop}, ${shop}`])).toMatchObject({
      shops: [shop, shop],
    });
    expect(parseCommand(['user', 'reset-password', '--email', 'a@example.org'])).toEqual({
      kind: 'user-reset-password',
      email: 'a@example.org',
    });
  });

  it('refuses a missing email, an unknown role and malformed shops', () => {
    expect(() => parseCommand(['user', 'create', '--role', 'owner'])).toThrow(/--email/);
    expect(() => parseCommand(['user', 'create', '--email', 'a@example.org', '--role', 'boss'])).toThrow(
      /--role owner\|admin\|marketer\|analyst/,
    );
    expect(() => parseCommand(['user', 'create', '--email', 'a@example.org', '--role', 'admin', '--shops', 'x'])).toThrow(/--shops/);
    expect(() => parseCommand(['user', 'reset-password'])).toThrow(/--email/);
  });

  it('is in the help', () => {
    expect(USAGE).toContain('user create --email <email> --role owner|admin|marketer|analyst');
    expect(USAGE).toContain('user reset-password --email <email>');
  });
});

describe.each(TEST_DIALECTS)('patron user commands on %s', (dialect) => {
  let db: DbOptions;
  let env: Env;
  beforeAll(async () => {
    db = await freshDbOptions(dialect);
    env = { ...databaseEnv(db), PATRON_PUBLIC_URL: 'https://patron.example.org' };
  });
  afterAll(async () => {
    await removeDatabase(db);
  });

  async function withServices<T>(use: (services: Services) => Promise<T>): Promise<T> {
    const handle = createDb(db);
    try {
      return await use(createServices({ config: loadConfig({ LOG_LEVEL: 'silent' }), db: handle, clock: new ManualClock(Date.now()) }));
    } finally {
      await handle.destroy();
    }
  }

  const linkOf = (stdout: string) => /^ {2}https:\/\/patron\.example\.org\/admin\/invite\/([\w-]{43})$/m.exec(stdout)?.[1];

  it('user create prints a one-time invitation link for the role', async () => {
    const result = await runCli(['user', 'create', '--email', 'Owner@Example.org', '--role', 'owner'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Invited Owner@Example.org as owner.');
    const token = linkOf(result.stdout);
    expect(token).toBeDefined();
    await withServices(async (services) => {
      expect(await services.adminSessions.readInvitation(token!)).toEqual({ email: 'Owner@Example.org', role: 'owner' });
    });
    const again = await runCli(['user', 'create', '--email', 'owner@example.org', '--role', 'admin'], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('A user with this email exists.');
  }, 60_000);

  it('user reset-password signs the user out and prints a new link', async () => {
    const created = await runCli(['user', 'create', '--email', 'marketer@example.org', '--role', 'marketer'], env);
    const first = linkOf(created.stdout)!;
    const sessionId = await withServices(async (services) => {
      const started = await services.adminSessions.acceptInvitation(
        first,
        { password: 'correct horse battery' },
        { ip: null, userAgent: null },
      );
      return started!.sessionId;
    });
    const reset = await runCli(['user', 'reset-password', '--email', 'MARKETER@example.org'], env);
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stdout).toContain('Signed marketer@example.org out of every session.');
    const next = linkOf(reset.stdout);
    expect(next).toBeDefined();
    await withServices(async (services) => {
      expect(await services.adminSessions.findLiveSession(sessionId)).toBeUndefined();
      expect(await services.adminSessions.readInvitation(next!)).toEqual({ email: 'marketer@example.org', role: 'marketer' });
    });
  }, 60_000);

  it('user reset-password of an unknown email fails with exit code 1', async () => {
    const result = await runCli(['user', 'reset-password', '--email', 'nobody@example.org'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('No admin user has the email nobody@example.org.');
  }, 60_000);
});
