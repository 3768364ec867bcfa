import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../helpers/db.js';
import { expectOk, messagingStack, type MessagingStack } from '../messaging/messaging-setup.js';

/**
 * A chain's statistics per step and its runs a page at a time (issue 36, part 3), on both
 * databases, with runs moved by the test's clock: what GET …/chains/{code}/stats counts at
 * each step matches where the runs are and what their messages did (opened by the pixel,
 * clicked through the signed link).
 */

const DAY = 24 * 60 * 60 * 1000;

describe.each(TEST_DIALECTS)('chain statistics on %s', (dialect) => {
  let s: MessagingStack;

  beforeAll(async () => {
    s = await messagingStack(dialect);
    await expectOk(s.admin('PUT', '/channels/email', { smtp_url: 'smtp://127.0.0.1:2525', from: 'Shop <shop@example.org>' }));
    await expectOk(s.admin('POST', '/custom-events', { code: 'joined' }), 201);
  });

  afterAll(async () => {
    await s.t.close();
  });

  const custom = (body: object) => s.t.app.inject({ method: 'POST', url: '/push/custom', payload: { shop_id: s.shopId, ...body } });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const stats = async (query = ''): Promise<any> => expectOk(s.admin('GET', `/chains/funnel/stats${query}`));
  const path = (url: string) => {
    const u = new URL(url.replace(/&amp;/g, '&'));
    return `${u.pathname}${u.search}`;
  };
  const sentTo = (to: string) => s.email.sent.filter((m) => m.message.to === to).at(-1)!.message.html;

  it('counts entered, waiting, exited, done and sent, opened, clicked per step as the clock moves the runs', async () => {
    const chain = await expectOk(
      s.admin('PUT', '/chains/funnel', {
        status: 'active',
        trigger: { event: 'joined' },
        reentry: 'always',
        steps: [
          { wait: { seconds: 86_400 } },
          { if: { variable: 'plan', equals: 'gold' }, else: 'exit' },
          { send: { email: { subject: 'Welcome', html: '<p><a href="https://shop.example/start">Start</a></p>' } } },
          { wait: { seconds: 86_400 } },
          { send: { email: { subject: 'Day two', html: '<p>Still here</p>' } } },
        ],
      }),
    );
    for (const [email, plan] of [
      ['a@stats.example', 'gold'],
      ['b@stats.example', 'gold'],
      ['c@stats.example', 'free'],
    ] as const) {
      expect((await custom({ event: 'joined', email, plan })).statusCode).toBe(200);
    }
    await s.runner.runDue();
    const zero = { exited: 0, done: 0 };
    expect((await stats()).steps).toEqual([
      { index: 0, kind: 'wait', entered: 3, waiting: 3, ...zero },
      { index: 1, kind: 'if', entered: 0, waiting: 0, ...zero },
      { index: 2, kind: 'send', entered: 0, waiting: 0, ...zero, sent: 0, opened: 0, clicked: 0 },
      { index: 3, kind: 'wait', entered: 0, waiting: 0, ...zero },
      { index: 4, kind: 'send', entered: 0, waiting: 0, ...zero, sent: 0, opened: 0, clicked: 0 },
    ]);

    s.t.clock.advance(DAY);
    await s.runner.runDue();
    // The pixel of a's welcome, and b's click through its link (a click is an open too).
    const pixel = /<img src="([^"]+)"/.exec(sentTo('a@stats.example'))![1]!;
    expect((await s.t.app.inject({ method: 'GET', url: path(pixel) })).statusCode).toBe(200);
    const link = /href="([^"]+)"/.exec(sentTo('b@stats.example'))![1]!;
    expect((await s.t.app.inject({ method: 'GET', url: path(link) })).statusCode).toBe(302);
    expect((await stats()).steps).toEqual([
      { index: 0, kind: 'wait', entered: 3, waiting: 0, ...zero },
      { index: 1, kind: 'if', entered: 3, waiting: 0, exited: 1, done: 0 },
      { index: 2, kind: 'send', entered: 2, waiting: 0, ...zero, sent: 2, opened: 2, clicked: 1 },
      { index: 3, kind: 'wait', entered: 2, waiting: 2, ...zero },
      { index: 4, kind: 'send', entered: 0, waiting: 0, ...zero, sent: 0, opened: 0, clicked: 0 },
    ]);

    s.t.clock.advance(DAY);
    await s.runner.runDue();
    const final = await stats();
    expect(final).toMatchObject({ version: 1, current_version: 1 });
    expect(final.steps[4]).toEqual({ index: 4, kind: 'send', entered: 2, waiting: 0, exited: 0, done: 2, sent: 2, opened: 0, clicked: 0 });
    expect(final.steps[3]).toMatchObject({ entered: 2, waiting: 0 });

    // A new version starts counting afresh; the old one is still readable by its number.
    await expectOk(
      s.admin('PUT', '/chains/funnel', { status: 'active', trigger: { event: 'joined' }, reentry: 'always', steps: [{ exit: {} }] }),
    );
    expect(await stats()).toEqual({
      version: 2,
      current_version: 2,
      steps: [{ index: 0, kind: 'exit', entered: 0, waiting: 0, exited: 0, done: 0 }],
    });
    expect((await stats('?version=1')).steps).toEqual(final.steps);
    const missing = await s.admin('GET', '/chains/funnel/stats?version=3');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.message).toBe('Chain funnel has no version 3.');
    expect((await s.admin('GET', '/chains/nope/stats')).statusCode).toBe(404);
    expect(chain.id).toEqual(expect.any(Number));
  });

  it('lists every run of the chain newest first, a page at a time, with its profile', async () => {
    const first = await expectOk(s.admin('GET', '/chains/funnel/runs?limit=2'));
    expect(first.runs).toHaveLength(2);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = await expectOk(s.admin('GET', `/chains/funnel/runs?limit=2&cursor=${first.next_cursor}`));
    expect(second).toMatchObject({ next_cursor: null });
    expect(second.runs).toHaveLength(1);
    const all = [...first.runs, ...second.runs];
    expect(all.map((r: { id: number }) => r.id)).toEqual([...all.map((r: { id: number }) => r.id)].sort((a, b) => b - a));
    expect(all.map((r: { status: string }) => r.status).sort()).toEqual(['done', 'done', 'exited']);
    const c = await s.t.app.services.identity.resolveProfile(s.shopId, { email: 'c@stats.example' });
    expect(all.find((r: { status: string }) => r.status === 'exited')).toMatchObject({ step: 1, profile_id: c.profileId });
    const bad = await s.admin('GET', '/chains/funnel/runs?cursor=nonsense');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.message).toBe('Query parameter `cursor` is not valid.');
  });

  it.runIf(dialect === 'sqlite')('counts through the indexes of the chain, not a scan of the shop', async () => {
    const plan = async (query: string) =>
      (await sql<{ detail: string }>`explain query plan ${sql.raw(query)}`.execute(s.t.db.db)).rows.map((r) => r.detail).join('\n');
    expect(
      await plan(
        `select step, status, count(*) from chain_runs where shop_id = 'x' and chain_id = 1 and version = 1 group by step, status`,
      ),
    ).toMatch(/USING COVERING INDEX chain_runs_chain_step/);
    expect(await plan(`select * from chain_runs where shop_id = 'x' and chain_id = 1 and id < 5 order by id desc limit 3`)).toMatch(
      /chain_runs_chain_id/,
    );
    expect(
      await plan(
        `select code from messaging_messages where shop_id = 'x' and type = 'chain' and mailing_id = 1 and mailing_code in ('1:1:2')`,
      ),
    ).toMatch(/messaging_messages_chain_step/);
  });
});
