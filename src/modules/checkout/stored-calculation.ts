import type { CheckoutRequest, StoredCalculation } from './checkout.types.js';

/**
 * The text an order row stores for its request and its calculation (docs/checkout.md
 * "Orders"). The lines of both, objects of one shape each (a result line has 29 named
 * fields), are stored as a table: the field names once, then each line's values in that
 * order. The stored calculation of a 10-line cart was about 10 kB, most of it the same
 * field names again on every line: three overflow pages of the row to write, commit
 * and checkpoint on every apply. Reading gives back exactly the objects that were
 * stored; rows stored before lines were tables are read as they are.
 */

/** Objects with the same keys in the same order, as a header and rows of values. */
interface Table {
  readonly keys: readonly string[];
  readonly rows: readonly (readonly unknown[])[];
}

/**
 * The objects as a table, or undefined when they do not all have the first one's keys
 * in its order, or hold an undefined value (which JSON leaves out of an object but
 * writes as null in an array): such lines are stored as objects, as they are.
 */
function toTable(objects: readonly object[]): Table | undefined {
  const keys = objects.length === 0 ? [] : Object.keys(objects[0] as object);
  const rows: unknown[][] = [];
  for (const object of objects) {
    const record = object as Record<string, unknown>;
    const own = Object.keys(record);
    if (own.length !== keys.length || own.some((key, i) => key !== keys[i])) return undefined;
    const row = keys.map((key) => record[key]);
    if (row.includes(undefined)) return undefined;
    rows.push(row);
  }
  return { keys, rows };
}

function fromTable(lines: unknown): unknown {
  if (Array.isArray(lines)) return lines;
  const { keys, rows } = lines as Table;
  return rows.map((row) => Object.fromEntries(keys.map((key, i) => [key, row[i]])));
}

export function writeStoredCalculation(calculation: StoredCalculation): string {
  const { result } = calculation;
  return JSON.stringify({ ...calculation, result: { ...result, items: toTable(result.items) ?? result.items } });
}

export function readStoredCalculation(text: string): StoredCalculation {
  const stored = JSON.parse(text) as StoredCalculation;
  return { ...stored, result: { ...stored.result, items: fromTable(stored.result.items) as StoredCalculation['result']['items'] } };
}

export function writeStoredRequest(request: CheckoutRequest): string {
  return JSON.stringify({ ...request, cart: toTable(request.cart) ?? request.cart });
}

export function readStoredRequest(text: string): CheckoutRequest {
  const stored = JSON.parse(text) as CheckoutRequest;
  return { ...stored, cart: fromTable(stored.cart) as CheckoutRequest['cart'] };
}
