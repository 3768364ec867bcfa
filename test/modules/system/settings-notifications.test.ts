import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { ManualClock } from '../../../src/clock.js';
import { createDb, type DbHandle } from '../../../src/db/create-db.js';
import { Late } from '../../../src/late.js';
import { LISTENER_APPLICATION_NAME, SettingsNotifications } from '../../../src/modules/system/settings-notifications.js';
import { SettingsVersion } from '../../../src/modules/system/settings-version.js';
import { createTestDb, TEST_DIALECTS, type TestDb } from '../../helpers/db.js';
import { waitFor } from '../../helpers/wait.js';

/**
 * An admin change reaches the caches of another process as it commits (docs/settings-caches.md):
 * two holders of the settings version on two connections to one PostgreSQL database, the
 * second listening as the HTTP thread of `patron serve` does.
 */
describe.skipIf(!TEST_DIALECTS.includes('postgres'))('SettingsNotifications on PostgreSQL', () => {
  let db: TestDb;
  let otherDb: DbHandle;
  let notifications: SettingsNotifications;
  const clock = new ManualClock();
  const logged: { level: string; facts: object; message: string }[] = [];
  const log = {
    info: (facts: object, message: string) => logged.push({ level: 'info', facts, message }),
    warn: (facts: object, message: string) => logged.push({ level: 'warn', facts, message }),
  };
  const there = { drops: 0, versionReads: 0 };
  const here = () => new SettingsVersion({ db, clock, listeners: Late.of([]) });

  beforeAll(async () => {
    db = await createTestDb('postgres');
    otherDb = createDb(db.options);
    // Counts the reads of the settings version through the listening holder's connection.
    const select = otherDb.db.selectFrom.bind(otherDb.db);
    otherDb.db.selectFrom = ((...args: Parameters<typeof select>) => {
      there.versionReads += 1;
      return select(...args);
    }) as typeof select;
    const version = new SettingsVersion({ db: otherDb, clock, listeners: Late.of([() => void (there.drops += 1)]) });
    const url = db.options.kind === 'postgres' ? db.options.url : '';
    notifications = new SettingsNotifications({ settings: version, clock, url, timing: { backoffMs: 20, maxBackoffMs: 200 } });
    await notifications.start(log);
  });
  afterAll(async () => {
    await notifications.close();
    await otherDb.destroy();
    await db.cleanup();
  });

  it('drops every cache once connected, and logs that it listens', () => {
    expect(there.drops).toBe(1);
    expect(notifications.stats()).toEqual({ connected: true, connections: 1, notifications: 0 });
    expect(logged.map((entry) => entry.message)).toEqual(['Listening for admin changes made through the other processes']);
  });

  it("drops the caches when another holder's change commits, without reading the version", async () => {
    const before = there.drops;
    await here().bump();
    await waitFor(() => there.drops === before + 1, { what: 'the change to be heard' });
    expect(there.versionReads).toBe(0);
    expect(notifications.stats()?.notifications).toBe(1);
  });

  it('drops every cache when its connection comes back after the backend was terminated, and logs the outage without the URL', async () => {
    const before = there.drops;
    await sql`select pg_terminate_backend(pid) from pg_stat_activity
              where datname = current_database() and application_name like ${`${LISTENER_APPLICATION_NAME}:%`}`.execute(db.db);
    await waitFor(() => notifications.stats()?.connections === 2, { what: 'the listener to reconnect' });
    expect(there.drops).toBe(before + 1);
    const warning = logged.find((entry) => entry.level === 'warn');
    expect(warning?.message).toContain('PATRON_DATABASE_LISTEN_URL');
    expect(JSON.stringify(logged)).not.toContain(db.options.kind === 'postgres' ? db.options.url : '-');
    expect(logged.at(-1)?.message).toBe('Listening for admin changes again');

    await here().bump();
    await waitFor(() => there.drops === before + 2, { what: 'a change heard on the new connection' });
  });
});
