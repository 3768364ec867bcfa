import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { expectOk, messagingStack, type MessagingStack } from '../modules/messaging/messaging-setup.js';

/**
 * The template editor's server side (issue 36, part 2) on both databases: any template,
 * saved nowhere, previewed through the send path's renderer with the sample profile or a
 * real customer (locale variants by their `locale`), its Liquid and MJML errors answered at
 * their line (never a 500), the render limits holding on the preview and on the send path,
 * and a test send through the shop's channel, in the delivery log as a test, rate-limited.
 */

const LIMIT_MS = 300;
const MJML = (body: string) => `<mjml>\n<mj-body>\n<mj-section>\n<mj-column>\n${body}\n</mj-column>\n</mj-section>\n</mj-body>\n</mjml>`;

describe.each(TEST_DIALECTS)('template preview and test send on %s', (dialect) => {
  let s: MessagingStack;
  let customer: number;

  beforeAll(async () => {
    s = await messagingStack(dialect, { PATRON_RENDER_LIMIT_MS: String(LIMIT_MS), PATRON_RENDER_BUDGET_MS: '1000' });
    await expectOk(s.admin('PUT', '/channels/email', { smtp_url: 'smtp://127.0.0.1:2525', from: 'Shop <shop@example.org>' }));
    await expectOk(s.admin('PUT', '/channels/sms', { provider: 'test_sms', api_key: 'sms-key-0123456789abcdef', sender: 'SHOP' }));
    await expectOk(s.admin('POST', '/custom-properties', { code: 'locale', type: 'string' }), 201);
    const did = (await s.t.app.inject({ method: 'GET', url: `/init?shop_id=${s.shopId}` })).json().did as string;
    await s.t.app.services.profiles.setProfile(
      { shopId: s.shopId, timezone: 'UTC' },
      { did, identifiers: {} },
      { email: 'ann@example.org', first_name: '<script>alert(1)</script>Ann', locale: 'de-AT' },
    );
    customer = (await s.t.app.services.identity.resolveProfile(s.shopId, { email: 'ann@example.org' })).profileId;
  });

  afterAll(async () => {
    await s.t.close();
  });

  const preview = (body: object) => s.admin('POST', '/templates/preview', body);
  const welcome = {
    email: {
      subject: 'Hello {{ profile.first_name }}',
      html: MJML('<mj-text>Dear {{ profile.first_name }}, your code is {{ code }}</mj-text>'),
    },
    sms: { body: 'Code {{ variables.code }} for {{ profile.email }}' },
    locales: { de: { email: { subject: 'Hallo {{ profile.first_name }}', html: '<p>Hallo</p>' } } },
  };

  it('renders an email with the sample profile: subject, the HTML after MJML, the text part', async () => {
    const r = await expectOk(preview({ channel: 'email', template: welcome, variables: { code: 'A1' } }));
    expect(r).toMatchObject({ channel: 'email', locale: null, errors: [], profile: { source: 'sample', id: null } });
    expect(r.rendered.subject).toBe('Hello Jane');
    expect(r.rendered.html).toMatch(/^<!doctype html>/i);
    expect(r.rendered.html).toContain('Dear Jane, your code is A1');
    expect(r.rendered.text).toContain('Dear Jane, your code is A1');
    const sms = await expectOk(preview({ channel: 'sms', template: welcome, variables: { code: 'A1' } }));
    expect(sms.rendered).toEqual({ body: 'Code A1 for jane.doe@example.com' });
  });

  it("renders with a real customer's profile, escaped in HTML, in the variant of their locale unless one is asked", async () => {
    const r = await expectOk(preview({ channel: 'email', template: welcome, profile_id: customer }));
    expect(r).toMatchObject({ locale: 'de', profile: { source: 'customer', id: customer }, errors: [] });
    expect(r.rendered.subject).toBe('Hallo <script>alert(1)</script>Ann');
    const en = await expectOk(preview({ channel: 'email', template: welcome, profile_id: customer, locale: 'en' }));
    expect(en.locale).toBeNull();
    expect(en.rendered.html).toContain('Dear &lt;script&gt;alert(1)&lt;/script&gt;Ann');
    expect(en.rendered.html).not.toContain('<script>');
    // The channel without a variant renders its default, whatever the locale.
    expect((await expectOk(preview({ channel: 'sms', template: welcome, profile_id: customer }))).rendered.body).toBe(
      'Code  for ann@example.org',
    );
    const missing = await preview({ channel: 'email', template: welcome, profile_id: 987_654 });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.message).toBe('Customer is not found.');
  });

  it('answers Liquid and MJML errors at their line with 200, rendering what parses', async () => {
    const broken = { email: { subject: 'Hi {{ x | shout }}', html: 'one\n{% if x %}\nno end' }, sms: { body: 'fine {{ x }}' } };
    const r = await expectOk(preview({ channel: 'email', template: broken }));
    expect(r.rendered).toBeNull();
    expect(r.errors).toEqual([
      { field: 'email.subject', line: 1, column: 4, message: 'undefined filter: shout' },
      { field: 'email.html', line: 2, column: 1, message: 'tag {% if x %} not closed' },
    ]);
    const sms = await expectOk(preview({ channel: 'sms', template: broken, variables: { x: 1 } }));
    expect(sms.rendered).toEqual({ body: 'fine 1' });
    expect((sms.errors as Array<{ field: string }>).map((e) => e.field)).toEqual(['email.subject', 'email.html']);
    const locale = await expectOk(
      preview({ channel: 'sms', template: { sms: { body: 'ok' }, locales: { de: { sms: { body: '{{ oops' } } } } }),
    );
    expect(locale.errors).toEqual([{ field: 'locales.de.sms.body', line: 1, column: 1, message: expect.stringMatching(/not closed/) }]);
    const mjml = await expectOk(
      preview({
        channel: 'email',
        template: { email: { subject: 's', html: MJML('<mj-text foo="bar">x</mj-text>\n<mj-bogus>y</mj-bogus>') } },
      }),
    );
    expect(mjml.rendered.html).toContain('x');
    expect(mjml.errors).toEqual([
      { field: 'email.html', line: 5, message: 'MJML: Attribute foo is illegal' },
      { field: 'email.html', line: 6, message: expect.stringMatching(/^MJML: Element mj-bogus doesn't exist/) },
    ]);
  });

  const limits: Array<[string, string, RegExp]> = [
    [
      'a loop over a million items',
      '{% for i in (1..1000000) %}{{ i }}{% endfor %}',
      new RegExp(`^sms\\.body takes more than ${LIMIT_MS} ms`),
    ],
    // Few iterations of a long text: the output passes its limit long before the time limit,
    // however slow the machine (30,000 short ones took over 300 ms on a loaded CI host).
    ['a huge output', `{% for i in (1..300) %}${'x'.repeat(4_000)}{% endfor %}`, /^sms\.body renders to more than 1000000 characters$/],
    [
      'a value doubled past the memory limit',
      '{% assign s = "xxxxxxxxxx" %}{% for i in (1..30) %}{% assign s = s | append: s %}{% endfor %}{{ s | size }}',
      /memory alloc limit exceeded/,
    ],
  ];

  it.each(limits)('cuts %s off at its limit in the preview, with the field and the reason', async (_name, body, message) => {
    // The shop's render budget refills with the clock, which stands still otherwise.
    s.t.clock.advance(5_000);
    const started = Date.now();
    const r = await expectOk(preview({ channel: 'sms', template: { sms: { body } } }));
    expect(Date.now() - started).toBeLessThan(LIMIT_MS * 2 + 2000);
    expect(r.rendered).toBeNull();
    expect(r.errors).toEqual([
      {
        field: 'sms.body',
        message: expect.stringMatching(message),
        ...(r.errors[0].line && { line: r.errors[0].line, column: r.errors[0].column }),
      },
    ]);
    // The send path renders with the same limits: the delivery fails with the reason.
    await expectOk(s.admin('PUT', '/mailings/transactional/heavy', { sms: { body } }));
    const sent = await expectOk(s.transact({ code: 'heavy', phone: '79001112233' }));
    s.t.clock.advance(5_000);
    await s.runner.runDue();
    const [delivery] = await s.t.db.db
      .selectFrom('messaging_deliveries')
      .select(['status', 'error'])
      .where('shop_id', '=', s.shopId)
      .where('code', '=', sent.payload.code as string)
      .execute();
    expect(delivery!.status).toBe('failed');
    expect(delivery!.error).toMatch(new RegExp(`^The template does not render: .*${message.source.replace(/^\^/, '')}`));
  });

  it('refuses a recursive or deep include at parse, naming the field and line', async () => {
    const include = await expectOk(preview({ channel: 'sms', template: { sms: { body: 'a\n{% include "self" %}' } } }));
    expect(include.errors).toEqual([
      { field: 'sms.body', line: 2, column: 1, message: 'the include tag is not available: templates cannot read files' },
    ]);
    const nested = `${'{% if true %}'.repeat(8_000)}x${'{% endif %}'.repeat(8_000)}`;
    const deep = await expectOk(preview({ channel: 'email', template: { email: { subject: 's', html: `a\n${nested}` } } }));
    expect(deep.rendered).toBeNull();
    expect(deep.errors).toEqual([{ field: 'email.html', line: 2, column: 1 + 13 * 100, message: 'blocks nest deeper than 100' }]);
    // Saved the same: refused, the server standing.
    const put = await s.admin('PUT', '/mailings/transactional/deep', { email: { subject: 's', html: nested } });
    expect(put.statusCode).toBe(422);
    expect(put.json().error.message).toBe('Template email.html does not parse: blocks nest deeper than 100, line:1, col:1301');
    const fine = `${'{% if true %}'.repeat(100)}ok${'{% endif %}'.repeat(100)}`;
    expect((await expectOk(preview({ channel: 'email', template: { email: { subject: 's', html: fine } } }))).rendered.html).toBe('ok');
  });

  it('refuses a channel the template lacks and variables over their bounds with 422', async () => {
    const none = await preview({ channel: 'telegram', template: welcome });
    expect(none.statusCode).toBe(422);
    expect(none.json().error.message).toBe('Field `template.telegram` is required: the template has none for the channel.');
    const big = await preview({ channel: 'sms', template: welcome, variables: { x: 'y'.repeat(20_000) } });
    expect(big.statusCode).toBe(422);
    expect(big.json().error.message).toMatch(/^Variable `x` is too large/);
  });

  it('sends a test through the real channel, recorded in the delivery log as a test, with no tracking links', async () => {
    const template = {
      email: { subject: 'Test for {{ profile.first_name }}', html: '<p><a href="https://shop.example/x">Go</a> {{ code }}</p>' },
    };
    const { code } = await expectOk(
      s.admin('POST', '/templates/test', { channel: 'email', template, to: 'me@example.org', variables: { code: 'Z9' } }),
    );
    await s.runner.runDue();
    const mail = s.email.sent.at(-1)!.message;
    expect(mail).toMatchObject({ to: 'me@example.org', subject: 'Test for Jane' });
    expect(mail.html).toContain('<a href="https://shop.example/x">Go</a> Z9');
    expect(mail.html).not.toMatch(/<img/);
    const log = await expectOk(s.admin('GET', `/messages?code=${code}`));
    expect(log.messages).toEqual([
      expect.objectContaining({ code, channel: 'email', to: 'me@example.org', status: 'sent', test: true, type: 'transactional' }),
    ]);
    // The audit log records the send as every admin write.
    const audit = await s.t.db.db
      .selectFrom('audit_log')
      .select(['route', 'status'])
      .where('shop_id', '=', s.shopId)
      .where('route', '=', '/admin/v1/shops/:shop_id/templates/test')
      .execute();
    expect(audit).toEqual([{ route: '/admin/v1/shops/:shop_id/templates/test', status: 200 }]);
    // With a customer: their profile, still to the typed address.
    await expectOk(
      s.admin('POST', '/templates/test', {
        channel: 'sms',
        template: { sms: { body: 'Hi {{ profile.email }}' } },
        to: '79005556677',
        profile_id: customer,
      }),
    );
    await s.runner.runDue();
    expect(s.sms.sent.at(-1)!.message).toMatchObject({ to: '79005556677', body: 'Hi ann@example.org' });
  });

  it('refuses a test that cannot go: a bad address, a channel not configured, push without a customer, a template that does not parse', async () => {
    const test = (body: object) => s.admin('POST', '/templates/test', body);
    const email = { email: { subject: 's', html: 'h' } };
    const cases: Array<[object, string]> = [
      [{ channel: 'email', template: email, to: 'not an address' }, 'Field `to` must be an email address for a test on email.'],
      [{ channel: 'email', template: email }, 'Field `to` must be an email address for a test on email.'],
      [{ channel: 'telegram', template: { telegram: { text: 't' } }, to: '123' }, 'Channel telegram is not configured for the shop.'],
      [
        { channel: 'email', template: { email: { subject: '{{ x', html: 'h' } }, to: 'a@example.org' },
        'Template email.subject does not parse: output "{{ x" not closed, line:1, col:1',
      ],
    ];
    for (const [body, message] of cases) {
      const r = await test(body);
      expect(r.statusCode, r.body).toBe(422);
      expect(r.json().error.message).toBe(message);
    }
    const push = await test({ channel: 'mobile_push', template: { mobile_push: { title: 't', body: 'b' } } });
    expect(push.statusCode).toBe(422);
  });

  it('rate-limits test sends per shop: the 31st of the hour is 429 with Retry-After, and the next hour sends again', async () => {
    const { shopId } = await createShopFixture(s.t.app.services);
    const call = (method: 'PUT' | 'POST', path: string, payload: object) =>
      s.t.app.inject({ method, url: `/admin/v1/shops/${shopId}${path}`, headers: s.t.adminHeaders, payload });
    await expectOk(call('PUT', '/channels/sms', { provider: 'test_sms', api_key: 'sms-key-0123456789abcdef', sender: 'SHOP' }));
    const body = { channel: 'sms', template: { sms: { body: 'hi' } }, to: '79001230000' };
    const answers = await Promise.all(Array.from({ length: 35 }, () => call('POST', '/templates/test', body)));
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(30);
    const refused = answers.filter((r) => r.statusCode === 429);
    expect(refused).toHaveLength(5);
    expect(refused[0]!.json().error.message).toBe('The shop has sent its 30 test messages of the hour; try again in 60 min.');
    expect(refused[0]!.headers['retry-after']).toBe('3600');
    const messages = await s.t.db.db.selectFrom('messaging_messages').select('code').where('shop_id', '=', shopId).execute();
    expect(messages).toHaveLength(30);
    s.t.clock.advance(60 * 60 * 1000);
    expect((await call('POST', '/templates/test', body)).statusCode).toBe(200);
  });
});
