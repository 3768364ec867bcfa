import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestApp } from '../helpers/app.js';

/**
 * Contract cases as data: a request with `{placeholders}` (filled from the fixtures of
 * the file: shop ids, device ids …), the expected status and body. The runner sends the
 * request through the whole app and compares the answer exactly.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface ContractRequest {
  readonly method?: InjectOptions['method'];
  readonly url: string;
  /** Raw query string after `?` (bracket notation as clients send it). */
  readonly query?: string;
  /** A JSON value (sent as application/json unless contentType says otherwise) or a raw string/Buffer. */
  readonly body?: Json | Buffer;
  readonly contentType?: string;
}

export type Vars = Readonly<Record<string, string>>;

/** Replaces every `{name}` in the strings of a value. */
export function fill<T>(value: T, vars: Vars): T {
  if (typeof value === 'string') {
    return value.replace(/\{(\w+)\}/g, (whole, name: string) => vars[name] ?? whole) as T;
  }
  if (Array.isArray(value)) return value.map((element: unknown) => fill(element, vars)) as T;
  if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, element]) => [fill(key, vars), fill(element, vars)])) as T;
  }
  return value;
}

export function toInject(request: ContractRequest, vars: Vars): InjectOptions {
  const url = request.query === undefined ? request.url : `${request.url}?${fill(request.query, vars)}`;
  const options: InjectOptions = { method: request.method ?? 'POST', url };
  if (request.body !== undefined) {
    // Raw bytes are filled through latin1, which maps each byte to one character and back.
    const body = Buffer.isBuffer(request.body)
      ? Buffer.from(fill(request.body.toString('latin1'), vars), 'latin1')
      : fill(request.body, vars);
    const raw = typeof body === 'string' || Buffer.isBuffer(body);
    options.payload = raw ? body : JSON.stringify(body);
    options.headers = { 'content-type': request.contentType ?? 'application/json' };
  } else if (request.contentType !== undefined) {
    options.headers = { 'content-type': request.contentType };
  }
  return options;
}

export async function send(t: TestApp, request: ContractRequest, vars: Vars): Promise<LightMyRequestResponse> {
  return t.app.inject(toInject(request, vars));
}

/** The exact answer of a status-envelope endpoint: success, or error with this message. */
export function expectStatusAnswer(response: LightMyRequestResponse, status: number, message?: string): void {
  expect({ status: response.statusCode, body: response.body }).toMatchObject({ status });
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  if (status === 200) {
    expect(response.json()).toEqual({ status: 'success' });
  } else {
    expect(response.json()).toEqual({ status: 'error', payload: { message: message ?? expect.any(String) } });
  }
}

/** `field=value` pairs as an urlencoded form (names are not encoded: brackets stay readable). */
export function form(pairs: ReadonlyArray<readonly [string, string]>): string {
  return pairs.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&');
}

export const FORM_TYPE = 'application/x-www-form-urlencoded';
