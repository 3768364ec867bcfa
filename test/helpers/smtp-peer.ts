import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

/** One message as the peer received it: the SMTP envelope and the raw bytes of DATA. */
export interface ReceivedMail {
  readonly mailFrom: string;
  readonly rcptTo: string[];
  readonly raw: Buffer;
  readonly user: string | undefined;
  /** The session ran over TLS (implicit or after STARTTLS). */
  readonly secure: boolean;
}

export interface SmtpPeerOptions {
  /** When set, AUTH is required and must match. */
  readonly auth?: { readonly user: string; readonly pass: string };
  /** The AUTH mechanisms offered (smtp-server's default: PLAIN and LOGIN). */
  readonly authMethods?: readonly string[];
  /** The reply to a refused AUTH, instead of `535 Authentication failed for <user>`: some servers quote what they got. */
  readonly authFailureReply?: (attempt: { readonly method: string; readonly username: string; readonly password: string }) => string;
  /** The reply to RCPT TO per address, e.g. `550 5.1.1 No such user`; others are accepted. */
  readonly rcptReplies?: Readonly<Record<string, string>>;
  /** The reply to the end of DATA, instead of 250. */
  readonly dataReply?: string;
  /** Never answers the end of DATA. */
  readonly hangAfterData?: boolean;
  /**
   * Takes the message at the end of DATA (it is in `received` at once) and answers 250 only
   * this many ms later: a slow server, whose client may give up, or lose its job's lease,
   * after the message was accepted.
   */
  readonly acceptDelayMs?: number;
  /** A key and certificate (PEM): STARTTLS is offered, or TLS from the start with `implicitTls`. */
  readonly tls?: { readonly key: string; readonly cert: string; readonly implicitTls?: boolean };
  /** The loopback address to listen on; 127.0.0.1 by default. */
  readonly host?: string;
}

export interface SmtpPeer {
  readonly port: number;
  readonly received: ReceivedMail[];
  /** Connections accepted so far. */
  connections: number;
  /** Connections ended so far, by either side. */
  closedConnections: number;
  /** AUTH attempts so far, accepted or not. */
  authAttempts: number;
  /** The 250 to the end of DATA comes this many ms after the message was taken (options.acceptDelayMs); a test may change it. */
  acceptDelayMs: number;
  close(): Promise<void>;
}

/** A reply such as "550 5.1.1 No such user" as the error smtp-server answers with. */
function replyError(reply: string): Error {
  const match = /^(\d{3}) (.*)$/.exec(reply);
  const error = new Error(match?.[2] ?? reply) as Error & { responseCode: number };
  error.responseCode = Number(match?.[1] ?? 550);
  return error;
}

/** A real SMTP server on 127.0.0.1 (or `host`; smtp-server), as the outside peer of email tests. */
export async function startSmtpPeer(options: SmtpPeerOptions = {}): Promise<SmtpPeer> {
  const received: ReceivedMail[] = [];
  const peer: SmtpPeer = {
    port: 0,
    received,
    connections: 0,
    closedConnections: 0,
    authAttempts: 0,
    acceptDelayMs: options.acceptDelayMs ?? 0,
    close: () => Promise.resolve(),
  };
  const serverOptions: SMTPServerOptions = {
    disabledCommands: [...(options.tls ? [] : ['STARTTLS']), ...(options.auth ? [] : ['AUTH'])],
    ...(options.tls ? { key: options.tls.key, cert: options.tls.cert, secure: options.tls.implicitTls === true } : {}),
    allowInsecureAuth: true,
    ...(options.authMethods ? { authMethods: [...options.authMethods] } : {}),
    authOptional: !options.auth,
    logger: false,
    disableReverseLookup: true,
    // Closing the peer ends connections a client pool still holds, instead of waiting 30 s.
    closeTimeout: 100,
    onConnect(_session, callback) {
      peer.connections += 1;
      callback();
    },
    onClose() {
      peer.closedConnections += 1;
    },
    onAuth(auth, _session, callback) {
      peer.authAttempts += 1;
      if (options.auth && auth.username === options.auth.user && auth.password === options.auth.pass) {
        callback(null, { user: auth.username });
      } else {
        const attempt = { method: auth.method, username: auth.username ?? '', password: auth.password ?? '' };
        callback(replyError(options.authFailureReply?.(attempt) ?? `535 Authentication failed for ${attempt.username}`));
      }
    },
    onRcptTo(address, _session, callback) {
      const reply = options.rcptReplies?.[address.address];
      callback(reply === undefined ? undefined : replyError(reply));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (options.hangAfterData) return;
        const from = session.envelope.mailFrom;
        received.push({
          mailFrom: from === false ? '' : from.address,
          rcptTo: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks),
          user: typeof session.user === 'string' ? session.user : undefined,
          secure: session.secure,
        });
        const answer = () => callback(options.dataReply === undefined ? null : replyError(options.dataReply));
        if (peer.acceptDelayMs === 0) answer();
        else setTimeout(answer, peer.acceptDelayMs);
      });
    },
  };
  const server = new SMTPServer(serverOptions);
  // A client that drops a connection (a refused certificate, a timeout) is part of the tests.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, options.host ?? '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return Object.assign(peer, {
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
