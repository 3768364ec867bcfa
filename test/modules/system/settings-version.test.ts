import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { createDb, type DbHandle } from '../../../src/db/create-db.js';
import { Late } from '../../../src/late.js';
import { SettingsVersion, type SettingsListener } from '../../../src/modules/system/settings-version.js';
import { createTestDb, TEST_DIALECTS, type TestDb } from '../../helpers/db.js';

/** The settings version (docs/settings-caches.md) between two holders on one database. */
describe.each(TEST_DIALECTS)('SettingsVersion on %s', (dialect) => {
  let db: TestDb;
  let otherDb: DbHandle;
  const clock = new ManualClock();

  beforeAll(async () => {
    db = await createTestDb(dialect);
    otherDb = createDb(db.options);
  });
  afterAll(async () => {
    await otherDb.destroy();
    await db.cleanup();
  });

  function holder(handle: DbHandle) {
    const seen = { changes: 0 };
    const listeners = [
      () => {
        seen.changes += 1;
      },
    ];
    const version = new SettingsVersion({ db: handle, clock, listeners: Late.of(listeners) });
    return { version, seen };
  }

  /** SQLite's reads of one event-loop turn share a snapshot (db/sqlite-lock.ts): another holder reads at a later turn. */
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

  it('tells a holder of a bump made elsewhere at its next refresh, once, and its own bump at once', async () => {
    const here = holder(db);
    const there = holder(otherDb);
    await there.version.refresh();
    const first = there.seen.changes;
    await there.version.refresh();
    expect(there.seen.changes).toBe(first);

    const before = here.seen.changes;
    await here.version.bump();
    expect(here.seen.changes).toBe(before + 1);
    expect(there.seen.changes).toBe(first);
    await nextTurn();
    await there.version.refresh();
    expect(there.seen.changes).toBe(first + 1);
    await there.version.refresh();
    expect(there.seen.changes).toBe(first + 1);
  });

  it('answers a refresh asked for during a read with a read of its own, which sees what changed meanwhile', async () => {
    const here = holder(db);
    const listeners: SettingsListener[] = [];
    const there = new SettingsVersion({ db: otherDb, clock, listeners: Late.of(listeners) });
    await there.refresh();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const tokens: number[] = [];
    listeners.push(async () => {
      tokens.push(tokens.length);
      if (tokens.length === 1) await gate;
    });
    await here.version.bump();
    await nextTurn();
    const early = there.refresh();
    // The early read has seen the first bump once its listener runs (and waits at the gate);
    // a fixed number of turns was not enough for a PostgreSQL read under CI's load.
    await vi.waitFor(() => expect(tokens).toEqual([0]));
    await here.version.bump();
    await nextTurn();
    const late = there.refresh();
    release();
    await Promise.all([early, late]);
    expect(tokens).toEqual([0, 1]);
  });

  it('shares one read among the refreshes asked for while another runs', async () => {
    const there = holder(otherDb);
    await there.version.refresh();
    let reads = 0;
    const select = otherDb.db.selectFrom.bind(otherDb.db);
    otherDb.db.selectFrom = ((...args: Parameters<typeof select>) => {
      reads += 1;
      return select(...args);
    }) as typeof select;
    try {
      await Promise.all(Array.from({ length: 50 }, () => there.version.refresh()));
    } finally {
      otherDb.db.selectFrom = select;
    }
    expect(reads).toBeLessThanOrEqual(2);
  });

  it('asks its listeners again at the next refresh when one of them failed', async () => {
    const here = holder(db);
    let calls = 0;
    const listeners = [
      () => {
        calls += 1;
        if (calls === 1) throw new Error('the database went away');
      },
    ];
    const flaky = new SettingsVersion({ db: otherDb, clock, listeners: Late.of(listeners) });
    await here.version.bump();
    await nextTurn();
    await flaky.refresh();
    await flaky.refresh();
    expect(calls).toBe(2);
    await flaky.refresh();
    expect(calls).toBe(2);
  });

  it('drops the caches at once for a token heard from another process, not again when a read finds that token, nor for its own', async () => {
    const here = holder(db);
    const there = holder(otherDb);
    await there.version.refresh();
    await here.version.bump();
    const token = await readToken();
    const before = there.seen.changes;
    await there.version.heard(token);
    expect(there.seen.changes).toBe(before + 1);
    await there.version.heard(token);
    await nextTurn();
    await there.version.refresh();
    expect(there.seen.changes).toBe(before + 1);

    const own = here.seen.changes;
    await here.version.heard(token);
    expect(here.seen.changes).toBe(own);
  });

  it('drops every cache when told that changes may have gone unheard', async () => {
    const there = holder(otherDb);
    await there.version.refresh();
    const before = there.seen.changes;
    await there.version.forgetAll();
    expect(there.seen.changes).toBe(before + 1);
  });

  async function readToken(): Promise<string> {
    const row = await db.db.selectFrom('settings').select('value').where('key', '=', 'settings_version').executeTakeFirstOrThrow();
    return row.value;
  }
});
