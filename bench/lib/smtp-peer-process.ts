import { SMTPServer } from 'smtp-server';
import type { PeerReply, PeerRequest } from './smtp-peer.js';

/**
 * The SMTP peer's own process (smtp-peer.ts starts it): takes every message on the
 * loopback interface, counts arrivals by key and notes when the last one arrived, and
 * answers the bench's questions over the IPC channel. The key of a message is what
 * PEER_KEY_PATTERN's first group finds in it, or each of its recipients when unset.
 */
const pattern = process.env.PEER_KEY_PATTERN ? new RegExp(process.env.PEER_KEY_PATTERN, process.env.PEER_KEY_FLAGS ?? '') : undefined;

let byKey = new Map<string, number>();
let received = 0;
/** Milliseconds since the epoch, sub-millisecond (performance.timeOrigin + now), comparable across processes. */
let lastAt = 0;

function keysOf(text: string, recipients: readonly string[]): readonly string[] {
  if (!pattern) return recipients;
  return [pattern.exec(text)?.[1] ?? ''];
}

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData: (stream, session, callback) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      for (const key of keysOf(
        text,
        session.envelope.rcptTo.map((r) => r.address),
      ))
        byKey.set(key, (byKey.get(key) ?? 0) + 1);
      received += 1;
      lastAt = performance.timeOrigin + performance.now();
      callback();
    });
  },
});

function reply(message: PeerReply): void {
  process.send?.(message);
}

process.on('message', (request: PeerRequest) => {
  switch (request.op) {
    case 'reset':
      byKey = new Map();
      received = 0;
      lastAt = 0;
      reply({ id: request.id, received, lastAt });
      break;
    case 'count':
      reply({ id: request.id, received, lastAt });
      break;
    case 'snapshot':
      reply({ id: request.id, received, lastAt, byKey: [...byKey] });
      break;
    case 'stop':
      server.close(() => {
        reply({ id: request.id, received, lastAt });
        process.exit(0);
      });
      break;
  }
});
// The bench gone, nothing is left to answer.
process.on('disconnect', () => process.exit(0));

server.listen(0, '127.0.0.1', () => {
  const address = server.server.address();
  reply({ id: 0, received: 0, lastAt: 0, port: typeof address === 'object' && address ? address.port : 0 });
});
