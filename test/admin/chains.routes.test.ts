import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createShopFixture } from '../helpers/factories.js';

/**
 * admin-api.md "Chains and bulk mailings", the chains core through the whole app: PUT
 * answers the chain with its integer id, GET and the list read it back, runs by email,
 * phone or did, 404 for an unknown chain, and bad chains refused when saved (issue 17,
 * "Bad input") with a sentence naming what is wrong.
 */

describe('chains admin routes', () => {
  let t: TestApp;
  let shopId: string;

  beforeAll(async () => {
    t = await createTestApp();
    ({ shopId } = await createShopFixture(t.app.services));
  });

  afterAll(async () => {
    await t.close();
  });

  const call = (method: 'GET' | 'PUT', path: string, payload?: object) =>
    t.app.inject({ method, url: `/admin/v1/shops/${shopId}${path}`, headers: t.adminHeaders, ...(payload ? { payload } : {}) });
  const send = { send: { email: { subject: 'Hi {{ name }}', html: '<p>Hi</p>' }, sms: { body: 'Hi' } } };
  const valid = {
    status: 'active',
    trigger: { event: 'signed_up' },
    reentry: 'once',
    steps: [{ wait: { seconds: 3600 } }, { if: { purchased: false }, else: 'exit' }, send],
  };

  it('creates a chain, writes a new version on each PUT, and reads it back', async () => {
    const created = await call('PUT', '/chains/welcome', { name: 'Welcome', ...valid });
    expect(created.statusCode, created.body).toBe(200);
    const body = created.json();
    expect(body).toMatchObject({
      id: expect.any(Number),
      code: 'welcome',
      name: 'Welcome',
      status: 'active',
      trigger: { event: 'signed_up' },
      reentry: 'once',
      version: 1,
    });
    expect(body.steps).toEqual(valid.steps);
    const again = (await call('PUT', '/chains/welcome', { ...valid, status: 'paused', steps: [{ exit: {} }] })).json();
    expect(again).toMatchObject({ id: body.id, version: 2, status: 'paused', name: null, steps: [{ exit: {} }] });
    expect((await call('GET', '/chains/welcome')).json()).toMatchObject({ id: body.id, version: 2 });
    const other = (
      await call('PUT', '/chains/cart', {
        status: 'active',
        trigger: { abandoned_cart: { after_seconds: 1800 } },
        reentry: 'always',
        steps: [send],
      })
    ).json();
    expect(other.id).not.toBe(body.id);
    const list = (await call('GET', '/chains')).json<{ chains: Array<{ code: string }> }>();
    expect(list.chains.map((c) => c.code)).toEqual(['cart', 'welcome']);
  });

  it('answers 404 for an unknown chain and its runs, and an unknown shop', async () => {
    expect((await call('GET', '/chains/nope')).json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Chain is not found.' } });
    expect((await call('GET', '/chains/nope/runs?email=a@example.org')).statusCode).toBe(404);
    const unknownShop = await t.app.inject({ method: 'GET', url: `/admin/v1/shops/${'0'.repeat(30)}/chains`, headers: t.adminHeaders });
    expect(unknownShop.statusCode).toBe(404);
  });

  it('lists runs by email, phone or did, and every run without one', async () => {
    const chain = (
      await call('PUT', '/chains/runs', {
        status: 'active',
        trigger: { event: 'x' },
        reentry: 'always',
        steps: [{ wait: { seconds: 60 } }, { exit: {} }],
      })
    ).json();
    const { profileId } = await t.app.services.identity.resolveProfile(shopId, { email: 'run@example.org', phone: '79001234567' });
    await t.app.services.chains.startRun(t.db.db, { shopId, chainId: chain.id, profileId, variables: {}, key: 'r1', at: t.clock.now() });
    const byEmail = (await call('GET', '/chains/runs/runs?email=RUN@example.org')).json();
    expect(byEmail.runs).toEqual([
      {
        id: expect.any(Number),
        status: 'waiting',
        step: 0,
        started_at: new Date(t.clock.now()).toISOString(),
        version: 1,
        due_at: new Date(t.clock.now() + 60_000).toISOString(),
        ended_at: null,
        reason: null,
        profile_id: profileId,
      },
    ]);
    expect((await call('GET', '/chains/runs/runs?phone=79001234567')).json().runs).toHaveLength(1);
    expect((await call('GET', '/chains/runs/runs?email=nobody@example.org')).json()).toEqual({ runs: [] });
    // Without an identifier: every run of the chain, a page at a time.
    const all = (await call('GET', '/chains/runs/runs')).json();
    expect(all).toEqual({ runs: byEmail.runs, next_cursor: null });
  });

  const refusals: Array<[string, object, RegExp]> = [
    ['more than 50 steps', { steps: Array.from({ length: 51 }, () => ({ exit: {} })) }, /at most 50 steps; this one has 51/],
    [
      'a wait of 10 years',
      { steps: [send, { wait: { seconds: 10 * 365 * 86_400 } }, send] },
      /^Step 1: `steps\[1\]\.wait\.seconds` is at most 31622400 seconds \(366 days\)/,
    ],
    ['an unknown step', { steps: [{ jump: 3 }] }, /Step 0: `steps\[0\]` must be one of/],
    [
      'an unknown condition',
      { steps: [{ if: { weather: 'sunny' }, else: 'exit' }] },
      /Step 0: `steps\[0\]\.if` must be one of the conditions/,
    ],
    ['an else other than exit', { steps: [{ if: { purchased: false }, else: 'goto 0' }] }, /Step 0: `steps\[0\]\.else` is not valid/],
    ['an unknown trigger', { trigger: { full_moon: {} } }, /`trigger` must be one object of/],
    ['a bad event code', { trigger: { event: 'Not A Code' } }, /Trigger event: is not valid/],
    ['a send without templates', { steps: [{ send: {} }] }, /Step 0: `steps\[0\]\.send` needs templates for at least one channel/],
    [
      'a template that does not parse',
      { steps: [{ send: { email: { subject: 's', html: '{% if x %}no end' } } }] },
      /Template steps\[0\]\.send\.email\.html does not parse/,
    ],
    ['no steps', { steps: [] }, /at least one step/],
    ['once_per_period without a period', { reentry: 'once_per_period' }, /reentry_period_seconds/],
  ];

  it.each(refusals)('refuses %s with 422 and a clear message', async (_name, change, message) => {
    const r = await call('PUT', '/chains/bad', { ...valid, ...change });
    expect(r.statusCode, r.body).toBe(422);
    expect(r.json().error.code).toBe('VALIDATION_FAILED');
    expect(r.json().error.message).toMatch(message);
    expect((await call('GET', '/chains/bad')).statusCode).toBe(404);
  });

  it('refuses an unknown status or re-entry rule by the schema', async () => {
    expect((await call('PUT', '/chains/bad', { ...valid, status: 'running' })).statusCode).toBe(422);
    expect((await call('PUT', '/chains/bad', { ...valid, reentry: 'twice' })).statusCode).toBe(422);
  });
});
