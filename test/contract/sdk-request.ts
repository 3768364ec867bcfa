import type { InjectOptions } from 'fastify';
import { SDK_GET_HEADERS, sdkGetQuery } from './sdk-wire.js';

/**
 * A GET as the mobile SDK sends it (sdk-wire.ts): its params in the query string,
 * encoded the SDK's way, with the device id, `seance` and `sid` added, the form
 * Content-Type and no body.
 */
export function sdkGet(
  path: string,
  params: Readonly<Record<string, string>>,
  device: { readonly did: string; readonly sid?: string },
): InjectOptions {
  const all: Array<[string, string]> = [...Object.entries(params), ['did', device.did]];
  if (device.sid !== undefined) all.push(['seance', device.sid], ['sid', device.sid]);
  return { method: 'GET', url: `${path}?${sdkGetQuery(all)}`, headers: { ...SDK_GET_HEADERS } };
}
