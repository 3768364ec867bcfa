import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';

describe.each(TEST_DIALECTS)('health and readiness probes on %s', (dialect) => {
  let t: TestApp;
  afterEach(async () => {
    await t.close();
  });

  it('answers /health with 200 and needs no credentials', async () => {
    t = await createTestApp({ dialect });
    const response = await t.app.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('answers /ready with 200 while the database answers', async () => {
    t = await createTestApp({ dialect });
    const response = await t.app.inject({ method: 'GET', url: '/ready' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ready' });
  });

  it('answers /ready with 503 once the database is gone, while /health stays 200', async () => {
    t = await createTestApp({ dialect });
    await t.db.destroy();
    const ready = await t.app.inject({ method: 'GET', url: '/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'unavailable' });
    expect((await t.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  });

  it('answers /ready?scope=node with 200 without the database, the check a balancer of several nodes makes', async () => {
    t = await createTestApp({ dialect });
    await t.db.destroy();
    const node = await t.app.inject({ method: 'GET', url: '/ready?scope=node' });
    expect(node.statusCode).toBe(200);
    expect(node.json()).toEqual({ status: 'ready' });
    expect((await t.app.inject({ method: 'GET', url: '/ready?scope=all' })).statusCode).toBe(503);
    expect((await t.app.inject({ method: 'GET', url: '/ready?scope=nodes' })).statusCode).toBe(503);
  });
});
