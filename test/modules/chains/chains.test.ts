import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StartOutcome } from '../../../src/modules/chains/chain-starter.js';
import { TEST_DIALECTS } from '../../helpers/db.js';
import { expectOk, messagingStack, type MessagingStack } from '../messaging/messaging-setup.js';

/**
 * The chain engine on both databases with the injected clock (issue 17 parts 1–2): a
 * custom event starts a chain; a wait of a day, a condition and a send run in
 * milliseconds; re-entry rules hold under concurrent starts; a step runs once however
 * often its job is delivered; a purchase named by a chain message's code is attributed.
 */

const DAY = 24 * 60 * 60 * 1000;

describe.each(TEST_DIALECTS)('chains on %s', (dialect) => {
  let s: MessagingStack;

  beforeAll(async () => {
    s = await messagingStack(dialect);
    await expectOk(s.admin('PUT', '/channels/email', { smtp_url: 'smtp://127.0.0.1:2525', from: 'Shop <shop@example.org>' }));
    await expectOk(s.admin('POST', '/custom-events', { code: 'signed_up' }), 201);
    await expectOk(s.admin('POST', '/custom-events', { code: 'visited' }), 201);
  });

  afterAll(async () => {
    await s.t.close();
  });

  const put = (code: string, body: object) => expectOk(s.admin('PUT', `/chains/${code}`, body));
  const custom = (body: object) => s.t.app.inject({ method: 'POST', url: '/push/custom', payload: { shop_id: s.shopId, ...body } });
  /* eslint-disable @typescript-eslint/no-explicit-any */
  const runs = async (code: string, email: string): Promise<any[]> =>
    (await expectOk(s.admin('GET', `/chains/${code}/runs?email=${encodeURIComponent(email)}`))).runs as any[];
  /* eslint-enable @typescript-eslint/no-explicit-any */
  const profileOf = async (email: string) => (await s.t.app.services.identity.resolveProfile(s.shopId, { email })).profileId;

  it('runs wait 1 day → condition → send in milliseconds, started by a custom event with its variables', async () => {
    const chain = await put('welcome', {
      name: 'Welcome',
      status: 'active',
      trigger: { event: 'signed_up' },
      reentry: 'always',
      steps: [
        { wait: { seconds: 86_400 } },
        { if: { variable: 'plan', equals: 'gold' }, else: 'exit' },
        { send: { email: { subject: 'Hi {{ plan }}', html: '<p>{{ profile.email }}</p>' } } },
      ],
    });
    expect(chain).toMatchObject({ id: expect.any(Number), code: 'welcome', status: 'active', version: 1 });
    const before = s.email.sent.length;
    expect((await custom({ event: 'signed_up', email: 'gold@example.org', plan: 'gold' })).statusCode).toBe(200);
    expect((await custom({ event: 'signed_up', email: 'free@example.org', plan: 'free' })).statusCode).toBe(200);
    await s.runner.runDue();
    expect(await runs('welcome', 'gold@example.org')).toMatchObject([{ status: 'waiting', step: 0 }]);

    s.t.clock.advance(DAY - 1000);
    await s.runner.runDue();
    expect(s.email.sent.length).toBe(before);
    s.t.clock.advance(1000);
    await s.runner.runDue();
    expect(s.email.sent.length).toBe(before + 1);
    expect(s.email.sent.at(-1)!.message).toMatchObject({ to: 'gold@example.org', subject: 'Hi gold' });
    expect(await runs('welcome', 'gold@example.org')).toMatchObject([{ status: 'done', step: 2, reason: null }]);
    const [exited] = await runs('welcome', 'free@example.org');
    expect(exited).toMatchObject({ status: 'exited', step: 1, reason: 'step 1: variable `plan` is not gold' });

    const message = await s.t.db.db
      .selectFrom('messaging_messages')
      .selectAll()
      .where('shop_id', '=', s.shopId)
      .where('type', '=', 'chain')
      .executeTakeFirstOrThrow();
    expect(Number(message.mailing_id)).toBe(chain.id);
  });

  it('exits with a recorded reason when the variable of a condition never comes', async () => {
    await put('absent', {
      status: 'active',
      trigger: { event: 'visited' },
      reentry: 'always',
      steps: [{ if: { variable: 'coupon', equals: 'x' }, else: 'exit' }, { send: { email: { subject: 's', html: 'h' } } }],
    });
    await custom({ event: 'visited', email: 'novar@example.org' });
    await s.runner.runDue();
    expect(await runs('absent', 'novar@example.org')).toMatchObject([
      { status: 'exited', step: 0, reason: 'step 0: variable `coupon` is absent' },
    ]);
    const jobs = await s.t.db.db
      .selectFrom('jobs')
      .select('status')
      .where('name', '=', 'chains.step')
      .where('status', 'in', ['queued', 'running'])
      .where('run_at', '<=', s.t.clock.now())
      .execute();
    expect(jobs).toEqual([]);
  });

  it('starts exactly one run of a once chain for 100 concurrent starts, and one per firing key', async () => {
    const chain = await put('once', {
      status: 'active',
      trigger: { event: 'visited' },
      reentry: 'once',
      steps: [{ wait: { seconds: 60 } }, { exit: {} }],
    });
    const profileId = await profileOf('once@example.org');
    const chains = s.t.app.services.chains;
    const start = (key: string) =>
      chains.startRun(s.t.db.db, { shopId: s.shopId, chainId: chain.id, profileId, variables: {}, key, at: s.t.clock.now() });
    const outcomes = await Promise.all(Array.from({ length: 100 }, (_, i) => start(`k${i}`)));
    expect(outcomes.filter((o) => o === 'started')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'refused_reentry')).toHaveLength(99);
    expect(await runs('once', 'once@example.org')).toHaveLength(1);
    s.t.clock.advance(400 * DAY);
    expect(await start('later')).toBe('refused_reentry');

    const always = await put('always', { status: 'active', trigger: { event: 'visited' }, reentry: 'always', steps: [{ exit: {} }] });
    const same = await Promise.all(
      Array.from({ length: 20 }, () =>
        chains.startRun(s.t.db.db, {
          shopId: s.shopId,
          chainId: always.id,
          profileId,
          variables: {},
          key: 'one-firing',
          at: s.t.clock.now(),
        }),
      ),
    );
    expect(same.filter((o) => o === 'started')).toHaveLength(1);
    expect(same.filter((o) => o === 'duplicate')).toHaveLength(19);
  });

  it('lets a profile in once per period, and a paused chain starts no runs', async () => {
    const chain = await put('weekly', {
      status: 'active',
      trigger: { event: 'visited' },
      reentry: 'once_per_period',
      reentry_period_seconds: 7 * 86_400,
      steps: [{ exit: {} }],
    });
    const profileId = await profileOf('weekly@example.org');
    const start = (key: string): Promise<StartOutcome> =>
      s.t.app.services.chains.startRun(s.t.db.db, {
        shopId: s.shopId,
        chainId: chain.id,
        profileId,
        variables: {},
        key,
        at: s.t.clock.now(),
      });
    expect(await start('w1')).toBe('started');
    s.t.clock.advance(6 * DAY);
    expect(await start('w2')).toBe('refused_reentry');
    s.t.clock.advance(DAY);
    expect(await start('w3')).toBe('started');
    await put('weekly', { status: 'paused', trigger: { event: 'visited' }, reentry: 'always', steps: [{ exit: {} }] });
    expect(await start('w4')).toBe('chain_inactive');
    expect(await s.t.app.services.chains.activeChains(s.shopId, 'event')).not.toContainEqual(
      expect.objectContaining({ chainId: chain.id }),
    );
  });

  it('keeps a run on the version it started on, and ends abandoned-cart runs on endRuns', async () => {
    const chains = s.t.app.services.chains;
    const cart = await put('cart', {
      status: 'active',
      trigger: { abandoned_cart: { after_seconds: 3600 } },
      reentry: 'always',
      steps: [{ wait: { seconds: 3600 } }, { send: { email: { subject: 'v1 {{ products[0].name }}', html: 'h' } } }],
    });
    const profileId = await profileOf('cart@example.org');
    const products = [{ id: 'A', name: 'Lamp', price: 12.5, url: 'https://shop.example/a', picture: 'https://shop.example/a.png' }];
    expect(
      await chains.startRun(s.t.db.db, {
        shopId: s.shopId,
        chainId: cart.id,
        profileId,
        variables: {},
        products,
        key: 'c1',
        at: s.t.clock.now(),
      }),
    ).toBe('started');
    await put('cart', { status: 'active', trigger: { abandoned_cart: { after_seconds: 3600 } }, reentry: 'always', steps: [{ exit: {} }] });
    const before = s.email.sent.length;
    s.t.clock.advance(3600_000);
    await s.runner.runDue();
    expect(s.email.sent.length).toBe(before + 1);
    expect(s.email.sent.at(-1)!.message.subject).toBe('v1 Lamp');
    expect(await runs('cart', 'cart@example.org')).toMatchObject([{ status: 'done', version: 1 }]);

    expect(
      await chains.startRun(s.t.db.db, { shopId: s.shopId, chainId: cart.id, profileId, variables: {}, key: 'c2', at: s.t.clock.now() }),
    ).toBe('started');
    await put('cart', {
      status: 'active',
      trigger: { abandoned_cart: { after_seconds: 3600 } },
      reentry: 'always',
      steps: [{ wait: { seconds: 60 } }, { exit: {} }],
    });
    expect(
      await chains.startRun(s.t.db.db, { shopId: s.shopId, chainId: cart.id, profileId, variables: {}, key: 'c3', at: s.t.clock.now() }),
    ).toBe('started');
    // Both waiting runs end, each on its own version.
    expect(await chains.endRuns(s.t.db.db, s.shopId, profileId, 'abandoned_cart', s.t.clock.now())).toBe(2);
    expect(await chains.endRuns(s.t.db.db, s.shopId, profileId, 'event', s.t.clock.now())).toBe(0);
    const [latest] = await runs('cart', 'cart@example.org');
    expect(latest).toMatchObject({ status: 'exited', version: 3, reason: 'ended by a purchase' });
  });

  it('costs no job for an event whose code starts no chain once the codes are known', async () => {
    await expectOk(s.admin('POST', '/custom-events', { code: 'unchained' }), 201);
    await custom({ event: 'unchained', email: 'plain@example.org' });
    await s.t.app.services.chains.eventCodesSettled();
    await custom({ event: 'unchained', email: 'plain@example.org' });
    await custom({ event: 'visited', email: 'plain@example.org' });
    const events = await s.t.db.db
      .selectFrom('events')
      .select(['id', 'event'])
      .where('shop_id', '=', s.shopId)
      .orderBy('id', 'desc')
      .limit(2)
      .execute();
    const jobs = await s.t.db.db.selectFrom('jobs').select('payload').where('name', '=', 'tracking.deliver').execute();
    const jobOf = (id: number) =>
      jobs.some((j) => j.payload.includes('"subscriber":"chains.events"') && j.payload.includes(`"eventId":${id}`));
    expect(events.map((e) => [e.event, jobOf(Number(e.id))])).toEqual([
      ['visited', true],
      ['unchained', false],
    ]);
    await s.runner.runDue();
  });

  it('starts one run and sends once when the event is handed to the engine again (a redelivered outbox job)', async () => {
    await put('instant', {
      status: 'active',
      trigger: { event: 'visited' },
      reentry: 'always',
      steps: [{ send: { email: { subject: 'Instant', html: 'h' } } }],
    });
    await custom({ event: 'visited', email: 'again@example.org' });
    await s.runner.runDue();
    const [event] = await s.t.db.db
      .selectFrom('events')
      .select('id')
      .where('shop_id', '=', s.shopId)
      .where('event', '=', 'visited')
      .orderBy('id', 'desc')
      .limit(1)
      .execute();
    await s.t.app.services.tracking.deliver({ shopId: s.shopId, eventId: Number(event!.id), subscriber: 'chains.events' });
    expect(await runs('instant', 'again@example.org')).toMatchObject([{ status: 'done', step: 0 }]);
    const chain = await expectOk(s.admin('GET', '/chains/instant'));
    const messages = await s.t.db.db
      .selectFrom('messaging_messages')
      .select('code')
      .where('shop_id', '=', s.shopId)
      .where('mailing_id', '=', chain.id)
      .where('type', '=', 'chain')
      .execute();
    expect(messages).toHaveLength(1);
  });

  it('starts the runs of events handed over side by side once each: one per event, one per profile for a once chain', async () => {
    await expectOk(s.admin('POST', '/custom-events', { code: 'side_by_side' }), 201);
    const always = await put('side-always', {
      status: 'active',
      trigger: { event: 'side_by_side' },
      reentry: 'always',
      steps: [{ send: { email: { subject: 'Each', html: 'h' } } }, { wait: { seconds: 60 } }, { exit: {} }],
    });
    const once = await put('side-once', {
      status: 'active',
      trigger: { event: 'side_by_side' },
      reentry: 'once',
      steps: [{ send: { email: { subject: 'Once', html: 'h' } } }],
    });
    await s.t.app.services.chains.eventCodesSettled();
    const emails = Array.from({ length: 5 }, (_, i) => `side${i}@example.org`);
    for (const email of [...emails, ...emails]) expect((await custom({ event: 'side_by_side', email })).statusCode).toBe(200);
    const events = await s.t.db.db
      .selectFrom('events')
      .select('id')
      .where('shop_id', '=', s.shopId)
      .where('event', '=', 'side_by_side')
      .execute();
    expect(events).toHaveLength(10);
    // Each event handed over twice at once (a redelivered outbox job beside the first).
    const deliver = (id: number) => s.t.app.services.tracking.deliver({ shopId: s.shopId, eventId: id, subscriber: 'chains.events' });
    await Promise.all(events.flatMap((e) => [deliver(Number(e.id)), deliver(Number(e.id))]));
    await s.runner.runDue();

    const messagesOf = async (chainId: number) =>
      (
        await s.t.db.db
          .selectFrom('messaging_messages')
          .select('profile_id')
          .where('shop_id', '=', s.shopId)
          .where('mailing_id', '=', chainId)
          .where('type', '=', 'chain')
          .execute()
      ).map((m) => Number(m.profile_id));
    expect(await messagesOf(always.id)).toHaveLength(10);
    expect(new Set(await messagesOf(once.id)).size).toBe(5);
    expect(await messagesOf(once.id)).toHaveLength(5);
    const waiting: number[] = [];
    for (const email of emails) {
      const each = await runs('side-always', email);
      expect(each).toMatchObject([
        { status: 'waiting', step: 1 },
        { status: 'waiting', step: 1 },
      ]);
      waiting.push(...each.map((r) => Number(r.id)));
      expect(await runs('side-once', email)).toMatchObject([{ status: 'done', step: 0 }]);
    }
    // Each waiting run has the job that ends its wait.
    const keys = waiting.map((id) => `${s.shopId}:${id}:1`);
    const waits = await s.t.db.db
      .selectFrom('jobs')
      .select('idempotency_key')
      .where('name', '=', 'chains.step')
      .where('status', '=', 'queued')
      .where('idempotency_key', 'in', keys)
      .execute();
    expect(waits).toHaveLength(10);
  });

  it('runs a step once however often its job is delivered at the same time', async () => {
    const chain = await put('once-step', {
      status: 'active',
      trigger: { event: 'visited' },
      reentry: 'always',
      steps: [{ send: { email: { subject: 'Only once', html: 'h' } } }, { wait: { seconds: 60 } }, { exit: {} }],
    });
    const profileId = await profileOf('twice@example.org');
    await s.t.app.services.chains.startRun(s.t.db.db, {
      shopId: s.shopId,
      chainId: chain.id,
      profileId,
      variables: {},
      key: 't1',
      at: s.t.clock.now(),
    });
    const [run] = await runs('once-step', 'twice@example.org');
    const steps = s.t.app.services.chainSteps;
    await Promise.all(Array.from({ length: 5 }, () => steps.run({ shopId: s.shopId, runId: run.id })));
    const messages = await s.t.db.db
      .selectFrom('messaging_messages')
      .select('code')
      .where('shop_id', '=', s.shopId)
      .where('mailing_id', '=', chain.id)
      .where('type', '=', 'chain')
      .execute();
    expect(messages).toHaveLength(1);
    expect(await runs('once-step', 'twice@example.org')).toMatchObject([{ status: 'waiting', step: 1 }]);
  });

  it('reads purchases, segments, profile fields and opens since the run started for its conditions', async () => {
    const segment = await expectOk(s.admin('POST', '/segments', { name: 'Regulars' }), 201);
    const chain = await put('facts', {
      status: 'active',
      trigger: { event: 'visited' },
      reentry: 'always',
      steps: [
        { wait: { seconds: 3600 } },
        { if: { purchased: false }, else: 'exit' },
        { if: { segment: segment.id }, else: 'exit' },
        { if: { property: 'first_name', equals: 'Ann' }, else: 'exit' },
        { send: { email: { subject: 'First', html: 'h' } } },
        { wait: { seconds: 60 } },
        { if: { opened: true }, else: 'exit' },
        { send: { email: { subject: 'Second', html: 'h' } } },
      ],
    });
    const didOf = async (email: string) => {
      const did = (await s.t.app.inject({ method: 'GET', url: `/init?shop_id=${s.shopId}` })).json().did as string;
      await s.t.app.services.profiles.setProfile(
        { shopId: s.shopId, timezone: 'UTC' },
        { did, identifiers: {} },
        { email, first_name: 'Ann' },
      );
      return { did, profileId: await profileOf(email) };
    };
    const buyer = await didOf('buyer-facts@example.org');
    const reader = await didOf('reader-facts@example.org');
    await s.t.db.db
      .insertInto('segment_members')
      .values({ shop_id: s.shopId, segment_id: segment.id, profile_id: reader.profileId, created_at: s.t.clock.now() })
      .execute();
    const chains = s.t.app.services.chains;
    for (const who of [buyer, reader]) {
      await chains.startRun(s.t.db.db, {
        shopId: s.shopId,
        chainId: chain.id,
        profileId: who.profileId,
        variables: {},
        key: `f${who.profileId}`,
        at: s.t.clock.now(),
      });
    }
    const bought = await s.t.app.inject({
      method: 'POST',
      url: '/push',
      payload: { shop_id: s.shopId, did: buyer.did, event: 'purchase', items: [{ id: 'A', amount: 1, price: 10 }], order_id: 'FACTS-1' },
    });
    expect(bought.statusCode, bought.body).toBe(200);
    s.t.clock.advance(3600_000);
    await s.runner.runDue();
    expect(await runs('facts', 'buyer-facts@example.org')).toMatchObject([
      { status: 'exited', step: 1, reason: 'step 1: purchased since the start' },
    ]);
    expect(await runs('facts', 'reader-facts@example.org')).toMatchObject([{ status: 'waiting', step: 5 }]);
    await s.t.db.db
      .updateTable('messaging_deliveries')
      .set({ opened_at: s.t.clock.now() })
      .where('shop_id', '=', s.shopId)
      .where('mailing_id', '=', chain.id)
      .where('type', '=', 'chain')
      .execute();
    s.t.clock.advance(60_000);
    await s.runner.runDue();
    expect(await runs('facts', 'reader-facts@example.org')).toMatchObject([{ status: 'done', step: 7 }]);
    expect(s.email.sent.slice(-2).map((m) => [m.message.to, m.message.subject])).toEqual([
      ['reader-facts@example.org', 'First'],
      ['reader-facts@example.org', 'Second'],
    ]);
  });

  it('moves runs and entries to the survivor of a profile merge, keeping once for the person', async () => {
    const chain = await put('merge', {
      status: 'active',
      trigger: { event: 'visited' },
      reentry: 'once',
      steps: [{ wait: { seconds: 60 } }, { exit: {} }],
    });
    const older = await profileOf('merge@example.org');
    const { profileId: younger } = await s.t.app.services.identity.resolveProfile(s.shopId, { phone: '79005550001' });
    const start = (profileId: number, key: string) =>
      s.t.app.services.chains.startRun(s.t.db.db, {
        shopId: s.shopId,
        chainId: chain.id,
        profileId,
        variables: {},
        key,
        at: s.t.clock.now(),
      });
    expect(await start(older, 'm1')).toBe('started');
    expect(await start(younger, 'm2')).toBe('started');
    const merged = await s.t.app.services.identity.resolveProfile(s.shopId, { email: 'merge@example.org', phone: '79005550001' });
    expect(merged.merges).toHaveLength(1);
    expect(await runs('merge', 'merge@example.org')).toHaveLength(2);
    const entries = await s.t.db.db
      .selectFrom('chain_entries')
      .select('profile_id')
      .where('shop_id', '=', s.shopId)
      .where('chain_id', '=', chain.id)
      .execute();
    expect(entries.map((e) => Number(e.profile_id))).toEqual([merged.profileId]);
    expect(await start(merged.profileId, 'm3')).toBe('refused_reentry');
  });

  it('attributes a purchase with recommended_by=chain and the message code to the chain message', async () => {
    const did = (await s.t.app.inject({ method: 'GET', url: `/init?shop_id=${s.shopId}` })).json().did as string;
    await s.t.app.services.profiles.setProfile(
      { shopId: s.shopId, timezone: 'UTC' },
      { did, identifiers: {} },
      { email: 'gold@example.org' },
    );
    const message = await s.t.db.db
      .selectFrom('messaging_messages')
      .select(['code', 'mailing_id'])
      .where('shop_id', '=', s.shopId)
      .where('type', '=', 'chain')
      .orderBy('created_at')
      .executeTakeFirstOrThrow();
    const pushed = await s.t.app.inject({
      method: 'POST',
      url: '/push',
      payload: {
        shop_id: s.shopId,
        did,
        event: 'purchase',
        items: [{ id: 'A', amount: 1, price: 10 }],
        order_id: 'CHAIN-1',
        recommended_by: 'chain',
        recommended_code: message.code,
      },
    });
    expect(pushed.statusCode, pushed.body).toBe(200);
    await s.runner.runDue();
    const [delivery] = await s.t.db.db
      .selectFrom('messaging_deliveries')
      .select(['purchased_at', 'type'])
      .where('shop_id', '=', s.shopId)
      .where('code', '=', message.code)
      .execute();
    expect(delivery).toMatchObject({ type: 'chain', purchased_at: s.t.clock.now() });
  });
});
