import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { RenderBudgetSpent, TemplateRenderer } from '../../../src/modules/messaging/render.js';

/**
 * Where the renderer renders (issue 33, part 3): a cheap template in the calling thread, at
 * no hop's cost; a heavy one in the render thread, so the caller's thread stays free; and
 * each shop within its render budget. The clock stands still: no budget refills.
 */

const HEAVY = { sms: { body: '{% for a in (1..100000) %}{% for b in (1..100000) %}{% endfor %}{% endfor %}' } };
const CHEAP = { sms: { body: 'Order {{ order }} is on its way' } };

let renderer: TemplateRenderer | undefined;
afterEach(async () => {
  await renderer?.close();
  renderer = undefined;
});

/**
 * `inlineLimitMs`: a test of where a cheap template renders sets it far above the render's
 * time, so that a pause of a loaded machine in the middle of it does not send it elsewhere.
 */
function newRenderer(limitMs: number, budgetMsPerSecond = limitMs, inlineLimitMs?: number): TemplateRenderer {
  renderer = new TemplateRenderer({
    clock: new ManualClock(),
    limits: { limitMs, budgetMsPerSecond },
    ...(inlineLimitMs ? { inlineLimitMs } : {}),
  });
  return renderer;
}

/** Which settles first: the render, or a callback queued behind the thread's pending I/O just after the call. */
async function firstToSettle(render: Promise<unknown>): Promise<string[]> {
  const order: string[] = [];
  const settled = render.then(
    () => order.push('render'),
    () => order.push('render'),
  );
  await new Promise<void>((resolve) =>
    setImmediate(() => {
      order.push('immediate');
      resolve();
    }),
  );
  await settled;
  return order;
}

describe('template renderer', () => {
  it('renders a cheap template in the calling thread: it settles before the next turn of the event loop', async () => {
    const r = newRenderer(300, 300, 5_000);
    expect(await r.render('shop-a', CHEAP, 'sms', { order: 'A1' })).toEqual({ body: 'Order A1 is on its way' });
    expect(await firstToSettle(r.render('shop-a', CHEAP, 'sms', { order: 'A2' }))).toEqual(['render', 'immediate']);
  });

  it('renders a heavy template in the render thread: the calling thread turns meanwhile, and the render is cut off at the limit', async () => {
    const r = newRenderer(300);
    const render = r.render('shop-a', HEAVY, 'sms', {});
    const outcome = render.catch((error: unknown) => error);
    expect(await firstToSettle(render)).toEqual(['immediate', 'render']);
    expect(((await outcome) as Error).message).toBe('sms.body takes more than 300 ms to render');
  });

  it("renders a shop's burst of heavy messages one limit's worth at a time, refusing the rest with when to come back", async () => {
    const r = newRenderer(200);
    const outcomes = await Promise.all(
      Array.from({ length: 5 }, () => r.render('shop-a', HEAVY, 'sms', {}).catch((error: unknown) => error)),
    );
    const cutOff = outcomes.filter((o) => o instanceof Error && o.message === 'sms.body takes more than 200 ms to render');
    const refused = outcomes.filter((o): o is RenderBudgetSpent => o instanceof RenderBudgetSpent);
    expect(cutOff).toHaveLength(1);
    expect(refused).toHaveLength(4);
    // One slot apart, each about one render's time repaid.
    const waits = refused.map((o) => o.waitMs);
    expect([...waits].sort((a, b) => a - b)).toEqual(waits);
    // Another shop renders on its own balance.
    expect(await r.render('shop-b', CHEAP, 'sms', { order: 'B1' })).toEqual({ body: 'Order B1 is on its way' });
  });

  it('ends a render Liquid cannot stop (an MJML compile) at twice the limit, and renders on in a new thread', async () => {
    // A limit a fresh thread's first cheap render stays far below on a loaded machine, and an
    // MJML compile of some seconds far above it.
    const r = newRenderer(150, 10_000);
    // Liquid has one tag to render here: the time is the MJML compile's.
    const sections = Array.from(
      { length: 3_000 },
      (_, i) => `<mj-section><mj-column><mj-text>Line ${i}</mj-text></mj-column></mj-section>`,
    ).join('');
    const mjml = { email: { subject: 'Hi', html: `<mjml><mj-body><mj-text>{{ name }}</mj-text>${sections}</mj-body></mjml>` } };
    await expect(r.render('shop-a', mjml, 'email', { name: 'Ann' })).rejects.toThrow('email.html (MJML) takes more than 150 ms to render');
    expect(await r.renderAll('shop-b', CHEAP, { order: 'B2' })).toEqual({ sms: { body: 'Order B2 is on its way' } });
  });

  it('names the MJML compile as what took too long when a preview of an email gets past its Liquid', async () => {
    const r = newRenderer(150, 10_000);
    const sections = Array.from(
      { length: 3_000 },
      (_, i) => `<mj-section><mj-column><mj-text>Line ${i}</mj-text></mj-column></mj-section>`,
    ).join('');
    const mjml = { email: { subject: 'Hi', html: `<mjml><mj-body><mj-text>{{ name }}</mj-text>${sections}</mj-body></mjml>` } };
    await expect(r.renderAll('shop-a', mjml, { name: 'Ann' })).rejects.toThrow('email.html (MJML) takes more than 150 ms to render');
  });

  it('fails a render whose values cannot reach the render thread, in words, and renders the next', async () => {
    const r = newRenderer(300);
    await expect(r.renderAll('shop-a', CHEAP, { order: () => 'A3' })).rejects.toThrow('The template could not be rendered.');
    expect(await r.renderAll('shop-a', CHEAP, { order: 'A4' })).toEqual({ sms: { body: 'Order A4 is on its way' } });
  });
});
