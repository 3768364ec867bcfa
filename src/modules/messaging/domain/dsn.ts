/**
 * Bounce reports in, per-recipient outcomes out. Pure: the raw message is a string.
 *
 * A receiving server that gives up on (or delays) a message sends back a delivery status
 * notification. The standard form (RFC 3464) is a multipart/report whose
 * message/delivery-status part holds one group of fields per recipient (Final-Recipient,
 * Action, Status, Diagnostic-Code); RFC 6533's message/global-delivery-status is read the
 * same way. Some servers still send plain text ("<anna@example.com>: 550 5.1.1 …"); those
 * are read when they carry a recognizable SMTP status code. A 5.x.x status is a hard
 * bounce (the address will not work), a 4.x.x one is soft (it may later).
 *
 * The returned headers of the original message, when the report includes them, give its
 * Message-ID: the id the email provider set, which links the bounce to our message.
 */

export type DsnAction = 'failed' | 'delayed' | 'delivered' | 'relayed' | 'expanded';

export interface DsnRecipient {
  readonly recipient: string;
  readonly action: DsnAction;
  /** The enhanced status code (RFC 3463), e.g. "5.1.1". */
  readonly status: string;
  /** True for a 5.x.x status: do not send to this address again. */
  readonly hard: boolean;
  /** The remote server's words (Diagnostic-Code, or the line of a plain-text report), bounded. */
  readonly diagnostic: string | undefined;
}

export type DsnReport =
  | {
      readonly ok: true;
      readonly format: 'delivery-status' | 'plain-text';
      /** Message-ID of the bounced message, with its angle brackets, when the report returns it. */
      readonly originalMessageId: string | undefined;
      readonly recipients: readonly DsnRecipient[];
    }
  | { readonly ok: false; readonly reason: string };

