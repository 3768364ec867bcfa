import net from 'node:net';

/**
 * A lean HTTP/1.1 keep-alive connection for the benches' open-loop client (http-load.ts):
 * one request at a time, written as one buffer; the answer read by its Content-Length.
 *
 * Why not node:http: its client costs about a fifth of a core at the paced rates of
 * bench:transact, on a machine of two cores that the measured server shares with the
 * client, the SMTP peer and the server's own threads. What the client spends is taken
 * from the server it measures. autocannon, the closed-loop client, writes raw sockets the
 * same way.
 *
 * Only what the benches' servers answer is read: a status line, headers with a
 * Content-Length (Fastify sets it on every answer the benches take), and that many bytes
 * of body. An answer without one, or a connection closed or broken while a request is
 * out, fails that request and the connection reconnects for the next.
 */

export interface RawAnswer {
  readonly status: number;
  readonly body: string;
}

const HEADER_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = /\r\ncontent-length:\s*(\d+)/i;

export class RawHttpConnection {
  private socket: net.Socket | undefined;
  private pending: { resolve: (answer: RawAnswer) => void; reject: (error: Error) => void; timer: NodeJS.Timeout } | undefined;
  private buffer: Buffer = Buffer.alloc(0);
  /** Bytes of header (with the blank line) and of body of the answer being read, once its head is in. */
  private expected: { head: number; body: number; status: number } | undefined;

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly timeoutMs: number,
  ) {}

  /** Sends one request (the connection must be idle) and resolves with its answer. */
  request(method: string, path: string, body: string | undefined): Promise<RawAnswer> {
    if (this.pending) return Promise.reject(new Error('a request is already out on this connection'));
    const socket = this.connect();
    const head =
      `${method} ${path} HTTP/1.1\r\nhost: ${this.host}:${this.port}\r\nconnection: keep-alive\r\n` +
      (body === undefined ? '\r\n' : `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n`);
    return new Promise<RawAnswer>((resolve, reject) => {
      const timer = setTimeout(() => this.fail(new Error('timeout')), this.timeoutMs);
      this.pending = { resolve, reject, timer };
      socket.write(body === undefined ? head : head + body);
    });
  }

  close(): void {
    this.socket?.destroy();
    this.socket = undefined;
  }

  private connect(): net.Socket {
    if (this.socket) return this.socket;
    const socket = net.connect({ host: this.host, port: this.port, noDelay: true });
    // A dropped socket's late events must not touch its successor.
    socket.on('data', (chunk: Buffer) => {
      if (this.socket === socket) this.read(chunk);
    });
    socket.on('error', (error) => {
      if (this.socket === socket) this.fail(error);
    });
    socket.on('close', () => {
      if (this.socket === socket) this.fail(new Error('connection closed'));
    });
    this.socket = socket;
    this.buffer = Buffer.alloc(0);
    this.expected = undefined;
    return socket;
  }

  private read(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    if (!this.expected) {
      const end = this.buffer.indexOf(HEADER_END);
      if (end < 0) return;
      const head = this.buffer.toString('latin1', 0, end);
      const length = CONTENT_LENGTH.exec(head)?.[1];
      if (length === undefined) return this.fail(new Error('an answer without Content-Length'));
      this.expected = { head: end + HEADER_END.length, body: Number(length), status: Number(head.slice(9, 12)) };
    }
    const { head, body, status } = this.expected;
    if (this.buffer.length < head + body) return;
    const text = this.buffer.toString('utf8', head, head + body);
    this.buffer = this.buffer.subarray(head + body);
    this.expected = undefined;
    const pending = this.pending;
    this.pending = undefined;
    if (pending) {
      clearTimeout(pending.timer);
      pending.resolve({ status, body: text });
    }
  }

  /** Fails the request that is out, if any, and drops the connection (the next request reconnects). */
  private fail(error: Error): void {
    const pending = this.pending;
    this.pending = undefined;
    if (this.socket) {
      const socket = this.socket;
      this.socket = undefined;
      socket.destroy();
    }
    if (pending) {
      clearTimeout(pending.timer);
      pending.reject(error);
    }
  }
}
