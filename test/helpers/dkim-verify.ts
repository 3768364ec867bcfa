import { createHash, verify, type KeyObject } from 'node:crypto';

/**
 * A small DKIM verifier (RFC 6376, rsa-sha256, relaxed/relaxed canonicalization) for tests
 * of outgoing mail: no verifier library is installed. It checks the body hash and the
 * signature over the signed headers against the public key the test holds, in place of
 * the DNS record a receiver would read.
 */
export interface DkimCheck {
  readonly valid: boolean;
  readonly reason: string;
  readonly tags: Readonly<Record<string, string>>;
}

interface Header {
  readonly name: string;
  readonly raw: string;
}

export function verifyDkim(raw: Buffer, publicKey: KeyObject): DkimCheck {
  const text = raw.toString('binary');
  const split = text.indexOf('\r\n\r\n');
  if (split === -1) return { valid: false, reason: 'no header/body separator', tags: {} };
  const headers = parseHeaders(text.slice(0, split + 2));
  const body = text.slice(split + 4);
  const signature = headers.find((header) => header.name === 'dkim-signature');
  if (!signature) return { valid: false, reason: 'no DKIM-Signature header', tags: {} };
  const tags = parseTags(signature.raw.slice(signature.raw.indexOf(':') + 1));
  if (tags.a !== 'rsa-sha256') return { valid: false, reason: `algorithm ${tags.a ?? 'missing'}`, tags };
  if ((tags.c ?? 'simple/simple') !== 'relaxed/relaxed') return { valid: false, reason: `c=${tags.c ?? ''}`, tags };

  const bodyHash = createHash('sha256').update(relaxedBody(body), 'binary').digest('base64');
  if (bodyHash !== tags.bh) return { valid: false, reason: 'body hash differs', tags };

  const used = new Set<Header>();
  let data = '';
  for (const name of (tags.h ?? '').split(':').map((n) => n.trim().toLowerCase())) {
    // The last instance not yet used signs first (RFC 6376 5.4.2); a missing one signs as nothing.
    const header = [...headers].reverse().find((h) => h.name === name && !used.has(h));
    if (!header) continue;
    used.add(header);
    data += `${relaxedHeader(header.raw)}\r\n`;
  }
  data += relaxedHeader(signature.raw.replace(/(^|;)(\s*b\s*=)[^;]*/, '$1$2'));
  const valid = verify('sha256', Buffer.from(data, 'binary'), publicKey, Buffer.from(tags.b ?? '', 'base64'));
  return { valid, reason: valid ? 'ok' : 'signature does not verify', tags };
}

function parseHeaders(block: string): Header[] {
  const headers: Header[] = [];
  for (const line of block.split('\r\n')) {
    if (line === '') continue;
    const last = headers[headers.length - 1];
    if (/^[ \t]/.test(line) && last) headers[headers.length - 1] = { name: last.name, raw: `${last.raw}\r\n${line}` };
    else headers.push({ name: line.slice(0, line.indexOf(':')).trim().toLowerCase(), raw: line });
  }
  return headers;
}

function parseTags(value: string): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const part of value.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    tags[part.slice(0, eq).trim()] = part.slice(eq + 1).replace(/\s+/g, '');
  }
  return tags;
}

function relaxedHeader(raw: string): string {
  const colon = raw.indexOf(':');
  const name = raw.slice(0, colon).trim().toLowerCase();
  const value = raw
    .slice(colon + 1)
    .replace(/\r\n/g, '')
    .replace(/[ \t]+/g, ' ')
    .trim();
  return `${name}:${value}`;
}

function relaxedBody(body: string): string {
  const lines = body.split('\r\n').map((line) => line.replace(/[ \t]+/g, ' ').replace(/ $/, ''));
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.length === 0 ? '' : `${lines.join('\r\n')}\r\n`;
}
