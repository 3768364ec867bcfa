import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../src/db/migrate.js';
import { createTestDb, TEST_DIALECTS, type TestDb } from './helpers/db.js';

describe.each(TEST_DIALECTS)('database on %s', (dialect) => {
  let handle: TestDb;
  beforeAll(async () => {
    handle = await createTestDb(dialect);
  });
  afterAll(async () => {
    await handle.cleanup();
  });

  it('answers a ping once migrated', async () => {
    expect(await handle.ping()).toBe(true);
  });

  it('applies nothing when migrations run a second time', async () => {
    const outcome = await migrateToLatest(handle);
    expect(outcome.applied).toEqual([]);
  });

  it('reads a millisecond timestamp back as a number', async () => {
    const at = Date.UTC(2030, 4, 1, 10, 0, 0, 123);
    await handle.db.insertInto('settings').values({ key: 'probe', value: 'x', updated_at: at }).execute();
    const row = await handle.db.selectFrom('settings').selectAll().where('key', '=', 'probe').executeTakeFirstOrThrow();
    expect(row.updated_at).toBe(at);
  });
});
