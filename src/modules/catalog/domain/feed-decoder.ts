/**
 * Bytes of a feed to text, chunk by chunk. A YML feed names its encoding in the XML
 * declaration (Russian feeds are often windows-1251), so the first bytes are held until
 * the declaration can be read; a byte order mark wins over the declaration. JSON is
 * UTF-8 (RFC 8259). Pure.
 */
import { TextDecoder } from 'node:util';
import { FeedFormatError } from './feed-types.js';

/** How much of the start is held to find the XML declaration. */
const SNIFF_BYTES = 1024;

export class FeedDecoder {
  private decoder: TextDecoder | undefined;
  private held: Buffer[] = [];
  private heldBytes = 0;

  /** `charset`: what the transport declared (an HTTP Content-Type); a known label wins over the declaration. */
  constructor(
    private readonly format: 'yml' | 'json',
    charset?: string,
  ) {
    if (format === 'json') this.decoder = new TextDecoder('utf-8');
    else if (charset !== undefined && isKnownEncoding(charset)) this.decoder = new TextDecoder(charset);
  }

  decode(chunk: Uint8Array): string {
    if (this.decoder !== undefined) return this.decoder.decode(chunk, { stream: true });
    this.held.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    this.heldBytes += chunk.byteLength;
    const start = Buffer.concat(this.held);
    // The first '>' ends the declaration, or the first tag when there is none.
    if (this.heldBytes < SNIFF_BYTES && !start.includes('>')) return '';
    this.held = [];
    this.decoder = new TextDecoder(sniffEncoding(start, this.format));
    return this.decoder.decode(start, { stream: true });
  }

  end(): string {
    if (this.decoder === undefined) {
      const start = Buffer.concat(this.held);
      this.held = [];
      this.decoder = new TextDecoder(sniffEncoding(start, this.format));
      return this.decoder.decode(start);
    }
    return this.decoder.decode();
  }
}

function sniffEncoding(start: Buffer, format: 'yml' | 'json'): string {
  if (start[0] === 0xef && start[1] === 0xbb && start[2] === 0xbf) return 'utf-8';
  if (start[0] === 0xff && start[1] === 0xfe) return 'utf-16le';
  if (start[0] === 0xfe && start[1] === 0xff) return 'utf-16be';
  if (format === 'json') return 'utf-8';
  const declaration = /^\s*<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]{1,40})["']/.exec(
    start.subarray(0, SNIFF_BYTES).toString('latin1'),
  );
  const label = declaration?.[1]?.toLowerCase() ?? 'utf-8';
  if (!isKnownEncoding(label)) throw new FeedFormatError(`The feed's encoding "${label}" is not supported.`);
  return label;
}

function isKnownEncoding(label: string): boolean {
  try {
    // Throws RangeError for a label the WHATWG Encoding standard does not know.
    new TextDecoder(label);
    return true;
  } catch {
    return false;
  }
}
