import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { publicApiPlugin } from '../../src/public-api/plugin.js';
import type { PublicRouteModule } from '../../src/public-api/types.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

/**
 * The whole app with extra test-only route modules registered through the same
 * public-scope plugin that app.ts uses for PUBLIC_ROUTES (a second, identical scope).
 */
export async function createPublicTestApp(
  routes: readonly PublicRouteModule[],
  options: { env?: Record<string, string> } = {},
): Promise<TestApp> {
  const testApp = await createTestApp(options);
  await testApp.app.register(publicApiPlugin, { routes });
  return testApp;
}

/** A multipart/form-data body with the fields in order (and optionally one file part). */
export function multipartRequest(
  fields: ReadonlyArray<readonly [string, string]>,
  file?: { name: string; filename: string; content: string },
): { payload: string; headers: Record<string, string> } {
  const boundary = '----patron-test-boundary-7MA4YWxkTrZu0gW';
  const parts = fields.map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  if (file) {
    parts.push(
      `--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\n` +
        `Content-Type: application/octet-stream\r\n\r\n${file.content}\r\n`,
    );
  }
  return {
    payload: `${parts.join('')}--${boundary}--\r\n`,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** Exactly the failure of a status-family (or bare) route. Returns the message. */
export function expectStatusError(response: LightMyRequestResponse, status: number, message?: string): string {
  return expectError(response, status, 'status', message);
}

/** Exactly the failure of a success-family route. Returns the message. */
export function expectSuccessError(response: LightMyRequestResponse, status: number, message?: string): string {
  return expectError(response, status, 'success', message);
}

function expectError(response: LightMyRequestResponse, status: number, family: 'status' | 'success', message: string | undefined): string {
  expect({ status: response.statusCode, body: response.body }).toMatchObject({ status });
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  const head = family === 'status' ? { status: 'error' } : { success: false };
  const body = response.json<{ payload: { message: string } }>();
  expect(body).toEqual({ ...head, payload: { message: message ?? expect.any(String) } });
  expect(body.payload.message).not.toMatch(/\n|\bat .*:\d+:\d+|node_modules|FST_|Error:/);
  return body.payload.message;
}
