import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

/**
 * Asserts the admin error envelope of admin-api.md exactly: the status, a body of
 * `{"error":{"code","message"}}` and nothing else, one sentence, no trace of internals.
 * Returns the message so that callers can check which field it names.
 */
export function expectAdminError(response: LightMyRequestResponse, status: number, code: string): string {
  expect({ status: response.statusCode, body: response.body }).toMatchObject({ status });
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const body = response.json<{ error: { code: string; message: string } }>();
  expect(body).toEqual({ error: { code, message: expect.any(String) } });
  const { message } = body.error;
  expect(message).toMatch(/^[A-Z].*\.$/);
  expect(message).not.toMatch(/\n|\bat .*:\d+:\d+|node_modules|FST_ERR|Error:/);
  expect(response.body).not.toMatch(/"stack"|\.ts:\d+|\.js:\d+/);
  return message;
}
