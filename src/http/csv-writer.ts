/**
 * CSV for downloads (RFC 4180, CRLF line ends), safe to open in a spreadsheet: a cell
 * that starts with `=`, `+`, `-`, `@`, a tab or a carriage return would be read as a
 * formula, so it is prefixed with `'` (OWASP, "CSV injection"); a cell holding a comma,
 * a quote or a line break is quoted, its quotes doubled.
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(cells: readonly (string | number | null)[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';
