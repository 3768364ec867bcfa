import Fastify from 'fastify';

/**
 * The ceiling of the push bench: the same framework, the same body parsed, no work.
 * Run as its own process (processes.ts startBare) on PORT, on the loopback interface.
 */

const app = Fastify({ logger: false });

app.get('/health', () => ({ status: 'ok' }));

// Fastify's JSON parser reads the whole body, as the public scope's parser does.
app.post('/push', (request) => {
  const body = request.body as { shop_id?: unknown; items?: unknown } | undefined;
  if (typeof body?.shop_id !== 'string' || !Array.isArray(body.items)) throw new Error('unexpected body');
  return { status: 'success' };
});

await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });

const close = (): void => {
  void app.close().then(() => process.exit(0));
};
process.on('SIGTERM', close);
process.on('SIGINT', close);
