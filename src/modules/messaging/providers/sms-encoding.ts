/**
 * How an SMS text becomes the bytes of one or more SMPP short messages. Pure: no I/O.
 *
 * A text made only of characters of the GSM 03.38 default alphabet (with its extension
 * table: `{ } [ ] ~ \ | ^ €` and form feed) goes out as data_coding 0x00, the SMSC default
 * alphabet, one septet per octet (SMPP carries septets unpacked); anything else (Cyrillic,
 * emoji) as UCS2, data_coding 0x08, big-endian UTF-16.
 *
 * A text too long for one message is split into parts, each led by a concatenation UDH
 * (IEI 0x00: an 8-bit reference, the number of parts, the part's number), with the
 * UDH-indicator bit set in esm_class. We split ourselves rather than send one
 * message_payload TLV: every SMSC and handset understands UDH concatenation, while
 * message_payload support in submit_sm varies between SMSCs, and splitting here lets us
 * keep an escape pair or a surrogate pair whole within a part.
 */

const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\u001bÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';

/** Characters of the extension table and the code that follows the 0x1B escape. */
const GSM_EXTENDED: Readonly<Record<string, number>> = {
  '\f': 0x0a,
  '^': 0x14,
  '{': 0x28,
  '}': 0x29,
  '\\': 0x2f,
  '[': 0x3c,
  '~': 0x3d,
  ']': 0x3e,
  '|': 0x40,
  '€': 0x65,
};

const ESCAPE = 0x1b;
const BASIC_CODE = new Map<string, number>([...GSM_BASIC].map((char, code) => [char, code]));

export const DATA_CODING_GSM = 0x00;
export const DATA_CODING_UCS2 = 0x08;
/** esm_class bit 6: the short message starts with a user data header. */
export const ESM_CLASS_UDHI = 0x40;

/** One septet-per-octet and one UTF-16 unit-per-two-octets: the single and the concatenated capacities. */
const GSM_SINGLE = 160;
const GSM_PART = 153;
const UCS2_SINGLE = 70;
const UCS2_PART = 67;
const MAX_PARTS = 255;

export interface SmsEncoding {
  readonly dataCoding: typeof DATA_CODING_GSM | typeof DATA_CODING_UCS2;
  /** The short_message of each part, the UDH included when there is more than one. */
  readonly parts: readonly Buffer[];
}

export type SmsEncodingResult = { readonly ok: true; readonly value: SmsEncoding } | { readonly ok: false; readonly reason: string };

/**
 * The text as GSM septets, one array per character (an extended character is two
 * septets), or undefined when a character is outside the GSM alphabet.
 */
function gsmSeptets(text: string): number[][] | undefined {
  const chars: number[][] = [];
  for (const char of text) {
    if (char === '\u001b') return undefined;
    const basic = BASIC_CODE.get(char);
    if (basic !== undefined) {
      chars.push([basic]);
      continue;
    }
    const extended = GSM_EXTENDED[char];
    if (extended === undefined) return undefined;
    chars.push([ESCAPE, extended]);
  }
  return chars;
}

/** Groups units (a character's septets, or a code point's UTF-16 code units) into parts of at most `capacity`. */
function pack(units: readonly Buffer[], capacity: number, unitSize: number): Buffer[] {
  const parts: Buffer[] = [];
  let current: Buffer[] = [];
  let used = 0;
  for (const unit of units) {
    const size = unit.length / unitSize;
    if (used + size > capacity) {
      parts.push(Buffer.concat(current));
      current = [];
      used = 0;
    }
    current.push(unit);
    used += size;
  }
  if (current.length > 0) parts.push(Buffer.concat(current));
  return parts;
}

function withUdh(parts: Buffer[], reference: number): Buffer[] {
  if (parts.length === 1) return parts;
  return parts.map((part, index) => Buffer.concat([Buffer.from([0x05, 0x00, 0x03, reference & 0xff, parts.length, index + 1]), part]));
}

/** Encodes `text` for SMPP; `reference` (0–255) ties the parts of one long message together. */
export function encodeSms(text: string, reference: number): SmsEncodingResult {
  if (text.length === 0) return { ok: false, reason: 'The SMS text is empty.' };
  const septets = gsmSeptets(text);
  let dataCoding: SmsEncoding['dataCoding'];
  let parts: Buffer[];
  if (septets) {
    dataCoding = DATA_CODING_GSM;
    const units = septets.map((char) => Buffer.from(char));
    const total = septets.reduce((sum, char) => sum + char.length, 0);
    parts = total <= GSM_SINGLE ? [Buffer.concat(units)] : pack(units, GSM_PART, 1);
  } else {
    dataCoding = DATA_CODING_UCS2;
    // One unit per code point, so that a surrogate pair never straddles two parts.
    const units = [...text].map((char) => Buffer.from(char, 'utf16le').swap16());
    parts = text.length <= UCS2_SINGLE ? [Buffer.concat(units)] : pack(units, UCS2_PART, 2);
  }
  if (parts.length > MAX_PARTS) {
    return { ok: false, reason: `The SMS text needs ${parts.length} parts; SMS concatenation allows at most ${MAX_PARTS}.` };
  }
  return { ok: true, value: { dataCoding, parts: withUdh(parts, reference) } };
}
