import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { startLocalHttpServer } from '../../helpers/local-http-server.js';

export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export interface ApiPeer {
  readonly url: string;
  readonly seen: SeenRequest[];
  /** How the next request is answered; 'hang' never answers. */
  reply: (request: SeenRequest, response: ServerResponse) => void | 'hang';
  close(): Promise<void>;
}

/** A local HTTP server standing in for a vendor's API: records every request whole, answers as told. */
export async function startApiPeer(): Promise<ApiPeer> {
  const peer = {
    seen: [] as SeenRequest[],
    reply: (_request: SeenRequest, response: ServerResponse): void => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    },
  } as ApiPeer & { reply: ApiPeer['reply'] };
  const server = await startLocalHttpServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const seen = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      peer.seen.push(seen);
      peer.reply(seen, response);
    });
  });
  return Object.assign(peer, { url: server.url, close: () => server.close() });
}

export function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}
