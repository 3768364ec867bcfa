import type { FastifyRequest } from 'fastify';
import { indexedArray, type PublicInput } from '../../http/input.js';
import { validationError } from '../../http/readers.js';

/** Parameters that several public groups read alike. */

/** Offer ids: the contract's item id bound (interface.md, "Tracked item"). */
export const MAX_ITEM_ID_LENGTH = 255;
export const MAX_LIST_IDS = 1000;
export const MAX_LIST_TEXT_LENGTH = 64_000;

/**
 * interface.md "Versioning": the standard envelope is asked for with `v=2` (any
 * parameter source) or the header `Accept-Version: 2`; anything else gets the bare data.
 */
export function wantsEnvelope(request: FastifyRequest): boolean {
  const v = request.input.v;
  if (v === '2' || v === 2) return true;
  const header = request.headers['accept-version'];
  return (Array.isArray(header) ? header[0] : header)?.trim() === '2';
}

/**
 * A comma-separated list of ids (`exclude=1,2`), also accepted as an array
 * (`exclude[]=1&exclude[]=2`); blanks around ids and empty entries are dropped.
 * Absent or empty: undefined.
 */
export function readIdList(input: PublicInput, name: string): string[] | undefined {
  const value = input[name];
  if (value === undefined || value === '') return undefined;
  let parts: unknown[];
  if (typeof value === 'string') {
    if (value.length > MAX_LIST_TEXT_LENGTH) throw validationError(name, `must be at most ${MAX_LIST_TEXT_LENGTH} characters`);
    parts = value.split(',');
  } else if (typeof value === 'number') {
    parts = [String(value)];
  } else if (Array.isArray(value) || indexedArray(value) !== undefined) {
    // `brands[0]=a&brands[1]=b` (indexed brackets) is the array it spells.
    const list: unknown[] = Array.isArray(value) ? value : indexedArray(value)!;
    parts = list.map((part: unknown) => (typeof part === 'number' ? String(part) : part));
  } else {
    throw validationError(name, 'must be a comma-separated list of ids');
  }
  const ids: string[] = [];
  for (const part of parts) {
    if (typeof part !== 'string') throw validationError(name, 'must be a comma-separated list of ids');
    const id = part.trim();
    if (id === '') continue;
    if (id.length > MAX_ITEM_ID_LENGTH) throw validationError(name, `must hold ids of at most ${MAX_ITEM_ID_LENGTH} characters`);
    ids.push(id);
  }
  if (ids.length > MAX_LIST_IDS) throw validationError(name, `must have at most ${MAX_LIST_IDS} ids`);
  return ids.length === 0 ? undefined : ids;
}
