import type { EmailMessage, SendResult } from './provider.js';

/**
 * What a rendered email may say about its own envelope and headers (smtp.provider.ts):
 * addresses that are one mailbox each, and no header the provider writes itself, so that
 * nothing a template renders can write a header of its own (header injection).
 */

/** Headers the provider writes itself; a message may not set them. */
const OWN_HEADERS = new Set([
  'from',
  'to',
  'cc',
  'bcc',
  'subject',
  'message-id',
  'date',
  'mime-version',
  'content-type',
  'content-transfer-encoding',
  'dkim-signature',
  'sender',
  'return-path',
]);
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,76}$/;
/** A bare address: one @, no spaces, no brackets, no separators, no control characters. */
const ADDRESS = /^[^\s<>()[\]",;:@\\\p{Cc}]{1,64}@[^\s<>()[\]",;:@\\\p{Cc}]{1,253}$/u;
const MAILBOX = /^(?:"?([^"<>\p{Cc}]*?)"?\s*)?<([^<>\s]+)>$/u;

/** The address of "Name <address>" or of a bare address; undefined when neither. */
export function parseMailbox(text: string): string | undefined {
  const trimmed = text.trim();
  if (/[\r\n]/.test(trimmed)) return undefined;
  const address = MAILBOX.exec(trimmed)?.[2] ?? trimmed;
  return ADDRESS.test(address) ? address : undefined;
}

/** Refuses what would let a rendered message write its own headers (header injection). */
export function checkMessage(message: EmailMessage): Extract<SendResult, { ok: false }> | undefined {
  for (const address of [message.to, ...message.cc, ...message.bcc]) {
    if (/[\r\n]/.test(address)) {
      return { ok: false, kind: 'permanent', message: 'An email address holds a line break; refused (header injection).' };
    }
    if (!ADDRESS.test(address)) return { ok: false, kind: 'permanent', message: 'An email address is not valid.' };
  }
  for (const [name, value] of Object.entries(message.headers)) {
    if (!HEADER_NAME.test(name) || OWN_HEADERS.has(name.toLowerCase())) {
      return { ok: false, kind: 'permanent', message: `The header "${name.slice(0, 40)}" cannot be set by a message.` };
    }
    if (/[\r\n]/.test(value)) {
      return { ok: false, kind: 'permanent', message: `The header ${name} holds a line break; refused (header injection).` };
    }
  }
  return undefined;
}
