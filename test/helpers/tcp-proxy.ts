import net from 'node:net';

interface Pair {
  readonly client: net.Socket;
  readonly upstream: net.Socket;
  stalled: boolean;
}

/**
 * A TCP proxy in front of a real server (PostgreSQL), for tests of what a client does when
 * the network fails it: refuse new connections (the server is away), or stall the open
 * ones, which then pass nothing on in either direction without being closed (a
 * connection that died without a word: a half-open TCP connection, a silent pooler).
 */
export class TcpProxy {
  private readonly pairs = new Set<Pair>();
  private refusing = false;

  private constructor(
    private readonly server: net.Server,
    private readonly target: { readonly host: string; readonly port: number },
  ) {
    server.on('connection', (client) => this.accept(client));
  }

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const server = net.createServer();
    const proxy = new TcpProxy(server, target);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get port(): number {
    return (this.server.address() as net.AddressInfo).port;
  }

  /** New connections are closed as soon as they are accepted (true) or passed on (false). */
  refuse(refusing: boolean): void {
    this.refusing = refusing;
  }

  /** The open connections pass nothing on from now on, and stay open. */
  stallOpenConnections(): void {
    for (const pair of this.pairs) pair.stalled = true;
  }

  /** Connections open now, stalled ones included. */
  get open(): number {
    return this.pairs.size;
  }

  async close(): Promise<void> {
    for (const pair of this.pairs) {
      pair.client.destroy();
      pair.upstream.destroy();
    }
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: net.Socket): void {
    if (this.refusing) {
      client.destroy();
      return;
    }
    const upstream = net.connect(this.target.port, this.target.host);
    const pair: Pair = { client, upstream, stalled: false };
    this.pairs.add(pair);
    const forward = (from: net.Socket, to: net.Socket) =>
      from.on('data', (chunk: Buffer) => {
        if (!pair.stalled) to.write(chunk);
      });
    forward(client, upstream);
    forward(upstream, client);
    const end = () => {
      this.pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    for (const socket of [client, upstream]) {
      socket.on('error', end);
      socket.on('close', end);
    }
  }
}
