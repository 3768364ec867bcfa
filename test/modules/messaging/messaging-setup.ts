import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { JobRunner } from '../../../src/jobs/runner.js';
import { createJobRunner } from '../../../src/process/job-runner.js';
import { createLogger } from '../../../src/process/logger.js';
import type { Dialect } from '../../../src/db/dialect.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { createShopFixture } from '../../helpers/factories.js';
import { RecordingProvider, SMTP_LIKE_SCHEMA } from '../../helpers/recording-provider.js';

/** An app with recording vendors on email, sms and mobile push (android and ios), a shop, and a runner. */
export interface MessagingStack {
  readonly t: TestApp;
  readonly runner: JobRunner;
  readonly shopId: string;
  readonly secret: string;
  readonly email: RecordingProvider<'email'>;
  readonly sms: RecordingProvider<'sms'>;
  readonly fcm: RecordingProvider<'mobile_push'>;
  readonly apns: RecordingProvider<'mobile_push'>;
  admin(method: 'GET' | 'PUT' | 'POST', path: string, payload?: object): Promise<LightMyRequestResponse>;
  transact(body: Record<string, unknown>, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  get(path: string, query: Record<string, string>): Promise<LightMyRequestResponse>;
}

export const TEST_SECRET_KEY = 'a'.repeat(64);

export async function messagingStack(dialect: Dialect, env: Record<string, string> = {}): Promise<MessagingStack> {
  const t = await createTestApp({ dialect, env: { PATRON_SECRET_KEY: TEST_SECRET_KEY, ...env } });
  const email = new RecordingProvider('email', 'smtp', SMTP_LIKE_SCHEMA, []);
  const sms = new RecordingProvider('sms', 'test_sms');
  const fcm = new RecordingProvider('mobile_push', 'fcm');
  const apns = new RecordingProvider('mobile_push', 'apns');
  const registry = t.app.services.messagingProviders;
  registry.replace(email).replace(sms);
  registry.replace(fcm, { accepts: (m) => m.platform === 'android' }).replace(apns, { accepts: (m) => m.platform === 'ios' });
  const runner = createJobRunner({ config: t.config, services: t.app.services, clock: t.clock, log: createLogger('silent') });
  const { shopId, secret } = await createShopFixture(t.app.services);
  const stack: MessagingStack = {
    t,
    runner,
    shopId,
    secret,
    email,
    sms,
    fcm,
    apns,
    admin: (method, path, payload) =>
      t.app.inject({ method, url: `/admin/v1/shops/${shopId}${path}`, headers: t.adminHeaders, ...(payload ? { payload } : {}) }),
    transact: (body, headers = {}) =>
      t.app.inject({ method: 'POST', url: '/transact', headers, payload: { shop_id: shopId, shop_secret: secret, ...body } }),
    get: (path, query) => t.app.inject({ method: 'GET', url: path, query: { shop_id: shopId, shop_secret: secret, ...query } }),
  };
  return stack;
}

// The answers are checked field by field by the tests; `any` keeps those reads short.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function expectOk(response: Promise<LightMyRequestResponse> | LightMyRequestResponse, status = 200): Promise<any> {
  const r = await response;
  expect(r.statusCode, r.body).toBe(status);
  return r.json();
}
