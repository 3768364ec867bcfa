/**
 * Integer money maths of the checkout (docs/checkout.md "Rounding"). Every amount is a
 * non-negative safe integer of minor units; products that could pass 2^53 are computed
 * in BigInt, so no result depends on floating point.
 */

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

function fitsSafely(a: number, b: number): boolean {
  return a === 0 || b <= Number.MAX_SAFE_INTEGER / a;
}

function toSafeNumber(value: bigint): number {
  if (value > SAFE) throw new RangeError('checkout amount beyond the safe integers');
  return Number(value);
}

/** ⌊a × b / c⌋ for a, b ≥ 0 and c > 0. */
export function mulDivFloor(a: number, b: number, c: number): number {
  if (fitsSafely(a, b)) {
    // Exact: the remainder of safe integers is exact, and so is the division that is left.
    return floorDiv(a * b, c);
  }
  return toSafeNumber((BigInt(a) * BigInt(b)) / BigInt(c));
}

/** a × b / c rounded to the nearest integer, halves up, for a, b ≥ 0 and c > 0. */
export function mulDivRoundHalfUp(a: number, b: number, c: number): number {
  if (fitsSafely(2 * a, b) && 2 * a * b <= Number.MAX_SAFE_INTEGER - c) return floorDiv(2 * a * b + c, 2 * c);
  const product = BigInt(a) * BigInt(b);
  const divisor = BigInt(c);
  return toSafeNumber((2n * product + divisor) / (2n * divisor));
}

/** The per-unit figure of a line amount: amount / quantity, halves up (docs/checkout.md). */
export function perUnit(amount: number, quantity: number): number {
  return floorDiv(2 * amount + quantity, 2 * quantity);
}

/** ⌊n / d⌋ of safe non-negative integers, exactly (a float quotient could round up to the next integer). */
function floorDiv(n: number, d: number): number {
  return (n - (n % d)) / d;
}

export function gcd(a: number, b: number): number {
  let x = Math.abs(a);
  let y = Math.abs(b);
  while (y !== 0) [x, y] = [y, x % y];
  return x;
}

export function sum(values: readonly number[]): number {
  let total = 0;
  for (const v of values) total += v;
  return total;
}

/**
 * Splits `total` into parts proportional to `weights` that add up to `total` exactly
 * (largest remainder, Hamilton's method): every part gets the floor of its exact quota,
 * and the units left over go one each to the largest remainders; equal remainders go in
 * the ascending order of `keys` (product ids), so the split never depends on the order
 * of the lines. A part never exceeds its quota rounded up, so with total ≤ Σweights no
 * part exceeds its weight. Weights are non-negative; a zero weight gets nothing.
 */
export function distribute(total: number, weights: readonly number[], keys: readonly string[]): number[] {
  const parts = weights.map(() => 0);
  if (total === 0) return parts;
  const weightSum = sum(weights);
  if (weightSum <= 0) throw new RangeError('cannot distribute over zero weights');
  const W = BigInt(weightSum);
  const T = BigInt(total);
  const remainders: { index: number; remainder: bigint }[] = [];
  let given = 0;
  weights.forEach((w, index) => {
    if (w === 0) return;
    const exact = T * BigInt(w);
    const part = Number(exact / W);
    parts[index] = part;
    given += part;
    remainders.push({ index, remainder: exact % W });
  });
  remainders.sort((a, b) => {
    if (a.remainder !== b.remainder) return a.remainder > b.remainder ? -1 : 1;
    const ka = keys[a.index] ?? '';
    const kb = keys[b.index] ?? '';
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
  for (let i = 0; i < total - given; i += 1) {
    const slot = remainders[i];
    if (slot) parts[slot.index] = (parts[slot.index] ?? 0) + 1;
  }
  return parts;
}
