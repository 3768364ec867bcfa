/**
 * The currency symbol GET /init reports (contract-notes, "Identifiers": `currency`),
 * e.g. RUB → ₽. Pure: ICU's narrow symbol, which SDKs print next to prices.
 */

const symbols = new Map<string, string>();

/**
 * The narrow symbol of an ISO 4217 code (`RUB` → `₽`, `USD` → `$`). The `en` locale is
 * fixed so the answer does not depend on the host; a code ICU has no symbol for comes
 * back as the code itself, and a malformed code too (a shop's currency is validated when
 * the shop is created, so that is a fallback, not a path).
 */
export function currencySymbol(code: string): string {
  const known = symbols.get(code);
  if (known !== undefined) return known;
  let format: Intl.NumberFormat;
  try {
    format = new Intl.NumberFormat('en', { style: 'currency', currency: code, currencyDisplay: 'narrowSymbol' });
  } catch {
    // RangeError: not a well-formed currency code; not cached, so the map stays small.
    return code;
  }
  const symbol = format.formatToParts(0).find((part) => part.type === 'currency')?.value ?? code;
  symbols.set(code, symbol);
  return symbol;
}
