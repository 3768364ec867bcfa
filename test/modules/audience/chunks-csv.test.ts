import { describe, expect, it } from 'vitest';
import { inListSlices, statementSlices } from '../../../src/db/statement-slices.js';
import { ChunkBuilder, toChunks } from '../../../src/modules/audience/domain/chunks.js';
import { CsvError, CsvReader, csvRecord } from '../../../src/modules/audience/domain/csv.js';
import { CHUNK_BYTES, CHUNK_RECORDS } from '../../../src/modules/audience/domain/limits.js';

describe('record chunks', () => {
  it('cuts records at CHUNK_RECORDS and at CHUNK_BYTES, keeping every record once and in order', () => {
    const small = Array.from({ length: CHUNK_RECORDS + 3 }, (_, i) => ({ i }));
    const chunks = toChunks(small);
    expect(chunks.map((c) => c.records)).toEqual([CHUNK_RECORDS, 3]);
    const back = chunks.flatMap((c) => JSON.parse(`[${c.body.toString('utf8')}]`) as unknown[]);
    expect(back).toEqual(small);

    const big = { note: 'n'.repeat(Math.floor(CHUNK_BYTES / 3)) };
    expect(toChunks([big, big, big, big]).map((c) => c.records)).toEqual([2, 2]);
    // A record larger than the bound is a chunk of its own.
    expect(toChunks([{ note: 'n'.repeat(CHUNK_BYTES * 2) }, { a: 1 }]).map((c) => c.records)).toEqual([1, 1]);
    expect(new ChunkBuilder().flush()).toBeUndefined();
  });
});

describe('statement slices', () => {
  it('cuts rows into power-of-two slices within the parameter bound', () => {
    const rows = Array.from({ length: 1000 }, (_, i) => i);
    const slices = statementSlices(rows, 11);
    expect(slices.map((s) => s.length)).toEqual([128, 128, 128, 128, 128, 128, 128, 64, 32, 8]);
    expect(slices.flat()).toEqual(rows);
    expect(statementSlices(rows, 10_000).every((s) => s.length <= 3)).toBe(true);
    expect(statementSlices([], 4)).toEqual([]);
  });

  it('pads IN lists to a power of two with their last value', () => {
    expect(inListSlices([1, 2, 3, 4, 5])).toEqual([[1, 2, 3, 4, 5, 5, 5, 5]]);
    expect(inListSlices([7])).toEqual([[7]]);
    const long = inListSlices(Array.from({ length: 1500 }, (_, i) => i));
    expect(long.map((s) => s.length)).toEqual([1024, 512]);
  });
});

describe('audience CSV', () => {
  function readAll(pieces: string[]) {
    const reader = new CsvReader();
    return [...pieces.flatMap((piece) => reader.push(piece)), ...reader.end()];
  }

  it('reads quoted fields with separators, doubled quotes and line breaks, across pieces', () => {
    const rows = readAll(['email,name,note\r\na@b.org,"Lee, ', 'Ann","say ""hi""\nthere"\r\n', '\r\n', 'c@d.org,Kim,']);
    expect(rows).toEqual([
      { cells: ['email', 'name', 'note'], line: 1 },
      { cells: ['a@b.org', 'Lee, Ann', 'say "hi"\nthere'], line: 2 },
      { cells: ['c@d.org', 'Kim', ''], line: 5 },
    ]);
  });

  it('reads semicolons when the header has them and no commas', () => {
    expect(readAll(['email;age\na@b.org;41\n']).map((r) => r.cells)).toEqual([
      ['email', 'age'],
      ['a@b.org', '41'],
    ]);
  });

  it('refuses a quote that never closes', () => {
    expect(() => readAll(['email\n"a@b.org\n'])).toThrow(CsvError);
  });

  it('maps a row to a record: empty cells left out, kids and auto read as JSON', () => {
    expect(csvRecord(['email', 'kids', 'auto', 'age', '__proto__'], ['a@b.org', '[{"gender":"m"}]', 'not json', '', 'x'])).toEqual({
      email: 'a@b.org',
      kids: [{ gender: 'm' }],
      auto: 'not json',
    });
  });
});
