import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../helpers/db.js';
import { expectOk, messagingStack, type MessagingStack } from './messaging-setup.js';

/**
 * What became of a message (issue 16 part 5, docs/messaging.md "Tracking") on both
 * databases: the signed links of a sent email (pixel, click, one-click unsubscribe), the
 * mobile SDK's /track/* reports, bounces and complaints, and purchase attribution, each
 * read back through GET /notifications.
 */

describe.each(TEST_DIALECTS)('message tracking on %s', (dialect) => {
  let s: MessagingStack;

  beforeAll(async () => {
    s = await messagingStack(dialect);
    await expectOk(s.admin('PUT', '/channels/email', { smtp_url: 'smtp://127.0.0.1:2525', from: 'Shop <shop@example.org>' }));
    await expectOk(s.admin('PUT', '/channels/mobile_push', { fcm: { api_key: 'fcm-key-0123456789abcdef' } }));
    await expectOk(
      s.admin('PUT', '/mailings/transactional/order', {
        email: {
          subject: 'Order {{ order_id }}',
          html: '<html><body><p><a href="https://shop.example/o?id=1&amp;x=2">Your order</a> <a href="mailto:help@example.org">help</a></p></body></html>',
        },
        mobile_push: { title: 'Order {{ order_id }}', body: 'On its way' },
      }),
    );
  });

  afterAll(async () => {
    await s.t.close();
  });

  async function send(email: string): Promise<{ code: string; html: string; headers: Record<string, string>; idKey: string | undefined }> {
    const { payload } = await expectOk(s.transact({ code: 'order', email, variables: { order_id: '7' } }));
    await s.runner.runDue();
    const sent = s.email.sent.at(-1)!.message;
    expect(sent.to).toBe(email);
    return { code: payload.code as string, html: sent.html, headers: { ...sent.headers }, idKey: sent.idKey };
  }

  async function statistics(email: string, code: string) {
    const body = await expectOk(s.get('/notifications', { email }));
    return (body.payload.messages as { code: string; statistics: Record<string, boolean> }[]).find((m) => m.code === code)!.statistics;
  }

  function links(html: string) {
    const hrefs = [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
    const pixel = /<img src="([^"]+)"/.exec(html)![1]!.replace(/&amp;/g, '&');
    return { click: hrefs[0]!, other: hrefs[1]!, pixel };
  }

  function path(url: string): string {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  }

  it('sends an email with signed links, the open pixel and the RFC 8058 headers; a test send gets none', async () => {
    const { code, html, headers, idKey } = await send('links@example.org');
    const { click, other, pixel } = links(html);
    expect(click).toMatch(
      new RegExp(`^${s.t.config.publicUrl}/m/${s.shopId}\\.${code}/c\\?u=https%3A%2F%2Fshop\\.example%2Fo%3Fid%3D1%26x%3D2&s=`),
    );
    expect(other).toBe('mailto:help@example.org');
    expect(pixel).toContain(`/m/${s.shopId}.${code}/o?s=`);
    expect(html.indexOf('<img')).toBeLessThan(html.indexOf('</body>'));
    expect(headers['List-Unsubscribe']).toMatch(new RegExp(`^<${s.t.config.publicUrl}/m/${s.shopId}\\.${code}/u\\?s=[A-Za-z0-9_-]{22}>$`));
    expect(headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    // The Message-ID's left part is fixed per delivery; the smtp vendor adds the sender's domain.
    expect(idKey).toBe(`${code}.0`);

    await expectOk(s.admin('POST', '/mailings/transactional/order/test', { email: 'qa@example.org', variables: { order_id: 'T' } }));
    await s.runner.runDue();
    const test = s.email.sent.at(-1)!.message;
    expect(test.to).toBe('qa@example.org');
    expect(test.html).not.toContain('/m/');
    expect(test.headers['List-Unsubscribe']).toBeUndefined();
  });

  it('redirects a signed click and marks clicked and opened; a changed target or signature is a plain 404', async () => {
    const { code, html } = await send('click@example.org');
    const { click } = links(html);
    const tampered = click.replace('shop.example', 'evil.example');
    const bad = await s.t.app.inject({ method: 'GET', url: path(tampered) });
    expect(bad.statusCode).toBe(404);
    expect(bad.headers.location).toBeUndefined();
    expect(bad.body).toBe('Not found\n');
    const badSignature = await s.t.app.inject({ method: 'GET', url: path(click).replace(/s=.{4}/, 's=AAAA') });
    expect(badSignature.statusCode).toBe(404);
    expect((await s.t.app.inject({ method: 'GET', url: `/m/${s.shopId}.nope/c?u=https%3A%2F%2Fx.example&s=x` })).statusCode).toBe(404);
    expect(await statistics('click@example.org', code)).toMatchObject({ opened: false, clicked: false });

    const ok = await s.t.app.inject({ method: 'GET', url: path(click) });
    expect(ok.statusCode).toBe(302);
    expect(ok.headers.location).toBe('https://shop.example/o?id=1&x=2');
    expect(await statistics('click@example.org', code)).toMatchObject({ opened: true, clicked: true, purchased: false });
  });

  it('answers the open pixel once signed, idempotently, and 404 for an unsigned one', async () => {
    const { code, html } = await send('open@example.org');
    const { pixel } = links(html);
    expect((await s.t.app.inject({ method: 'GET', url: path(pixel).replace(/s=.*/, 's=') })).statusCode).toBe(404);
    const first = await s.t.app.inject({ method: 'GET', url: path(pixel) });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('image/gif');
    expect(first.rawPayload.subarray(0, 6).toString()).toBe('GIF89a');
    const [row] = await s.t.db.db.selectFrom('messaging_deliveries').select('opened_at').where('code', '=', code).execute();
    s.t.clock.advance(60_000);
    expect((await s.t.app.inject({ method: 'GET', url: path(pixel) })).statusCode).toBe(200);
    const [again] = await s.t.db.db.selectFrom('messaging_deliveries').select('opened_at').where('code', '=', code).execute();
    expect(Number(again!.opened_at)).toBe(Number(row!.opened_at));
    expect(await statistics('open@example.org', code)).toMatchObject({ opened: true, clicked: false });
  });

  it('shows the unsubscribe page, and the one-click POST turns email_transactional off and marks unsubscribed', async () => {
    const { code, headers } = await send('leave@example.org');
    const url = headers['List-Unsubscribe']!.slice(1, -1);
    const page = await s.t.app.inject({ method: 'GET', url: path(url) });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<form method="post"');
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    expect((await s.t.app.inject({ method: 'POST', url: path(url), headers: form, payload: 'List-Unsubscribe=Nope' })).statusCode).toBe(
      404,
    );
    expect(
      (
        await s.t.app.inject({
          method: 'POST',
          url: path(url).replace(/s=.{3}/, 's=xyz'),
          headers: form,
          payload: 'List-Unsubscribe=One-Click',
        })
      ).statusCode,
    ).toBe(404);
    const done = await s.t.app.inject({ method: 'POST', url: path(url), headers: form, payload: 'List-Unsubscribe=One-Click' });
    expect(done.statusCode).toBe(200);
    expect(await statistics('leave@example.org', code)).toMatchObject({ unsubscribed: true });
    const profile = await s.t.app.services.identity.findProfiles(s.shopId, { email: 'leave@example.org' });
    const attributes = await s.t.app.services.audience.getCustomerAttributes(s.shopId, profile[0]!.id);
    expect(attributes?.fields).toMatchObject({ email_transactional: false });
    // The next transactional message skips the email channel.
    const { payload } = await expectOk(s.transact({ code: 'order', email: 'leave@example.org', variables: { order_id: '8' } }));
    const rows = await s.t.db.db
      .selectFrom('messaging_deliveries')
      .select('channel')
      .where('code', '=', payload.code as string)
      .execute();
    expect(rows.map((r) => r.channel)).not.toContain('email');
  });

  it('takes the mobile SDK reports: /track/delivered, opened, clicked update the push statistics', async () => {
    const did = (await s.t.app.inject({ method: 'GET', url: `/init?shop_id=${s.shopId}` })).json().did as string;
    await s.t.app.services.profiles.setProfile(
      { shopId: s.shopId, timezone: 'UTC' },
      { did, identifiers: {} },
      { email: 'sdk@example.org' },
    );
    await s.t.app.services.profiles.registerPushToken(s.shopId, did, 'android-token-sdk', 'android');
    const { payload } = await expectOk(s.transact({ code: 'order', email: 'sdk@example.org', variables: { order_id: '9' } }));
    await s.runner.runDue();
    const code = payload.code as string;
    const track = (what: string, body: object) =>
      s.t.app.inject({
        method: 'POST',
        url: `/track/${what}`,
        payload: { shop_id: s.shopId, stream: 'android', did, type: 'transactional', ...body },
      });
    expect(await expectOk(track('delivered', { code }))).toEqual({ status: 'success' });
    const [delivered] = await s.t.db.db
      .selectFrom('messaging_deliveries')
      .select(['delivered_at', 'opened_at'])
      .where('code', '=', code)
      .where('channel', '=', 'mobile_push')
      .execute();
    expect(delivered!.delivered_at).not.toBeNull();
    expect(delivered!.opened_at).toBeNull();
    await expectOk(track('opened', { code }));
    const body = await expectOk(s.get('/notifications', { email: 'sdk@example.org', channel: 'mobile_push' }));
    expect(body.payload.messages[0]).toMatchObject({ code, statistics: { opened: true, clicked: false } });
    await expectOk(track('clicked', { code }));
    const after = await expectOk(s.get('/notifications', { email: 'sdk@example.org', channel: 'mobile_push' }));
    expect(after.payload.messages[0]).toMatchObject({ code, statistics: { opened: true, clicked: true } });
    expect((await track('clicked', { code: 'bad code!' })).statusCode).toBe(422);
    expect((await track('clicked', { code: 'unknown' })).statusCode).toBe(200);

    // A purchase within the window of the click is the message's.
    const pushed = await s.t.app.inject({
      method: 'POST',
      url: '/push',
      payload: { shop_id: s.shopId, did, event: 'purchase', items: [{ id: 'A', amount: 1, price: 10 }], order_id: 'SDK-1' },
    });
    expect(pushed.statusCode, pushed.body).toBe(200);
    await s.runner.runDue();
    const bought = await expectOk(s.get('/notifications', { email: 'sdk@example.org', channel: 'mobile_push' }));
    expect(bought.payload.messages[0].statistics.purchased).toBe(true);
  });

  it('attributes a purchase by recommended_code, and not a click older than the window', async () => {
    const did = (await s.t.app.inject({ method: 'GET', url: `/init?shop_id=${s.shopId}` })).json().did as string;
    await s.t.app.services.profiles.setProfile(
      { shopId: s.shopId, timezone: 'UTC' },
      { did, identifiers: {} },
      { email: 'buyer@example.org' },
    );
    const clicked = await send('buyer@example.org');
    await s.t.app.inject({ method: 'GET', url: path(links(clicked.html).click) });
    const named = await send('buyer@example.org');
    s.t.clock.advance(8 * 24 * 60 * 60 * 1000);
    const purchase = (body: object) =>
      s.t.app.inject({
        method: 'POST',
        url: '/push',
        payload: { shop_id: s.shopId, did, event: 'purchase', items: [{ id: 'A', amount: 1, price: 10 }], ...body },
      });
    expect((await purchase({ order_id: 'LATE-1' })).statusCode).toBe(200);
    await s.runner.runDue();
    expect(await statistics('buyer@example.org', clicked.code)).toMatchObject({ clicked: true, purchased: false });
    expect((await purchase({ order_id: 'NAMED-1', recommended_by: 'transactional', recommended_code: named.code })).statusCode).toBe(200);
    await s.runner.runDue();
    expect(await statistics('buyer@example.org', named.code)).toMatchObject({ purchased: true });
    expect(await statistics('buyer@example.org', clicked.code)).toMatchObject({ purchased: false });
  });

  it('records bounces: hard marks the address dead, soft marks soft_bounced, a complaint turns email_bulk off', async () => {
    const outcomes = s.t.app.services.messageOutcomes;
    const hard = await send('gone@example.org');
    expect(
      await outcomes.bounce(s.shopId, {
        messageId: `<${hard.code}.0@patron>`,
        email: 'GONE@example.org',
        type: 'hard',
        reason: '5.1.1 no such user',
      }),
    ).toBe(true);
    expect(await statistics('gone@example.org', hard.code)).toMatchObject({ hard_bounced: true, soft_bounced: false });
    const dead = await s.t.db.db
      .selectFrom('messaging_dead_addresses')
      .selectAll()
      .where('shop_id', '=', s.shopId)
      .where('address', '=', 'gone@example.org')
      .execute();
    expect(dead).toHaveLength(1);
    expect(dead[0]!.reason).toContain('5.1.1');

    const soft = await send('full@example.org');
    expect(await outcomes.bounce(s.shopId, { code: soft.code, type: 'soft' })).toBe(true);
    expect(await statistics('full@example.org', soft.code)).toMatchObject({ soft_bounced: true, hard_bounced: false });

    const spam = await send('angry@example.org');
    expect(await outcomes.bounce(s.shopId, { code: spam.code, email: 'angry@example.org', type: 'complaint' })).toBe(true);
    expect(await statistics('angry@example.org', spam.code)).toMatchObject({ complained: true });
    const profile = await s.t.app.services.identity.findProfiles(s.shopId, { email: 'angry@example.org' });
    expect((await s.t.app.services.audience.getCustomerAttributes(s.shopId, profile[0]!.id))?.fields).toMatchObject({ email_bulk: false });

    expect(await outcomes.bounce(s.shopId, { code: spam.code, email: 'other@example.org', type: 'hard' })).toBe(false);
    expect(await outcomes.bounce(s.shopId, { messageId: '<nope@elsewhere>', type: 'hard' })).toBe(false);
  });

  it('reads an RFC 3464 report naming our Message-ID', async () => {
    const { code } = await send('dsn@example.org');
    const raw = [
      'From: MAILER-DAEMON@mx.example',
      'To: shop@example.org',
      'Subject: Undelivered Mail',
      'MIME-Version: 1.0',
      'Content-Type: multipart/report; report-type=delivery-status; boundary="B"',
      '',
      '--B',
      'Content-Type: text/plain',
      '',
      'Your message could not be delivered.',
      '--B',
      'Content-Type: message/delivery-status',
      '',
      'Reporting-MTA: dns; mx.example',
      '',
      'Final-Recipient: rfc822; dsn@example.org',
      'Action: failed',
      'Status: 5.1.1',
      'Diagnostic-Code: smtp; 550 5.1.1 User unknown',
      '',
      '--B',
      'Content-Type: text/rfc822-headers',
      '',
      `Message-ID: <${code}.0@patron>`,
      '',
      '--B--',
      '',
    ].join('\r\n');
    expect(await s.t.app.services.messageOutcomes.dsn(s.shopId, raw)).toEqual({ recognised: true, bounces: 1 });
    expect(await statistics('dsn@example.org', code)).toMatchObject({ hard_bounced: true });
  });
});

