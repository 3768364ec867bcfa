import { describe, expect, it } from 'vitest';
import { csvCell, csvLine } from '../../src/http/csv-writer.js';

describe('csv writer', () => {
  it.each([
    ['=SUM(A1:A9)', "'=SUM(A1:A9)"],
    ['+7 912', "'+7 912"],
    ['-5OFF', "'-5OFF"],
    ['@cmd', "'@cmd"],
    ['\tx', "'\tx"],
    ['\rx', `"'\rx"`],
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['=a,"b"', `"'=a,""b"""`],
    ['', ''],
  ])('writes the text %j as the cell %j', (text, cell) => {
    expect(csvCell(text)).toBe(cell);
  });

  it('writes numbers as they are (a negative number is data, not a formula) and null as an empty cell', () => {
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(0)).toBe('0');
    expect(csvCell(null)).toBe('');
  });

  it('ends each line with CRLF', () => {
    expect(csvLine(['a', null, 3, 'b,c'])).toBe('a,,3,"b,c"\r\n');
  });
});
