/**
 * Item normalisation of POST /push (interface.md, "Item normalisation with status 200").
 * Pure: the raw items arrive as parsed from JSON, a form or a query string, so every
 * value may be a string, a number, or something unexpected.
 */

export interface TrackedItem {
  readonly id: string;
  readonly amount: number;
  readonly price?: number;
  readonly line_id?: string;
  readonly fashion_size?: string;
}

export const MAX_ITEM_ID_LENGTH = 255;
export const MIN_AMOUNT = 1;
export const MAX_AMOUNT = 1000;

/**
 * Characters that make an item id invalid. The contract names the backslash; control
 * characters cannot come from a real catalogue either.
 */
function hasInvalidIdChar(id: string): boolean {
  for (let i = 0; i < id.length; i += 1) {
    const code = id.charCodeAt(i);
    if (code === 0x5c || code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

function asText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** A finite number from a number or a numeric string; undefined otherwise. */
export function toFiniteNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '' && /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(value.trim())) {
    const n = Number(value.trim());
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/** amount (synonym quantity) clamped to 1..1000; anything unreadable counts as 1. */
export function normalizeAmount(raw: unknown): number {
  const n = toFiniteNumber(raw);
  if (n === undefined) return MIN_AMOUNT;
  const whole = Math.trunc(n);
  return Math.min(MAX_AMOUNT, Math.max(MIN_AMOUNT, whole));
}

export type ItemDropReason = 'not_an_object' | 'id_missing' | 'id_too_long' | 'id_invalid';

export type NormalizedItem = { ok: true; item: TrackedItem } | { ok: false; reason: ItemDropReason };

export function normalizeItem(raw: unknown): NormalizedItem {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: false, reason: 'not_an_object' };
  const record = raw as Record<string, unknown>;
  const id = asText(record.id)?.trim();
  if (id === undefined || id === '') return { ok: false, reason: 'id_missing' };
  if (id.length > MAX_ITEM_ID_LENGTH) return { ok: false, reason: 'id_too_long' };
  if (hasInvalidIdChar(id)) return { ok: false, reason: 'id_invalid' };

  const item: { -readonly [K in keyof TrackedItem]: TrackedItem[K] } = {
    id,
    amount: normalizeAmount(record.amount ?? record.quantity),
  };
  const price = toFiniteNumber(record.price);
  if (price !== undefined && price >= 0) item.price = price;
  const lineId = asText(record.line_id);
  if (lineId !== undefined && lineId !== '') item.line_id = lineId.slice(0, MAX_ITEM_ID_LENGTH);
  const size = asText(record.fashion_size);
  if (size !== undefined && size !== '') item.fashion_size = size.slice(0, MAX_ITEM_ID_LENGTH);
  return { ok: true, item };
}

/** Normalises every item; `dropped` counts the items removed for a bad id. */
export function normalizeItems(raw: readonly unknown[]): { items: TrackedItem[]; dropped: number } {
  const items: TrackedItem[] = [];
  let dropped = 0;
  for (const entry of raw) {
    const result = normalizeItem(entry);
    if (result.ok) items.push(result.item);
    else dropped += 1;
  }
  return { items, dropped };
}
