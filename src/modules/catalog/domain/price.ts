/**
 * The price fields of the Product resource (interface.md, "Product"), from integer minor
 * units (kopecks, as the catalog stores them). Pure.
 *
 * Formatting (docs/catalog-read.md): the integer part grouped by three with a plain
 * space, a decimal point, the currency symbol after one space: 1999050 kopecks in RUB is
 * `19 990 ₽` without the fraction and `19 990.50 ₽` with it. This is the spelling SDKs
 * of the platform print as it is; the locale of the shop does not change it.
 */

export interface PriceFields {
  /** The integer part: 1990.50 → 1990. */
  readonly whole: number;
  /** The price with its fraction, as a JSON number: 1990.5. */
  readonly full: number;
  readonly formatted: string;
  readonly fullFormatted: string;
}

const MINOR_PER_UNIT = 100;

/** The integer part of an amount in minor units: 199050 → 1990 (interface.md: "Price without fractional part"). */
export function wholeUnits(minor: number): number {
  return Math.floor(minor / MINOR_PER_UNIT);
}

/** An amount in currency units (1990.5) as minor units (199050), rounded to the nearest. */
export function minorUnits(units: number): number {
  return Math.round(units * MINOR_PER_UNIT);
}

/** An amount in minor units as currency units with the fraction, a JSON number: 199050 → 1990.5. */
export function fullUnits(minor: number): number {
  return minor / MINOR_PER_UNIT;
}

/** The four spellings of an amount in minor units (a non-negative safe integer). */
export function priceFields(minor: number, symbol: string): PriceFields {
  const whole = wholeUnits(minor);
  const fraction = minor - whole * MINOR_PER_UNIT;
  const grouped = groupThousands(whole);
  return {
    whole,
    // Integer division by 100 rounds to the double nearest the decimal, whose shortest
    // spelling is that decimal: 199050 / 100 prints as 1990.5.
    full: minor / MINOR_PER_UNIT,
    formatted: `${grouped} ${symbol}`,
    fullFormatted: `${grouped}.${String(fraction).padStart(2, '0')} ${symbol}`,
  };
}

/** 1234567 → `1 234 567`. */
export function groupThousands(value: number): string {
  const digits = String(value);
  const head = digits.length % 3;
  const groups = head > 0 ? [digits.slice(0, head)] : [];
  for (let i = head; i < digits.length; i += 3) groups.push(digits.slice(i, i + 3));
  return groups.join(' ');
}

export interface Discount {
  /** oldprice > price (interface.md, GET /products/categories `only_discount`). */
  readonly discount: boolean;
  /** (oldprice − price) / oldprice in percent, rounded half up; 0 without a discount. */
  readonly percent: number;
}

const NO_DISCOUNT: Discount = { discount: false, percent: 0 };

/**
 * The discount of a product, in exact integer arithmetic on minor units. A product
 * without a price or an oldprice, or whose oldprice is not above its price, has none.
 * Half up: 2490 → 1990.50 is 20.06 %, so 20; 1000 → 875 is 12.5 %, so 13.
 */
export function discountOf(price: number | null, oldprice: number | null): Discount {
  if (price === null || oldprice === null || oldprice <= price) return NO_DISCOUNT;
  const saved = oldprice - price;
  // round(100 · saved / oldprice) half up = floor((200 · saved + oldprice) / (2 · oldprice)).
  // Prices stay below 2^53 / 200 in any real feed; past that, fall back to floating point.
  const percent =
    saved <= Number.MAX_SAFE_INTEGER / 200 ? Math.floor((200 * saved + oldprice) / (2 * oldprice)) : Math.round((100 * saved) / oldprice);
  return { discount: true, percent };
}
