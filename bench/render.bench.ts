import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { systemClock } from '../src/clock.js';
import { TemplateRenderer, templateScope } from '../src/modules/messaging/render.js';
import { TemplateEngine } from '../src/modules/messaging/template-engine.js';
import { positive } from './lib/args.js';

/**
 * `npm run bench:render` (issue 33, part 3): what rendering one message costs the
 * thread that sends it, for bench:transact's email (subject, HTML, text):
 *
 * - bare: the Liquid engine alone, as every render ran before the render limits;
 * - inline: TemplateRenderer.render, the deliveries' path for a template known cheap (the
 *   budget's bookkeeping on top of the engine);
 * - render thread: the same message rendered in the render thread (the preview's path, and
 *   a heavy template's), one at a time (its latency) and 32 in flight (the calling
 *   thread's busy time per message, from its event-loop utilisation);
 * - and one MJML compile of a small layout in the render thread, for the scale of the budget.
 *
 *   npm run bench:render -- [--messages 20000] [--rounds 5]
 */

const { values } = parseArgs({ options: { messages: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '5' } } });
const MESSAGES = positive('messages', values.messages, 10_000_000, true);
const ROUNDS = positive('rounds', values.rounds, 100, true);

const HTML =
  '<html><body><h1>Order {{ order }}</h1><p>Hello {{ name }}, thank you for your order of {{ total }}.</p><p><a href="https://shop.example/orders/{{ order }}">Your order</a></p></body></html>';
const SET = { email: { subject: 'Order {{ order }}', html: HTML, text: 'Order {{ order }}: {{ total }}' } };
const MJML = {
  email: {
    subject: 'Order {{ order }}',
    html: '<mjml><mj-body><mj-section><mj-column><mj-text>Hello {{ name }}</mj-text><mj-button href="https://shop.example/o/{{ order }}">Your order</mj-button></mj-column></mj-section></mj-body></mjml>',
  },
};
const scopeOf = (i: number) => templateScope({ order: `A${i}`, name: 'Ann', total: '12.50' }, {});

interface Figure {
  readonly wallUs: number;
  readonly busyUs: number;
  readonly cpuUs: number;
}

/** Per message: wall time, the calling thread's busy time (event-loop utilisation's active time), and the process's CPU time (every thread). */
async function measure(count: number, run: (i: number) => Promise<unknown>, inFlight: number): Promise<Figure> {
  const elu = performance.eventLoopUtilization();
  const cpu = process.cpuUsage();
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < count) await run(next++);
    }),
  );
  const wall = performance.now() - started;
  const { active } = performance.eventLoopUtilization(elu);
  const { user, system } = process.cpuUsage(cpu);
  return { wallUs: (wall * 1000) / count, busyUs: (active * 1000) / count, cpuUs: (user + system) / count };
}

function median(figures: readonly Figure[], key: keyof Figure): number {
  const sorted = figures.map((f) => f[key]).sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

async function main(): Promise<void> {
  const engine = new TemplateEngine(500);
  const renderer = new TemplateRenderer({ clock: systemClock, limits: { limitMs: 500, budgetMsPerSecond: 1_000 } });
  // Each shop renders within its budget; a bench of many messages spreads them over shops so that none waits.
  const shopOf = (i: number) => `shop-${i % 1_000}`;
  const offloaded = Math.max(1, Math.round(MESSAGES / 10));
  const rows: Record<string, Figure[]> = { bare: [], inline: [], 'render thread, 1 in flight': [], 'render thread, 32 in flight': [] };
  await renderer.renderAll('warm', SET, scopeOf(0));
  for (let round = 0; round < ROUNDS; round += 1) {
    rows.bare!.push(await measure(MESSAGES, (i) => engine.renderChannel(SET, 'email', scopeOf(i)), 1));
    rows.inline!.push(await measure(MESSAGES, (i) => renderer.render(shopOf(i), SET, 'email', scopeOf(i)), 1));
    rows['render thread, 1 in flight']!.push(await measure(offloaded, (i) => renderer.renderAll(shopOf(i), SET, scopeOf(i)), 1));
    rows['render thread, 32 in flight']!.push(await measure(offloaded, (i) => renderer.renderAll(shopOf(i), SET, scopeOf(i)), 32));
  }
  const bare = median(rows.bare!, 'busyUs');
  console.log(`Rendering bench:transact's email, median of ${ROUNDS} rounds (µs per message)`);
  console.log('path                          wall   calling thread busy   × bare   CPU, all threads');
  for (const [name, figures] of Object.entries(rows)) {
    const busy = median(figures, 'busyUs');
    const columns = [
      median(figures, 'wallUs').toFixed(1).padStart(6),
      busy.toFixed(1).padStart(19),
      (busy / bare).toFixed(2).padStart(6),
      median(figures, 'cpuUs').toFixed(1).padStart(16),
    ];
    console.log(`${name.padEnd(28)} ${columns.join('   ')}`);
  }
  // One MJML compile: the first loads mjml; the next ones are what a message with a new input costs.
  await renderer.renderAll('mjml', MJML, scopeOf(0));
  const mjml = await measure(20, (i) => renderer.renderAll(`mjml-${i}`, MJML, scopeOf(i + 1)), 1);
  console.log(`MJML, a small layout compiled in the render thread: ${(mjml.wallUs / 1000).toFixed(1)} ms per message`);
  await renderer.close();
}

await main();
