import type { ServerProcess } from './processes.js';

/** An admin API call of a bench's setup (`url` below /admin/v1): the JSON answer, or an error naming the call. */
export async function adminJson(
  server: ServerProcess,
  token: string,
  method: string,
  url: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const response = await fetch(`${server.baseUrl}/admin/v1${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as Record<string, unknown>;
}
