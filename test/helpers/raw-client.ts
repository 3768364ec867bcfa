import net from 'node:net';
import { performance } from 'node:perf_hooks';

/**
 * A TCP client that writes exactly what a test tells it, when it tells it: for what
 * `app.inject` cannot show (timeouts, connection caps, the client address). `closed`
 * resolves when the server ends the connection, with everything it sent and the time
 * from connecting.
 */
export interface RawClient {
  readonly socket: net.Socket;
  write(text: string): void;
  /** Everything the server sent so far. */
  received(): string;
  readonly closed: Promise<{ readonly text: string; readonly afterMs: number }>;
  destroy(): void;
}

export async function connectRaw(port: number): Promise<RawClient> {
  const socket = net.connect(port, '127.0.0.1');
  const started = performance.now();
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    text += chunk;
  });
  // A reset after the server's answer is a close like any other here.
  socket.on('error', () => undefined);
  const closed = new Promise<{ text: string; afterMs: number }>((resolve) => {
    socket.once('close', () => resolve({ text, afterMs: performance.now() - started }));
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return {
    socket,
    write: (chunk) => socket.write(chunk),
    received: () => text,
    closed,
    destroy: () => socket.destroy(),
  };
}

/** The status code of the first response in `text`, or undefined when none came. */
export function statusOf(text: string): number | undefined {
  const match = /^HTTP\/1\.1 (\d{3}) /.exec(text);
  return match ? Number(match[1]) : undefined;
}

/** The body of the first response in `text` (after the blank line), parsed as JSON. */
export function jsonBodyOf(text: string): unknown {
  const start = text.indexOf('\r\n\r\n');
  return JSON.parse(text.slice(start + 4));
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