/** Reports are read up to this size; a bounce's status parts come long before it. */
const MAX_INPUT = 1024 * 1024;
const MAX_DEPTH = 5;
const MAX_PARTS = 50;
const MAX_DIAGNOSTIC = 500;
const ACTIONS = new Set<string>(['failed', 'delayed', 'delivered', 'relayed', 'expanded']);
const STATUS = /(?<![\d.])([245])\.(\d{1,3})\.(\d{1,3})(?![\d.]*\d)/;
const ADDRESS = /<?([^\s<>()[\]",;:@]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,63})>?/;

interface Entity {
  readonly headers: ReadonlyMap<string, string>;
  readonly body: string;
}

interface Found {
  statusParts: string[];
  textParts: string[];
  originalMessageId: string | undefined;
  parts: number;
}

export function parseDsn(raw: string): DsnReport {
  const top = parseEntity(raw.length > MAX_INPUT ? raw.slice(0, MAX_INPUT) : raw);
  const found: Found = { statusParts: [], textParts: [], originalMessageId: undefined, parts: 0 };
  walk(top, 0, found);
  const recipients = found.statusParts.flatMap(readDeliveryStatus);
  if (recipients.length > 0) {
    return { ok: true, format: 'delivery-status', originalMessageId: found.originalMessageId, recipients };
  }
  const failed = top.headers.get('x-failed-recipients');
  for (const text of found.textParts) {
    const recipient = readPlainText(text, failed);
    if (recipient) {
      const originalMessageId = found.originalMessageId ?? messageIdIn(text);
      return { ok: true, format: 'plain-text', originalMessageId, recipients: [recipient] };
    }
  }
  return { ok: false, reason: 'No delivery status or recognizable SMTP status code was found in the report.' };
}

function walk(entity: Entity, depth: number, found: Found): void {
  found.parts += 1;
  if (found.parts > MAX_PARTS) return;
  const { type, params } = contentType(entity.headers.get('content-type'));
  const body = decode(entity.body, entity.headers.get('content-transfer-encoding'));
  if (type.startsWith('multipart/') && params.boundary !== undefined && depth < MAX_DEPTH) {
    for (const part of splitMultipart(entity.body, params.boundary)) walk(parseEntity(part), depth + 1, found);
  } else if (type === 'message/delivery-status' || type === 'message/global-delivery-status') {
    found.statusParts.push(body);
  } else if (type === 'text/rfc822-headers' || type === 'message/rfc822' || type === 'message/global-headers') {
    found.originalMessageId ??= parseEntity(body)
      .headers.get('message-id')
      ?.match(/<[^<>\s]+>/)?.[0];
  } else if (type === 'text/plain' || type === '') {
    found.textParts.push(body);
  }
}

/** Headers (unfolded, names lower case, the first of each name) and the body of a MIME entity. */
function parseEntity(text: string): Entity {
  const normalized = text.replace(/\r\n/g, '\n');
  const end = normalized.search(/\n\n|^\n/);
  const head = end === -1 ? normalized : normalized.slice(0, end);
  const body = end === -1 ? '' : normalized.slice(end + (normalized[end + 1] === '\n' ? 2 : 1));
  const headers = new Map<string, string>();
  for (const field of unfold(head)) {
    const colon = field.indexOf(':');
    if (colon <= 0) continue;
    const name = field.slice(0, colon).trim().toLowerCase();
    if (!headers.has(name)) headers.set(name, field.slice(colon + 1).trim());
  }
  return { headers, body };
}

/** Lines joined with their continuation lines (those starting with white space). */
function unfold(block: string): string[] {
  const fields: string[] = [];
  for (const line of block.split('\n')) {
    if (/^[ \t]/.test(line) && fields.length > 0) fields[fields.length - 1] += ` ${line.trim()}`;
    else if (line.trim() !== '') fields.push(line);
  }
  return fields;
}

function contentType(header: string | undefined): { type: string; params: Record<string, string> } {
  const [type = '', ...rest] = (header ?? '').split(';');
  const params: Record<string, string> = {};
  for (const match of rest.join(';').matchAll(/([A-Za-z0-9_-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/g)) {
    params[(match[1] ?? '').toLowerCase()] = match[2] ?? match[3] ?? '';
  }
  return { type: type.trim().toLowerCase(), params };
}

function splitMultipart(body: string, boundary: string): string[] {
  const parts: string[] = [];
  let current: string[] | undefined;
  for (const line of body.split('\n')) {
    const trimmed = line.trimEnd();
    if (trimmed === `--${boundary}--`) break;
    if (trimmed === `--${boundary}`) {
      if (current) parts.push(current.join('\n'));
      current = [];
    } else {
      current?.push(line);
    }
  }
  if (current) parts.push(current.join('\n'));
  return parts;
}

function decode(body: string, encoding: string | undefined): string {
  switch (encoding?.trim().toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable':
      return Buffer.from(
        body.replace(/=\n/g, '').replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
        'latin1',
      ).toString('utf8');
    default:
      return body;
  }
}

/** The per-recipient groups of a delivery-status body (the first group is per-message). */
function readDeliveryStatus(body: string): DsnRecipient[] {
  const recipients: DsnRecipient[] = [];
  for (const group of body.split(/\n[ \t]*\n/)) {
    const fields = new Map<string, string>();
    for (const field of unfold(group)) {
      const colon = field.indexOf(':');
      if (colon > 0) fields.set(field.slice(0, colon).trim().toLowerCase(), field.slice(colon + 1).trim());
    }
    const recipient = typedValue(fields.get('final-recipient') ?? fields.get('original-recipient'));
    const action = fields.get('action')?.toLowerCase().split(/[\s(]/)[0] ?? '';
    if (recipient === undefined || !ACTIONS.has(action)) continue;
    const diagnostic = bounded(typedValue(fields.get('diagnostic-code')));
    const status = STATUS.exec(fields.get('status') ?? '')?.[0] ?? statusOf(diagnostic ?? '') ?? defaultStatus(action);
    recipients.push({ recipient, action: action as DsnAction, status, hard: status.startsWith('5'), diagnostic });
  }
  return recipients;
}

/** The value of an "address-type; value" field (rfc822; anna@example.com), without brackets. */
function typedValue(field: string | undefined): string | undefined {
  if (field === undefined) return undefined;
  const semicolon = field.indexOf(';');
  const value = (semicolon === -1 ? field : field.slice(semicolon + 1)).trim().replace(/^<(.*)>$/, '$1');
  return value === '' ? undefined : value;
}

/** A plain-text bounce: the line with the first recognizable status code, and whose address it is. */
function readPlainText(text: string, failedHeader: string | undefined): DsnRecipient | undefined {
  const lines = text.split('\n').slice(0, 2000);
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    const status = statusOf(line);
    if (status === undefined) continue;
    let recipient = ADDRESS.exec(failedHeader ?? '')?.[1] ?? ADDRESS.exec(line)?.[1];
    // qmail and Postfix name the recipient on a line of its own just above the reply.
    for (let j = i - 1; recipient === undefined && j >= Math.max(0, i - 3); j -= 1) {
      recipient = ADDRESS.exec(lines[j] ?? '')?.[1];
    }
    if (recipient === undefined) continue;
    const hard = status.startsWith('5');
    return { recipient, action: hard ? 'failed' : 'delayed', status, hard, diagnostic: bounded(line.trim()) };
  }
  return undefined;
}

/** An enhanced status code in `text`, else one made from an SMTP reply code (550 → 5.0.0). */
function statusOf(text: string): string | undefined {
  const enhanced = STATUS.exec(text)?.[0];
  if (enhanced !== undefined && !enhanced.startsWith('2')) return enhanced;
  const reply = /(?:^|said:|:)\s*([45])[0-9]{2}[ -]/.exec(text.trim());
  return reply ? `${reply[1]}.0.0` : undefined;
}

function defaultStatus(action: string): string {
  if (action === 'failed') return '5.0.0';
  if (action === 'delayed') return '4.0.0';
  return '2.0.0';
}

function messageIdIn(text: string): string | undefined {
  return /^message-id:\s*(<[^<>\s]+>)/im.exec(text)?.[1];
}

function bounded(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MAX_DIAGNOSTIC ? `${line.slice(0, MAX_DIAGNOSTIC - 1)}…` : line;
}
