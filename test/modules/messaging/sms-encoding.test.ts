import { describe, expect, it } from 'vitest';
import { encodeSms } from '../../../src/modules/messaging/providers/sms-encoding.js';

function encoded(text: string, reference = 7) {
  const result = encodeSms(text, reference);
  if (!result.ok) throw new Error(result.reason);
  return result.value;
}

describe('encodeSms', () => {
  it('keeps 160 GSM characters in one message and splits 161', () => {
    expect(encoded('a'.repeat(160)).parts).toHaveLength(1);
    expect(encoded('a'.repeat(161)).parts.map((part) => part.length)).toEqual([6 + 153, 6 + 8]);
  });

  it('counts an extension character as two septets and never splits its escape pair', () => {
    // 152 plain characters and a euro sign: the pair would straddle 153, so it opens the second part.
    const parts = encoded(`${'a'.repeat(152)}€${'b'.repeat(10)}`).parts;
    expect(parts[0]!.subarray(6)).toEqual(Buffer.from('a'.repeat(152), 'latin1'));
    expect([...parts[1]!.subarray(6, 8)]).toEqual([0x1b, 0x65]);
    expect(encoded('€'.repeat(80)).parts).toHaveLength(1);
    expect(encoded('€'.repeat(81)).parts).toHaveLength(2);
  });

  it('uses UCS2 for a text outside the GSM alphabet and never splits a surrogate pair', () => {
    const result = encoded(`${'я'.repeat(66)}😀${'я'.repeat(10)}`);
    expect(result.dataCoding).toBe(0x08);
    expect(result.parts[0]!.length).toBe(6 + 66 * 2);
    expect(result.parts[1]!.subarray(6, 10)).toEqual(Buffer.from('😀', 'utf16le').swap16());
    expect(encoded('я'.repeat(70)).parts).toHaveLength(1);
  });

  it('numbers the parts under the given reference', () => {
    const parts = encoded('x'.repeat(400), 300).parts;
    expect(parts.map((part) => [...part.subarray(0, 6)])).toEqual([
      [5, 0, 3, 300 & 0xff, 3, 1],
      [5, 0, 3, 300 & 0xff, 3, 2],
      [5, 0, 3, 300 & 0xff, 3, 3],
    ]);
  });

  it('refuses an empty text and a text longer than 255 parts', () => {
    expect(encodeSms('', 0)).toEqual({ ok: false, reason: 'The SMS text is empty.' });
    expect(encodeSms('x'.repeat(153 * 256), 0)).toMatchObject({ ok: false });
  });
});
