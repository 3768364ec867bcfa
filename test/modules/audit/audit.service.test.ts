import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { loadConfig } from '../../../src/config.js';
import type { AuditEntryInput } from '../../../src/modules/audit/index.js';
import { nextPruneAt } from '../../../src/modules/audit/audit.service.js';
import { createServices, type Services } from '../../../src/services.js';
import { createTestDb, TEST_DIALECTS, type TestDb } from '../../helpers/db.js';

const DAY = 24 * 60 * 60 * 1000;
const SHOP_A = 'a'.repeat(30);
const SHOP_B = 'b'.repeat(30);

function entry(overrides: Partial<AuditEntryInput> = {}): AuditEntryInput {
  return {
    actor: { kind: 'superuser' },
    shopId: SHOP_A,
    method: 'PATCH',
    path: `/admin/v1/shops/${SHOP_A}`,
    route: '/admin/v1/shops/:shop_id',
    action: 'shop.update',
    status: 200,
    before: { name: 'old' },
    after: { request: { name: 'new' }, response: { name: 'new' } },
    ip: '10.0.0.1',
    ...overrides,
  };
}

/** The audit log's store on each dialect (src/modules/audit/audit.service.ts). */
describe.each(TEST_DIALECTS)('the audit service on %s', (dialect) => {
  let db: TestDb;
  let services: Services;
  const clock = new ManualClock();

  beforeAll(async () => {
    db = await createTestDb(dialect);
    services = createServices({ config: loadConfig({ LOG_LEVEL: 'silent', PATRON_AUDIT_RETENTION_DAYS: '30' }), db, clock });
  });
  afterAll(async () => {
    await db.cleanup();
  });

  async function clear(): Promise<void> {
    await db.db.deleteFrom('audit_log').execute();
  }

  it('records an entry and reads it back with its actor, redacted states and time', async () => {
    await clear();
    await services.audit.record(
      entry({
        actor: { kind: 'user', userId: 7, email: 'ann@example.com', via: 'token' },
        after: { request: { password: 'hunter22', name: 'n' }, response: null },
      }),
    );
    const page = await services.audit.list({ limit: 10, shops: null });
    expect(page).toEqual({
      ok: true,
      nextCursor: null,
      items: [
        {
          id: expect.any(Number),
          at: clock.now(),
          actor: { kind: 'user', userId: 7, email: 'ann@example.com', via: 'token' },
          shopId: SHOP_A,
          method: 'PATCH',
          path: `/admin/v1/shops/${SHOP_A}`,
          route: '/admin/v1/shops/:shop_id',
          action: 'shop.update',
          status: 200,
          before: { name: 'old' },
          after: { request: { password: '[redacted]', name: 'n' }, response: null },
          ip: '10.0.0.1',
        },
      ],
    });
  });

  it('pages newest first by a cursor, each entry once, and filters by shop, user, action and a shop scope', async () => {
    await clear();
    for (let i = 0; i < 25; i++) {
      await services.audit.record(
        entry({
          shopId: i % 5 === 0 ? null : i % 2 === 0 ? SHOP_A : SHOP_B,
          action: i % 3 === 0 ? 'loyalty.member.create' : 'shop.update',
          actor: i % 4 === 0 ? { kind: 'user', userId: 9, email: 'u@example.com', via: 'session' } : { kind: 'superuser' },
          status: 200 + i,
        }),
      );
    }
    const seen: number[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const page = await services.audit.list({ limit: 7, cursor, shops: null });
      if (!page.ok) throw new Error('bad cursor');
      seen.push(...page.items.map((e) => e.status));
      if (page.nextCursor === null) break;
      cursor = page.nextCursor;
    }
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => 224 - i));

    const statuses = async (query: Parameters<Services['audit']['list']>[0]) => {
      const page = await services.audit.list(query);
      return page.ok ? page.items.map((e) => e.status - 200) : 'bad cursor';
    };
    const all = Array.from({ length: 25 }, (_, i) => 24 - i);
    expect(await statuses({ limit: 50, shopId: SHOP_A, shops: null })).toEqual(all.filter((i) => i % 5 !== 0 && i % 2 === 0));
    expect(await statuses({ limit: 50, userId: 9, shops: null })).toEqual(all.filter((i) => i % 4 === 0));
    expect(await statuses({ limit: 50, action: 'loyalty.member.create', shops: null })).toEqual(all.filter((i) => i % 3 === 0));
    expect(await statuses({ limit: 50, action: 'loyalty.*', shops: null })).toEqual(all.filter((i) => i % 3 === 0));
    expect(await statuses({ limit: 50, action: 'loyalty.member.cr', shops: null })).toEqual([]);
    // A user limited to shop B: B's entries, none of shop A and none of no shop.
    expect(await statuses({ limit: 50, shops: [SHOP_B] })).toEqual(all.filter((i) => i % 5 !== 0 && i % 2 === 1));
    expect(await statuses({ limit: 50, shops: [] })).toEqual([]);
    expect(await statuses({ limit: 50, cursor: 'not-a-cursor', shops: null })).toBe('bad cursor');
  });

  it('keeps the entries of the last retention days and deletes older ones in batches, then queues the next run', async () => {
    await clear();
    const now = clock.now();
    // Side by side: the group write commits them together.
    await Promise.all(Array.from({ length: 1_050 }, (_, i) => services.audit.record(entry({ at: now - 31 * DAY - i, status: 201 }))));
    await services.audit.record(entry({ at: now - 29 * DAY, status: 202 }));
    const deleted = await services.audit.runPrune({ at: now });
    expect(deleted).toBe(1_050);
    const page = await services.audit.list({ limit: 10, shops: null });
    expect(page.ok && page.items.map((e) => e.status)).toEqual([202]);
    const next = await db.db.selectFrom('jobs').select(['run_at', 'payload']).where('name', '=', 'audit.prune').execute();
    expect(next.map((j) => j.run_at)).toContain(nextPruneAt(now));
  });

  it('queues one retention run a day however many processes ask', async () => {
    await db.db.deleteFrom('jobs').where('name', '=', 'audit.prune').execute();
    await Promise.all([services.audit.schedulePrune(), services.audit.schedulePrune(), services.audit.schedulePrune()]);
    const jobs = await db.db.selectFrom('jobs').select('run_at').where('name', '=', 'audit.prune').execute();
    expect(jobs).toEqual([{ run_at: nextPruneAt(clock.now()) }]);
  });
});

describe('nextPruneAt', () => {
  it('is the next 03:00 UTC', () => {
    expect(nextPruneAt(Date.UTC(2026, 0, 15, 2, 59))).toBe(Date.UTC(2026, 0, 15, 3));
    expect(nextPruneAt(Date.UTC(2026, 0, 15, 3, 0))).toBe(Date.UTC(2026, 0, 16, 3));
    expect(nextPruneAt(Date.UTC(2026, 0, 15, 12))).toBe(Date.UTC(2026, 0, 16, 3));
  });
});

describe('the audit log switched off', () => {
  it('records nothing', async () => {
    const db = await createTestDb('sqlite');
    try {
      const services = createServices({
        config: loadConfig({ LOG_LEVEL: 'silent', PATRON_AUDIT_LOG: 'off' }),
        db,
        clock: new ManualClock(),
      });
      await services.audit.record(entry());
      expect(await db.db.selectFrom('audit_log').selectAll().execute()).toEqual([]);
    } finally {
      await db.cleanup();
    }
  });
});
