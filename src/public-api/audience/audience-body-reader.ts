import type { Readable } from 'node:stream';
import { AppError } from '../../errors.js';

/**
 * Reads a request body into one Buffer, bounded by `limit` (413 beyond it, at once when
 * Content-Length announces more). Unlike Fastify's buffering parser, the bytes are copied
 * once into a buffer of the announced size instead of being gathered and concatenated,
 * so a body of 100,000 records costs its own size in memory, not twice that.
 */
export function readBoundedBody(stream: Readable, contentLength: string | undefined, limit: number): Promise<Buffer> {
  const declared = contentLength === undefined ? undefined : Number(contentLength);
  if (declared !== undefined && (!Number.isSafeInteger(declared) || declared < 0)) {
    return Promise.reject(new AppError('BAD_REQUEST', 'The Content-Length header is not valid.'));
  }
  if (declared !== undefined && declared > limit) return Promise.reject(tooLarge(limit));

  return new Promise((resolve, reject) => {
    let buffer = Buffer.allocUnsafe(declared ?? 64 * 1024);
    let used = 0;
    const stop = () => {
      stream.removeListener('data', onData);
      stream.removeListener('end', onEnd);
      stream.removeListener('error', onError);
    };
    function onData(chunk: Buffer | string): void {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      if (used + bytes.length > limit) {
        stop();
        reject(tooLarge(limit));
        return;
      }
      if (used + bytes.length > buffer.length) {
        const grown = Buffer.allocUnsafe(Math.min(limit, Math.max(buffer.length * 2, used + bytes.length)));
        buffer.copy(grown, 0, 0, used);
        buffer = grown;
      }
      bytes.copy(buffer, used);
      used += bytes.length;
    }
    function onEnd(): void {
      stop();
      if (declared !== undefined && used !== declared) {
        reject(new AppError('BAD_REQUEST', 'The request body size does not match its Content-Length.'));
        return;
      }
      resolve(buffer.subarray(0, used));
    }
    function onError(): void {
      stop();
      reject(new AppError('BAD_REQUEST', 'The request body could not be read.'));
    }
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
    stream.resume();
  });
}

function tooLarge(limit: number): AppError {
  return new AppError('PAYLOAD_TOO_LARGE', `The request body is larger than the limit of ${limit} bytes.`);
}
