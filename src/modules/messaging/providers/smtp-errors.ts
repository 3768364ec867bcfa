import { quotesShortSecret, redactCredentials } from '../../../observability/redact-credentials.js';
import type { SendResult } from './provider.js';

/**
 * Maps what nodemailer reports to a SendResult. The message quotes the server's reply
 * (the vendor's own words) and nothing else of the error: nodemailer's own texts may carry
 * the address we connected to, and no text may carry the login or password of smtp_url,
 * which a server can echo back (some repeat the user name, or the whole AUTH PLAIN token,
 * in a 535): the reply passes through redactCredentials with both as known secrets.
 */

export type SmtpFailure = Extract<SendResult, { ok: false }>;

interface NodemailerError {
  readonly code?: unknown;
  readonly responseCode?: unknown;
  readonly response?: unknown;
  readonly command?: unknown;
}

/** Enhanced status codes (RFC 3463) that say the mailbox does not exist or is gone for good. */
const DEAD_MAILBOX = /^5\.(1\.(1|2|3|6|10)|2\.1)$/;
/** Basic codes that, answering RCPT TO without a telling enhanced code, mean the same. */
const DEAD_REPLY = new Set([550, 551, 553]);
const MAX_MESSAGE = 300;

const NETWORK: Readonly<Record<string, string>> = {
  ETIMEDOUT: 'The SMTP server did not answer in time.',
  ECONNECTION: 'The connection to the SMTP server failed or broke off.',
  ESOCKET: 'The connection to the SMTP server failed or broke off.',
  EDNS: 'The host name of the SMTP server could not be resolved.',
  ETLS: 'The TLS connection to the SMTP server failed (certificate or protocol).',
  EPROTOCOL: 'The SMTP server answered outside the protocol.',
};

/** Reads the reply code and the enhanced status code of a server reply, e.g. "550 5.1.1 No such user". */
export function parseReply(reply: string): { code: number | undefined; enhanced: string | undefined } {
  const match = /^(\d{3})[ -](?:([245]\.\d{1,3}\.\d{1,3})\b)?/.exec(reply.trim());
  return { code: match ? Number(match[1]) : undefined, enhanced: match?.[2] };
}

/** One failed recipient (RCPT TO answered with `reply`) as a SendResult failure. */
export function classifyRecipientReply(reply: string, secrets: readonly string[]): SmtpFailure {
  const { code, enhanced } = parseReply(reply);
  const message = `The SMTP server refused the recipient: ${quote(reply, secrets)}`;
  if (code === undefined || code < 500) return { ok: false, kind: 'temporary', message };
  const dead = enhanced !== undefined ? DEAD_MAILBOX.test(enhanced) : DEAD_REPLY.has(code);
  return { ok: false, kind: dead ? 'dead_address' : 'permanent', message };
}

/** Codes of a connection that failed or fell silent, rather than of a server's answer. */
const CONNECTION_LOST = new Set(['ETIMEDOUT', 'ECONNECTION', 'ESOCKET']);

/**
 * Any error of sendMail as a SendResult failure. `secrets` are scrubbed from the quoted
 * reply. `handedOver`: the whole message had been written to the connection, so a
 * connection that then failed or fell silent leaves the outcome unknown (the server may
 * have taken it before its answer was lost), never a temporary failure to retry.
 */
export function classifySmtpError(error: unknown, secrets: readonly string[], handedOver = false): SmtpFailure {
  const e = (typeof error === 'object' && error !== null ? error : {}) as NodemailerError;
  const code = typeof e.code === 'string' ? e.code : '';
  if (handedOver && CONNECTION_LOST.has(code)) {
    const what = code === 'ETIMEDOUT' ? 'did not answer in time' : 'broke off the connection';
    return {
      ok: false,
      kind: 'unknown',
      message: `The SMTP server ${what} after it was sent the whole message: it may have taken it. Not sent again, so that it is not sent twice.`,
    };
  }
  const reply = typeof e.response === 'string' ? e.response : undefined;
  const command = typeof e.command === 'string' ? e.command : '';
  const responseCode = typeof e.responseCode === 'number' ? e.responseCode : undefined;
  if (reply !== undefined && responseCode !== undefined) {
    if (command.startsWith('RCPT')) return classifyRecipientReply(reply, secrets);
    const what = command.startsWith('AUTH')
      ? 'The SMTP server refused the login'
      : command.startsWith('MAIL')
        ? 'The SMTP server refused the sender'
        : command.startsWith('STARTTLS')
          ? 'The SMTP server refused STARTTLS'
          : 'The SMTP server refused the message';
    const kind = responseCode >= 500 ? 'permanent' : 'temporary';
    return { ok: false, kind, message: `${what}: ${quote(reply, secrets)}` };
  }
  if (code === 'EAUTH') {
    return { ok: false, kind: 'permanent', message: 'The SMTP server refused the login (check smtp_url).' };
  }
  if (code === 'EMESSAGE') return { ok: false, kind: 'permanent', message: 'The SMTP server does not take a message this large.' };
  // Anything else is the network or a server that stopped talking: worth another try.
  return { ok: false, kind: 'temporary', message: NETWORK[code] ?? 'Sending through the SMTP server failed.' };
}

/** The server's reply on one line, bounded, with every credential replaced by ****. */
function quote(reply: string, secrets: readonly string[]): string {
  const line = reply.replace(/\s+/g, ' ').trim();
  // A secret this short would mangle the text if replaced: withhold the reply instead.
  if (quotesShortSecret(line, secrets)) return '(reply withheld: it may quote the credentials)';
  const text = redactCredentials(line, secrets);
  return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE - 1)}…` : text;
}
