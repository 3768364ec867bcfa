import { encode as encodeBase64, wrap as wrapBase64 } from 'nodemailer/lib/base64';
import { foldLines } from 'nodemailer/lib/mime-funcs';
import MimeNode from 'nodemailer/lib/mime-node';
import { encode as encodeQp, wrap as wrapQp } from 'nodemailer/lib/qp';

/**
 * The RFC 5322 text of a transactional email (multipart/alternative of a text and an
 * HTML part), built in one pass and handed to nodemailer as `raw`.
 *
 * Why not nodemailer's own composition: composing a message through its MIME tree
 * (streams per node, a `stream.pipeline` per encoded part whose finish aborts an
 * AbortController and builds a DOMException, two random boundaries, a socket write per
 * chunk) costs more than twice the CPU of the same message as one prepared buffer, and
 * was the largest part of a delivery. The encodings are nodemailer's own
 * (its header, quoted-printable and base64 encoders), and its choices are kept: 7bit for
 * short-lined ASCII, quoted-printable when mostly Latin, base64 otherwise.
 *
 * Only plain cases are composed here: ASCII addresses and ASCII header values. Anything
 * else (an internationalised address, a header value with non-ASCII text) returns
 * undefined and the provider lets nodemailer compose it.
 */

export interface MimeInput {
  /** The whole From header value, encoded (fromHeaderValue). */
  readonly from: string;
  readonly to: string;
  readonly cc: readonly string[];
  readonly subject: string;
  /** With its angle brackets. */
  readonly messageId: string;
  readonly date: Date;
  /** Checked by the provider: header names, no line breaks. */
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
  readonly html: string;
  /** Unique per message; `=_` in it cannot occur in quoted-printable or base64 text. */
  readonly boundary: string;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/** Text that may go as 7bit: printable ASCII, tabs and line breaks. */
const SEVEN_BIT_TEXT = /^[\x20-\x7e\t\r\n]*$/;
const LONG_LINE = /[^\r\n]{77}/;

/** The From header's value as nodemailer encodes it ("Name" <address>, an encoded word for a non-ASCII name). */
export function fromHeaderValue(from: string): string {
  return MimeNode.encodeHeaderValue('From', from);
}

/** The message's bytes, or undefined when it is not a plain case (see above). */
export function composeMime(input: MimeInput): Buffer | undefined {
  if (!PRINTABLE_ASCII.test(input.to) || !input.cc.every((address) => PRINTABLE_ASCII.test(address))) return undefined;
  const lines = [`From: ${input.from}`, `To: ${input.to}`];
  if (input.cc.length > 0) lines.push(foldLines(`Cc: ${input.cc.join(', ')}`, 76));
  const subject = PRINTABLE_ASCII.test(input.subject) ? input.subject : MimeNode.encodeHeaderValue('Subject', input.subject);
  if (subject.trim() !== '') lines.push(foldLines(`Subject: ${subject}`, 76));
  lines.push(`Message-ID: ${input.messageId}`, `Date: ${input.date.toUTCString().replace(/GMT/, '+0000')}`, 'MIME-Version: 1.0');
  for (const name in input.headers) {
    const value = input.headers[name]!;
    if (!PRINTABLE_ASCII.test(value)) return undefined;
    lines.push(foldLines(`${name}: ${value}`, 76));
  }
  const parts: string[][] = [];
  if (input.text !== '') parts.push(textPart('text/plain', input.text, input.boundary));
  if (input.html !== '' || parts.length === 0) parts.push(textPart('text/html', input.html, input.boundary));
  if (parts.length === 1) {
    lines.push(...parts[0]!);
  } else {
    lines.push(`Content-Type: multipart/alternative; boundary="${input.boundary}"`, '');
    for (const part of parts) lines.push(`--${input.boundary}`, ...part);
    lines.push(`--${input.boundary}--`, '');
  }
  return Buffer.from(lines.join('\r\n'));
}

/** A part's headers, a blank line and its encoded content. */
function textPart(type: string, content: string, boundary: string): string[] {
  const head = `Content-Type: ${type}; charset=utf-8`;
  if (SEVEN_BIT_TEXT.test(content) && !LONG_LINE.test(content) && !content.includes(boundary)) {
    return [head, 'Content-Transfer-Encoding: 7bit', '', content];
  }
  return mostlyLatin(content)
    ? [head, 'Content-Transfer-Encoding: quoted-printable', '', wrapQp(encodeQp(content), 76)]
    : [head, 'Content-Transfer-Encoding: base64', '', wrapBase64(encodeBase64(Buffer.from(content)), 76)];
}

/** nodemailer's choice between quoted-printable and base64: more Latin letters than other symbols. */
function mostlyLatin(value: string): boolean {
  let other = 0;
  let latin = 0;
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    if (code <= 0x08 || code === 0x0b || code === 0x0c || (code >= 0x0e && code <= 0x1f) || code >= 0x80) other += 1;
    else if ((code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)) latin += 1;
  }
  return other < latin;
}
