import fs from 'node:fs';
import Fastify from 'fastify';

/**
 * The ceiling of the benches: the same framework, the same body parsed, no work.
 * Run as its own process (processes.ts startBare) on PORT, on the loopback interface.
 */

const app = Fastify({ logger: false });

// The catalog bench's ceiling: the same answers as the real server's (read from files the
// bench wrote from real responses), serialised from objects on every request.
const product: unknown = process.env.BARE_PRODUCT_FILE ? JSON.parse(fs.readFileSync(process.env.BARE_PRODUCT_FILE, 'utf8')) : {};
const categories: unknown = process.env.BARE_CATEGORIES_FILE ? JSON.parse(fs.readFileSync(process.env.BARE_CATEGORIES_FILE, 'utf8')) : [];
const counters: unknown = process.env.BARE_COUNTERS_FILE ? JSON.parse(fs.readFileSync(process.env.BARE_COUNTERS_FILE, 'utf8')) : {};
app.get('/products/get', () => product);
app.get('/products/categories', () => categories);
app.get('/products/counters', () => counters);

// The checkout bench's ceiling: the body parsed, a real apply answer sent back.
const checkout: unknown = process.env.BARE_CHECKOUT_FILE ? JSON.parse(fs.readFileSync(process.env.BARE_CHECKOUT_FILE, 'utf8')) : {};
const checkoutRoute = (request: { body: unknown }) => {
  const body = request.body as { shop_id?: unknown; cart_items?: unknown } | undefined;
  if (typeof body?.shop_id !== 'string' || !Array.isArray(body.cart_items)) throw new Error('unexpected body');
  return checkout;
};
app.post('/loyalty/checkout/apply', checkoutRoute);
app.post('/loyalty/checkout/estimate', checkoutRoute);

app.get('/health', () => ({ status: 'ok' }));

// Fastify's JSON parser reads the whole body, as the public scope's parser does.
app.post('/push', (request) => {
  const body = request.body as { shop_id?: unknown; items?: unknown } | undefined;
  if (typeof body?.shop_id !== 'string' || !Array.isArray(body.items)) throw new Error('unexpected body');
  return { status: 'success' };
});
app.post('/push/custom', (request) => {
  const body = request.body as { shop_id?: unknown; event?: unknown } | undefined;
  if (typeof body?.shop_id !== 'string' || typeof body.event !== 'string') throw new Error('unexpected body');
  return { status: 'success' };
});

await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });

const close = (): void => {
  void app.close().then(() => process.exit(0));
};
process.on('SIGTERM', close);
process.on('SIGINT', close);
