/** A bench option that must be a number from 1 to `max` (an integer when `integer`); else the bench stops with a message. */
export function positive(name: string, raw: string, max: number, integer = false): number {
  const n = Number(raw);
  const ok = integer ? Number.isInteger(n) : Number.isFinite(n);
  if (!ok || n <= 0 || n > max) throw new Error(`--${name} must be ${integer ? 'an integer' : 'a number'} from 1 to ${max}`);
  return n;
}
