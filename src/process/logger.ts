import { pino, stdSerializers, type Logger } from 'pino';
import type { LogLevel } from '../config.js';
import { redactCredentials } from '../observability/redact-credentials.js';

export type { Logger };

type SerializedError = ReturnType<typeof stdSerializers.err>;

/** Pino options shared by the process logger and Fastify's request logger. */
export function loggerOptions(level: LogLevel): {
  level: LogLevel;
  base: { service: string };
  serializers: { err: (error: Error) => SerializedError };
} {
  return { level, base: { service: 'patron' }, serializers: { err: redactedError } };
}

/** The process logger: start-up, shutdown and job runner messages, as JSON lines on stdout. */
export function createLogger(level: LogLevel): Logger {
  return pino(loggerOptions(level));
}

/**
 * An error as pino writes it, with no credential in its text: a client library's error
 * carries what the peer answered (nodemailer's `response` holds the SMTP reply, which may
 * quote an AUTH token) and sometimes the URL it called, in its message, stack and fields.
 */
function redactedError(error: Error): SerializedError {
  return redactStrings(stdSerializers.err(error), 3) as SerializedError;
}

function redactStrings(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return redactCredentials(value);
  if (depth === 0 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => redactStrings(item, depth - 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = redactStrings(item, depth - 1);
  return out;
}
