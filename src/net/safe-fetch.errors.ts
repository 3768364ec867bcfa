/**
 * The outcomes of a refused or failed outbound fetch. Each reason is one sentence a shop
 * owner can act on, without internals (no addresses we resolved, no stack, no errno):
 * reasons end up in stored records such as `image_downloading_error`.
 */

export type SafeFetchFailureCode =
  | 'invalid_url'
  | 'unresolvable'
  | 'refused_address'
  | 'unreachable'
  | 'timeout'
  | 'aborted'
  | 'too_large'
  | 'http_status'
  | 'content_type'
  | 'too_many_redirects';

export interface SafeFetchFailure {
  readonly ok: false;
  readonly code: SafeFetchFailureCode;
  readonly reason: string;
  /** The HTTP status, for `http_status`. */
  readonly status?: number;
}

/** Errors a fetched body stream fails with; `message` is the one-sentence reason. */
export class SafeFetchError extends Error {
  override readonly name = 'SafeFetchError';
  constructor(
    readonly code: SafeFetchFailureCode,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }

  toFailure(): SafeFetchFailure {
    return this.status === undefined
      ? { ok: false, code: this.code, reason: this.message }
      : { ok: false, code: this.code, reason: this.message, status: this.status };
  }
}

export function formatBytes(bytes: number): string {
  const mb = 1024 * 1024;
  if (bytes >= mb && bytes % mb === 0) return `${bytes / mb} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
}

export function formatDuration(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

const TLS_CODES = /^(CERT_|ERR_TLS_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT|UNABLE_TO_(GET|VERIFY)|ERR_SSL_)/;

/** Maps a socket, TLS or parser error to a reason that names no internals. */
export function networkError(error: unknown): SafeFetchError {
  if (error instanceof SafeFetchError) return error;
  const raw = (error as { code?: unknown } | null)?.code;
  const code = typeof raw === 'string' ? raw : '';
  if (code === 'ECONNREFUSED') return new SafeFetchError('unreachable', 'The server refused the connection.');
  if (code === 'ECONNRESET' || code === 'EPIPE' || (error as Error | null)?.message === 'aborted') {
    return new SafeFetchError('unreachable', 'The connection broke off before the download finished.');
  }
  if (TLS_CODES.test(code)) return new SafeFetchError('unreachable', "The server's TLS certificate is not valid.");
  if (code.startsWith('HPE_') || code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR' || code.startsWith('ERR_BROTLI')) {
    return new SafeFetchError('unreachable', 'The server sent a malformed response.');
  }
  if (code === 'ENETUNREACH' || code === 'EHOSTUNREACH' || code === 'ETIMEDOUT') {
    return new SafeFetchError('unreachable', 'The server could not be reached.');
  }
  return new SafeFetchError('unreachable', 'The download failed on the network.');
}
