/**
 * Amounts at the admin edge are numbers in currency units with at most two decimals
 * (admin-api.md, Loyalty programme); inside they are integer minor units (kopecks).
 */

/** The largest amount one operation accepts: 10^9 currency units, far inside the integers a double holds exactly. */
export const MAX_AMOUNT_MINOR = 100_000_000_000;

export type ParsedAmount = { readonly ok: true; readonly minor: number } | { readonly ok: false; readonly requirement: string };

/**
 * A positive amount in currency units → minor units. Refuses zero, negatives, more than
 * two decimals (a fractional kopeck) and amounts beyond MAX_AMOUNT_MINOR. The test for
 * two decimals tolerates the binary representation of decimals (0.29 * 100 is
 * 28.999999999999996) but not a third decimal digit.
 */
export function parsePositiveAmount(units: number): ParsedAmount {
  if (!Number.isFinite(units)) return { ok: false, requirement: 'must be a number' };
  if (units <= 0) return { ok: false, requirement: 'must be greater than 0' };
  const scaled = units * 100;
  const minor = Math.round(scaled);
  if (Math.abs(scaled - minor) > 1e-6 * Math.max(1, Math.abs(scaled))) {
    return { ok: false, requirement: 'must have at most two decimals' };
  }
  if (minor > MAX_AMOUNT_MINOR) return { ok: false, requirement: `must be at most ${MAX_AMOUNT_MINOR / 100}` };
  return { ok: true, minor };
}

/** Minor units → currency units, exact to two decimals. */
export function toUnits(minor: number): number {
  return minor / 100;
}

/**
 * A percent or `bonus_value` of the programme settings (two decimals at most) → hundredths,
 * within [min, max] currency-free units.
 */
export function parseHundredths(value: number, min: number, max: number): ParsedAmount {
  if (!Number.isFinite(value)) return { ok: false, requirement: 'must be a number' };
  if (value < min || value > max) return { ok: false, requirement: `must be between ${min} and ${max}` };
  const scaled = value * 100;
  const hundredths = Math.round(scaled);
  if (Math.abs(scaled - hundredths) > 1e-6 * Math.max(1, Math.abs(scaled))) {
    return { ok: false, requirement: 'must have at most two decimals' };
  }
  return { ok: true, minor: hundredths };
}
