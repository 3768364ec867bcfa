/**
 * CSV for audience files (`patron import audience`), pure and streaming: text goes in
 * piece by piece, complete rows come out. RFC 4180: fields may be quoted, a quote inside
 * quotes is doubled, quoted fields may hold separators and line breaks; lines end in LF
 * or CRLF. The separator is a comma, or a semicolon when the header has semicolons and
 * no commas (what spreadsheets write in locales with a decimal comma). A quote inside an
 * unquoted field is kept as a character, as most spreadsheets read it.
 */

export class CsvError extends Error {
  override readonly name = 'CsvError';
}

/** Longest field accepted: a bound on memory for a file that never closes a quote. */
export const MAX_CSV_FIELD = 1024 * 1024;

export class CsvReader {
  private separator: string | undefined;
  private field = '';
  private row: string[] = [];
  private quoted = false;
  /** Just saw a quote inside a quoted field: either the end of the quotes or a doubled quote. */
  private quoteSeen = false;
  private pendingCr = false;
  private line = 1;
  private rowLine = 1;

  /** Rows completed by this text, each with the line it started on. */
  push(text: string): { cells: string[]; line: number }[] {
    const rows: { cells: string[]; line: number }[] = [];
    this.separator ??= detectSeparator(text);
    for (let i = 0; i < text.length; i += 1) {
      const c = text[i] as string;
      if (this.pendingCr) {
        this.pendingCr = false;
        if (c === '\n') continue;
      }
      if (this.quoted) {
        if (this.quoteSeen) {
          this.quoteSeen = false;
          if (c === '"') {
            this.field += '"';
            continue;
          }
          this.quoted = false;
        } else if (c === '"') {
          this.quoteSeen = true;
          continue;
        } else {
          if (c === '\n') this.line += 1;
          this.append(c);
          continue;
        }
      }
      if (c === '"' && this.field === '') {
        this.quoted = true;
      } else if (c === this.separator) {
        this.endField();
      } else if (c === '\n' || c === '\r') {
        this.pendingCr = c === '\r';
        this.endField();
        rows.push({ cells: this.row, line: this.rowLine });
        this.row = [];
        this.line += 1;
        this.rowLine = this.line;
      } else {
        this.append(c);
      }
    }
    return rows.filter((r) => !isBlank(r.cells));
  }

  /** The last row when the text does not end with a line break. */
  end(): { cells: string[]; line: number }[] {
    if (this.quoted && !this.quoteSeen) throw new CsvError(`Line ${this.rowLine}: a quoted field is not closed.`);
    this.quoted = false;
    this.quoteSeen = false;
    if (this.field === '' && this.row.length === 0) return [];
    this.endField();
    const row = { cells: this.row, line: this.rowLine };
    this.row = [];
    return isBlank(row.cells) ? [] : [row];
  }

  private append(c: string): void {
    this.field += c;
    if (this.field.length > MAX_CSV_FIELD) throw new CsvError(`Line ${this.rowLine}: a field is longer than ${MAX_CSV_FIELD} characters.`);
  }

  private endField(): void {
    this.row.push(this.field);
    this.field = '';
  }
}

function detectSeparator(text: string): string {
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  return firstLine.includes(';') && !firstLine.includes(',') ? ';' : ',';
}

function isBlank(cells: readonly string[]): boolean {
  return cells.every((cell) => cell.trim() === '');
}

/** Fields whose cells hold JSON (an array of objects) in a CSV file. */
const JSON_COLUMNS = new Set(['kids', 'auto']);

/**
 * A data row as a record under the header's names (trimmed). Empty cells are left out
 * (not given); kids and auto cells are read as JSON, and a cell that is not JSON is passed
 * on as text, for the record check to drop with its reason.
 */
export function csvRecord(header: readonly string[], cells: readonly string[]): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  header.forEach((name, i) => {
    const cell = cells[i];
    if (cell === undefined || cell.trim() === '' || name === '' || name === '__proto__') return;
    if (JSON_COLUMNS.has(name)) {
      try {
        record[name] = JSON.parse(cell) as unknown;
      } catch {
        record[name] = cell;
      }
      return;
    }
    record[name] = cell;
  });
  return record;
}