describe.each(TEST_DIALECTS)('bounce webhooks on %s', (dialect) => {
  let s: MessagingStack;

  beforeAll(async () => {
    s = await messagingStack(dialect);
    await expectOk(s.admin('PUT', '/channels/email', { smtp_url: 'smtp://127.0.0.1:2525', from: 'Shop <shop@example.org>' }));
    await expectOk(s.admin('PUT', '/mailings/transactional/hello', { email: { subject: 'Hi', html: '<p>Hi</p>' } }));
  });

  afterAll(async () => {
    await s.t.close();
  });

  it("takes a JSON bounce with the shop's webhook secret, and refuses any other secret alike", async () => {
    const hook = await expectOk(s.admin('GET', '/messaging/webhook'));
    expect(hook.bounce_url).toBe(`${s.t.config.publicUrl}/webhooks/messaging/${s.shopId}/bounce`);
    expect(hook.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const { payload } = await expectOk(s.transact({ code: 'hello', email: 'hook@example.org' }));
    await s.runner.runDue();
    const code = payload.code as string;
    const url = new URL(hook.bounce_url as string).pathname;
    const post = (secret: string, body: object, at = url) =>
      s.t.app.inject({ method: 'POST', url: at, headers: { authorization: `Bearer ${secret}` }, payload: body });

    const wrong = await post(`${(hook.secret as string).slice(0, -1)}x`, { code, type: 'hard' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ message: 'Unauthorized' });
    expect((await post(hook.secret as string, { code, type: 'hard' }, `/webhooks/messaging/${'f'.repeat(30)}/bounce`)).statusCode).toBe(
      401,
    );
    expect((await post(hook.secret as string, { code, type: 'sideways' })).statusCode).toBe(422);

    expect(
      await expectOk(post(hook.secret as string, { message_id: `<${code}.0@patron>`, email: 'hook@example.org', type: 'soft' })),
    ).toEqual({ matched: true });
    expect(await expectOk(post(hook.secret as string, { code: 'unknown', type: 'hard' }))).toEqual({ matched: false });
    const body = await expectOk(s.get('/notifications', { email: 'hook@example.org' }));
    expect(body.payload.messages[0]).toMatchObject({ code, statistics: { soft_bounced: true, hard_bounced: false } });

    const report = [
      'Content-Type: multipart/report; report-type=delivery-status; boundary="X"',
      '',
      '--X',
      'Content-Type: message/delivery-status',
      '',
      'Reporting-MTA: dns; mx.example',
      '',
      'Final-Recipient: rfc822; hook@example.org',
      'Action: failed',
      'Status: 5.1.1',
      '',
      '--X',
      'Content-Type: text/rfc822-headers',
      '',
      `Message-ID: <${code}.0@patron>`,
      '',
      '--X--',
      '',
    ].join('\r\n');
    const dsn = await s.t.app.inject({
      method: 'POST',
      url: new URL(hook.dsn_url as string).pathname,
      headers: { authorization: `Bearer ${hook.secret as string}`, 'content-type': 'message/rfc822' },
      payload: report,
    });
    expect(dsn.statusCode, dsn.body).toBe(200);
    expect(dsn.json()).toEqual({ matched: true });
    const dead = await s.t.db.db.selectFrom('messaging_dead_addresses').select('address').where('shop_id', '=', s.shopId).execute();
    expect(dead.map((d) => d.address)).toEqual(['hook@example.org']);
  });
});
