import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

/**
 * /metrics tells request rates, routes, queue depths and process figures: by default
 * only a client on the machine itself reads it; with PATRON_METRICS_TOKEN set, whoever
 * presents the token does, from any address, and no one else.
 */
const NOT_FOUND = { status: 'error', payload: { message: 'No endpoint exists at this path.' } };
const TOKEN = 'metrics-token-0123456789abcdef';

describe('/metrics without PATRON_METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { PATRON_TRUST_PROXY: '127.0.0.1' } });
  });
  afterAll(async () => {
    await t.close();
  });

  const scrape = (remoteAddress: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers });

  it.each(['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'])('serves a client on loopback (%s)', async (address) => {
    const response = await scrape(address);
    expect(response.statusCode).toBe(200);
    expect(response.body).toMatch(/^process_cpu_user_seconds_total \d/m);
  });

  it.each(['203.0.113.5', '10.0.0.8', '2001:db8::1'])('answers another client (%s) as if there were no such path', async (address) => {
    const response = await scrape(address);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual(NOT_FOUND);
    expect(response.body).not.toContain('process_cpu');
  });

  it('judges the client behind a trusted proxy on the machine by the address the proxy forwards', async () => {
    const outside = await scrape('127.0.0.1', { 'x-forwarded-for': '203.0.113.9' });
    expect(outside.statusCode).toBe(404);
    expect((await scrape('127.0.0.1', { 'x-forwarded-for': '127.0.0.1' })).statusCode).toBe(200);
  });

  it('ignores an Authorization header when no token is set', async () => {
    expect((await scrape('203.0.113.5', { authorization: `Bearer ${TOKEN}` })).statusCode).toBe(404);
  });
});

describe('/metrics with PATRON_METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { PATRON_METRICS_TOKEN: TOKEN } });
  });
  afterAll(async () => {
    await t.close();
  });

  const scrape = (remoteAddress: string, authorization?: string) =>
    t.app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers: authorization === undefined ? {} : { authorization } });

  it('serves a client anywhere that presents the token as a Bearer credential', async () => {
    for (const address of ['203.0.113.5', '127.0.0.1']) {
      const response = await scrape(address, `Bearer ${TOKEN}`);
      expect(response.statusCode, address).toBe(200);
      expect(response.body).toMatch(/^process_cpu_user_seconds_total \d/m);
    }
    expect((await scrape('203.0.113.5', `bearer  ${TOKEN}`)).statusCode).toBe(200);
  });

  it.each([
    ['no credential', undefined],
    ['a wrong token', 'Bearer metrics-token-0123456789abcdeX'],
    ['a prefix of the token', `Bearer ${TOKEN.slice(0, -1)}`],
    ['another scheme', `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}`],
  ])('refuses %s with 401 in the status envelope, from loopback too', async (_what, authorization) => {
    for (const address of ['203.0.113.5', '127.0.0.1']) {
      const response = await scrape(address, authorization);
      expect(response.statusCode, address).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer');
      expect(response.json()).toEqual({ status: 'error', payload: { message: 'A Bearer token is required to read the metrics.' } });
    }
  });
});

describe('PATRON_METRICS_TOKEN', () => {
  it('must be at least 16 characters with no white space', () => {
    expect(() => loadConfig({ PATRON_METRICS_TOKEN: 'short' })).toThrow(/PATRON_METRICS_TOKEN must be at least 16 characters/);
    expect(() => loadConfig({ PATRON_METRICS_TOKEN: 'has white space in it' })).toThrow(/PATRON_METRICS_TOKEN/);
    expect(loadConfig({ PATRON_METRICS_TOKEN: TOKEN }).metricsToken).toBe(TOKEN);
    expect(loadConfig({}).metricsToken).toBeUndefined();
  });
});
