import { SMTPServer } from 'smtp-server';

/**
 * The benches' SMTP peer on the loopback interface: takes every message, counts arrivals
 * by the keys `keysOf` finds in it (a code in the subject, the recipients), and notes
 * when the last one arrived.
 */
export class SmtpPeer {
  readonly byKey = new Map<string, number>();
  received = 0;
  lastAt = 0;
  port = 0;
  private server: SMTPServer | undefined;

  constructor(private readonly keysOf: (text: string, recipients: readonly string[]) => readonly string[]) {}

  async start(): Promise<void> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const text = Buffer.concat(chunks).toString('latin1');
          for (const key of this.keysOf(text, session.envelope.rcptTo.map((r) => r.address))) this.byKey.set(key, (this.byKey.get(key) ?? 0) + 1);
          this.received += 1;
          this.lastAt = performance.now();
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.server.address() as { port: number }).port;
  }

  reset(): void {
    this.byKey.clear();
    this.received = 0;
    this.lastAt = 0;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}
