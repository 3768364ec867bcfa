import { execFile } from 'node:child_process';
import net from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbOptions } from '../../src/db/create-db.js';
import { freshDbOptions, removeDatabase, TEST_DIALECTS } from '../helpers/db.js';
import { startSmtpPeer } from '../helpers/smtp-peer.js';
import { threadNice } from '../../src/process/thread-priority.js';
import { CliProcess, databaseEnv, type Env } from './cli-harness.js';

const run = promisify(execFile);
const WELCOME = /-{72}\n[\s\S]*?-{72}\n/;

interface ShopList {
  shops: { shop_id: string; name: string }[];
}

/** Runs one line of the welcome block through a shell, exactly as a reader would paste it. */
async function paste(line: string): Promise<unknown> {
  const { stdout } = await run('sh', ['-c', `${line} --silent --show-error --fail --max-time 10`]);
  return JSON.parse(stdout);
}

describe.each(TEST_DIALECTS)('patron serve on %s', (dialect) => {
  let db: DbOptions;
  let env: Env;
  const processes: CliProcess[] = [];
  let adminToken = '';
  let demoShopId = '';
  let demoSecret = '';

  function start(args: string[] = ['serve'], extraEnv: Record<string, string> = {}): CliProcess {
    const child = CliProcess.start(args, { ...env, ...extraEnv });
    processes.push(child);
    return child;
  }

  beforeAll(async () => {
    db = await freshDbOptions(dialect);
    env = { ...databaseEnv(db), PORT: '0', HOST: '127.0.0.1' };
  });
  afterAll(async () => {
    for (const child of processes) child.kill();
    await removeDatabase(db);
  });

  it('on first start prints the admin token once with curl lines that work, creates the demo shop, and exits 0 on SIGTERM', async () => {
    const server = start();
    const baseUrl = await server.waitUntilServing();
    const welcome = (await server.waitForOutput(WELCOME))[0];

    adminToken = /Admin token \(shown only this once[^\n]*\n {2}(\S+)\n/.exec(welcome)?.[1] ?? '';
    expect(adminToken).toMatch(/^[A-Za-z0-9_-]{40}$/);
    demoShopId = /shop_id {6}([0-9a-f]{30})\n/.exec(welcome)?.[1] ?? '';
    expect(demoShopId).not.toBe('');
    demoSecret = /shop_secret {2}(\S{32,})\n/.exec(welcome)?.[1] ?? '';
    expect(demoSecret).not.toBe('');

    const curls = welcome
      .split('\n')
      .filter((l) => l.startsWith('  curl '))
      .map((l) => l.trim());
    expect(curls).toHaveLength(22);
    expect(await paste(curls[0]!)).toEqual({ status: 'ok' });
    const listed = (await paste(curls[1]!)) as ShopList;
    expect(listed.shops.map((s) => [s.shop_id, s.name])).toEqual([[demoShopId, 'Demo shop']]);
    expect(await paste(curls[2]!)).toMatchObject({ name: 'My shop', shop_id: expect.stringMatching(/^[0-9a-f]{30}$/) });
    // The public API against the demo shop's sample data, in the printed order.
    expect(await paste(curls[3]!)).toMatchObject({ did: 'demo000001', sid: expect.stringMatching(/^[A-Za-z0-9]{10}$/) });
    expect(await paste(curls[4]!)).toEqual({ status: 'success' });
    expect(await paste(curls[5]!)).toMatchObject({
      status: 'success',
      data: { items: [{ uniqid: '1003', quantity: 1, product: { id: '1003', name: 'Linen T-shirt, sand' } }] },
    });
    expect(await paste(curls[6]!)).toEqual({ status: 'success' });
    expect(await paste(curls[7]!)).toMatchObject({ id: '1003', discount: true, price_formatted: '1 490 ₽' });
    const found = (await paste(curls[8]!)) as { products_total: number; products: unknown[]; brands: { name: string; count: number }[] };
    expect(found.products_total).toBe(3);
    expect(found.products).toHaveLength(2);
    expect(found.brands).toEqual([{ name: 'Northwind', count: 3 }]);
    const collection = (await paste(curls[9]!)) as { products: { id: string }[] };
    expect(collection.products.map((p) => p.id)).toEqual(['1003', '1101', '2001']);
    // The product page's block: similar products of the T-shirt (demo.ts), never the T-shirt itself.
    const recommended = (await paste(curls[10]!)) as { id: number; title: string; recommends: string[] };
    expect(recommended).toMatchObject({ title: 'You may also like', html: '' });
    expect(recommended.recommends).toHaveLength(6);
    expect(recommended.recommends).not.toContain('1003');
    const tree = (await paste(curls[11]!)) as { name: string; children: { name: string }[] }[];
    expect(tree.map((node) => node.name)).toEqual(['Clothing', 'Home']);
    expect(await paste(curls[12]!)).toMatchObject({ status: 'success', payload: { properties: { code: 'main_banner' } } });
    expect(await paste(curls[13]!)).toEqual({
      status: 'success',
      payload: { member: true, level: { name: 'Silver', code: 'silver', expiration_date: null } },
    });
    const estimate = (await paste(curls[14]!)) as { status: string; payload: Record<string, unknown> };
    // 4,780.00: 10% off the pan (329.00), WELCOME (200.00), 100 bonuses; 5% of what is paid as reward.
    expect(estimate).toMatchObject({
      status: 'success',
      payload: {
        order_total: 4780,
        saved_by_offers: 529,
        saved_by_bonuses: 100,
        order_to_pay: 4151,
        bonuses_reward: 207.55,
        promo_codes: ['WELCOME'],
      },
    });

    // The demo member's paid subscription: its benefits with this month's use, and the order that took one.
    const subscriber = (await paste(curls[15]!)) as {
      success: boolean;
      payload: { member: Record<string, unknown>; benefits: { code: string; value: unknown }[] };
    };
    expect(subscriber).toMatchObject({
      success: true,
      payload: { member: { identifier: '79001234567', subscription: 'plus', plan: 'monthly', active: true } },
    });
    expect(subscriber.payload.benefits.map((b) => b.code)).toEqual(['free_delivery', 'bonus_multiplier', 'members_sale']);
    expect(subscriber.payload.benefits[2]?.value).toMatchObject({
      savings_limit: 1000,
      savings_used: 149,
      savings_left: 851,
      usage_limit: 3,
      usage_used: 1,
      usage_left: 2,
    });
    expect(await paste(curls[16]!)).toMatchObject({
      success: true,
      payload: {
        orders: [
          {
            id: 'demo-plus-1',
            status: 'completed',
            total: '1341.00',
            items: [{ id: '1003', name: 'Linen T-shirt, sand', quantity: 1, price: 1341 }],
          },
        ],
      },
    });

    // The home screen's story set: the carousel's two kitchen products, filled from the feed.
    const stories = (await paste(curls[17]!)) as {
      stories: { name: string; viewed: boolean; slides: { elements: { type: string }[] }[] }[];
    };
    expect(stories.stories).toMatchObject([{ name: 'Kitchen week', viewed: false }]);
    expect(stories.stories[0]!.slides.map((slide) => slide.elements.map((element) => element.type))).toEqual([
      ['header', 'products'],
      ['product'],
    ]);
    expect(await paste(curls[18]!)).toEqual({ status: 'success' });

    // The demo's transactional mailing: answered with a code; no channel is configured, so the log says why.
    const sent = (await paste(curls[19]!)) as { success: boolean; payload: { code: string } };
    expect(sent).toMatchObject({ success: true, payload: { code: expect.stringMatching(/\S/) } });
    const log = JSON.stringify(await paste(curls[20]!));
    expect(log).toContain(sent.payload.code);
    expect(log).toContain('not configured');
    // The SMTP catcher line is not pasted: it needs a catcher and PATRON_FETCH_ALLOW_PRIVATE.
    expect(curls[21]).toContain(`-d '{"smtp_url":"smtp://127.0.0.1:1025",`);
    expect(curls[21]).toContain(`/admin/v1/shops/${demoShopId}/channels/email`);
    expect(welcome).toContain('PATRON_FETCH_ALLOW_PRIVATE=127.0.0.1');

    expect(welcome).toContain(`${baseUrl}/docs`);
    const docs = await fetch(`${baseUrl}/docs/json`);
    expect(docs.status).toBe(200);

    server.signal('SIGTERM');
    expect(await server.exit()).toBe(0);
    expect(server.stdout).toContain('"msg":"Stopped"');
    // By default the job thread keeps the HTTP thread's priority (docs/messaging.md, "The job thread's priority").
    expect(server.stdout).toMatch(/"nice":null,"niceNotApplied":"not asked for"[^\n]*"msg":"Job thread started"/);
  }, 90_000);

  it('on a later start prints no new token, creates no second demo shop, and keeps the first token', async () => {
    expect(adminToken).not.toBe('');
    // With a lowered job thread (PATRON_JOB_THREAD_NICE; 0, the default, leaves it as the HTTP thread).
    const server = start(['serve'], { PATRON_JOB_THREAD_NICE: '19' });
    const baseUrl = await server.waitUntilServing();
    const response = await fetch(`${baseUrl}/admin/v1/shops`, { headers: { authorization: `Bearer ${adminToken}` } });
    expect(response.status).toBe(200);
    const { shops } = (await response.json()) as ShopList;
    expect(shops.filter((s) => s.name === 'Demo shop').map((s) => s.shop_id)).toEqual([demoShopId]);
    expect(server.stdout).toContain('"msg":"Job thread started"');
    // The job thread runs at PATRON_JOB_THREAD_NICE as the kernel reads it back, where threads have one of their own.
    if (process.platform === 'linux' && (threadNice() ?? 0) < 19)
      expect(server.stdout).toMatch(/"nice":19,[^\n]*"msg":"Job thread started"/);

    server.signal('SIGINT');
    expect(await server.exit()).toBe(0);
    expect(server.stdout).not.toMatch(WELCOME);
    expect(server.stdout).not.toContain('Admin token');
  }, 90_000);

  it('delivers from its job thread: a /transact email reaches an SMTP peer', async () => {
    expect(demoSecret).not.toBe('');
    const peer = await startSmtpPeer();
    const child = CliProcess.start(['serve'], { ...env, PATRON_FETCH_ALLOW_PRIVATE: '127.0.0.1' });
    processes.push(child);
    try {
      const baseUrl = await child.waitUntilServing();
      const admin = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
      const channel = await fetch(`${baseUrl}/admin/v1/shops/${demoShopId}/channels/email`, {
        method: 'PUT',
        headers: admin,
        body: JSON.stringify({ smtp_url: `smtp://127.0.0.1:${peer.port}`, from: 'Demo shop <shop@example.org>' }),
      });
      expect(channel.status).toBe(200);
      const sent = await fetch(`${baseUrl}/transact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          shop_id: demoShopId,
          shop_secret: demoSecret,
          code: 'order_placed',
          email: 'thread@example.org',
          variables: { order_id: '7', total: '1.00' },
        }),
      });
      expect(sent.status).toBe(200);
      const deadline = Date.now() + 20_000;
      while (!peer.received.some((mail) => mail.rcptTo.includes('thread@example.org')) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(peer.received.map((mail) => mail.rcptTo)).toContainEqual(['thread@example.org']);
      // The thread's idle SMTP connection does not hold the shutdown up (the grace is 20 s).
      const stopping = Date.now();
      child.signal('SIGTERM');
      expect(await child.exit()).toBe(0);
      expect(Date.now() - stopping).toBeLessThan(15_000);
      expect(child.stdout).toContain('"msg":"Stopped"');
    } finally {
      await peer.close();
    }
  }, 90_000);

  it('renders a heavy template off both threads: /health answers while it previews, and its delivery fails with the limit', async () => {
    const child = start(['serve'], { PATRON_RENDER_LIMIT_MS: '300' });
    const baseUrl = await child.waitUntilServing();
    const admin = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
    const mailings = `${baseUrl}/admin/v1/shops/${demoShopId}/mailings/transactional`;
    const heavy = '{% for a in (1..100000) %}{% for b in (1..100000) %}{% endfor %}{% endfor %}';
    const channel = await fetch(`${baseUrl}/admin/v1/shops/${demoShopId}/channels/email`, {
      method: 'PUT',
      headers: admin,
      body: JSON.stringify({ smtp_url: 'smtp://127.0.0.1:9', from: 'Demo shop <shop@example.org>' }),
    });
    expect(channel.status).toBe(200);
    const put = await fetch(`${mailings}/heavy`, {
      method: 'PUT',
      headers: admin,
      body: JSON.stringify({ email: { subject: 'Hi', html: heavy } }),
    });
    expect(put.status).toBe(200);

    const finished: string[] = [];
    const preview = fetch(`${mailings}/heavy/preview`, { method: 'POST', headers: admin, body: '{}' }).then(async (r) => {
      finished.push('preview');
      return { status: r.status, body: (await r.json()) as { error: { message: string } } };
    });
    await new Promise((r) => setTimeout(r, 50));
    const health = await fetch(`${baseUrl}/health`);
    finished.push('health');
    expect(health.status).toBe(200);
    const answer = await preview;
    expect(finished).toEqual(['health', 'preview']);
    expect(answer).toEqual({
      status: 422,
      body: { error: expect.objectContaining({ message: 'The mailing does not render: email.html takes more than 300 ms to render' }) },
    });

    // The job thread renders it in a render thread of its own, cut off at the same limit.
    const sent = await fetch(`${baseUrl}/transact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ shop_id: demoShopId, shop_secret: demoSecret, code: 'heavy', email: 'heavy@example.org' }),
    });
    expect(sent.status).toBe(200);
    const { payload } = (await sent.json()) as { payload: { code: string } };
    let log: { messages: { status: string; error?: string }[] } = { messages: [] };
    const deadline = Date.now() + 20_000;
    while (log.messages[0]?.status !== 'failed' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      log = (await (
        await fetch(`${baseUrl}/admin/v1/shops/${demoShopId}/messages?code=${payload.code}`, { headers: admin })
      ).json()) as typeof log;
    }
    expect(log.messages).toMatchObject([
      { status: 'failed', error: 'The template does not render: email.html takes more than 300 ms to render' },
    ]);
    child.signal('SIGTERM');
    expect(await child.exit()).toBe(0);
  }, 90_000);

  it('exits at once with 1 on a second signal while a request holds the shutdown up', async () => {
    const server = start(['serve', '--no-worker']);
    const baseUrl = await server.waitUntilServing();
    const { port } = new URL(baseUrl);

    // A request whose body never finishes arriving keeps app.close() waiting.
    const socket = net.connect(Number(port), '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /admin/v1/shops HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${adminToken}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"na',
    );
    await new Promise((r) => setTimeout(r, 200));

    server.signal('SIGTERM');
    await server.waitForOutput(/"msg":"Shutting down"/);
    await new Promise((r) => setTimeout(r, 300));
    expect(server.stdout).not.toContain('"msg":"Stopped"');
    server.signal('SIGTERM');
    expect(await server.exit(10_000)).toBe(1);
    expect(server.stdout).toContain('Second signal: exiting without waiting');
    socket.destroy();
  }, 90_000);

  it('runs job workers alone with `patron worker` and stops on SIGTERM', async () => {
    const worker = start(['worker']);
    await worker.waitForOutput(/"msg":"Job worker started"/);
    worker.signal('SIGTERM');
    expect(await worker.exit()).toBe(0);
    expect(worker.stdout).not.toContain('listening');
  }, 90_000);
});
