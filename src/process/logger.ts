import { pino, type Logger } from 'pino';
import type { LogLevel } from '../config.js';

export type { Logger };

/** Pino options shared by the process logger and Fastify's request logger. */
export function loggerOptions(level: LogLevel): { level: LogLevel; base: { service: string } } {
  return { level, base: { service: 'patron' } };
}

/** The process logger: start-up, shutdown and job runner messages, as JSON lines on stdout. */
export function createLogger(level: LogLevel): Logger {
  return pino(loggerOptions(level));
}
