import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LocalHttpServer {
  /** `http://127.0.0.1:<port>` (or `http://[::1]:<port>`), no trailing slash. */
  readonly url: string;
  readonly port: number;
  /** Paths requested so far, in order. */
  readonly requests: string[];
  close(): Promise<void>;
}

/**
 * A real HTTP server on a loopback address, as the outside peer of fetch tests. The
 * handler answers each request; every request's path is recorded first.
 */
export async function startLocalHttpServer(
  handler: http.RequestListener,
  host: '127.0.0.1' | '::1' = '127.0.0.1',
): Promise<LocalHttpServer> {
  const requests: string[] = [];
  const server = http.createServer((request, response) => {
    requests.push(request.url ?? '');
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const url = host === '::1' ? `http://[::1]:${port}` : `http://127.0.0.1:${port}`;
  return {
    url,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
