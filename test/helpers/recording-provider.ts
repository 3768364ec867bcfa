import { Type, type TObject } from '@sinclair/typebox';
import type { Channel, MessageByChannel, Provider, SendContext, SendResult } from '../../src/modules/messaging/providers/provider.js';

/**
 * A delivery vendor for tests of the messaging engine (STYLE.md: the service tier fakes
 * outside providers). It records what it is given and answers from a script, so a test
 * can say "the vendor refuses once, then accepts".
 */
export class RecordingProvider<C extends Channel> implements Provider<C, Record<string, unknown>> {
  readonly sent: Array<{ settings: Record<string, unknown>; message: MessageByChannel[C] }> = [];
  private readonly script: SendResult[] = [];

  constructor(
    readonly channel: C,
    readonly vendor: string,
    readonly settingsSchema: TObject = Type.Object({ api_key: Type.String({ minLength: 1 }), sender: Type.Optional(Type.String()) }),
    readonly secretFields: readonly string[] = ['api_key'],
  ) {}

  /** The next sends answer these, in order; then every send succeeds. */
  answer(...results: SendResult[]): this {
    this.script.push(...results);
    return this;
  }

  send(settings: Record<string, unknown>, message: MessageByChannel[C], _context: SendContext): Promise<SendResult> {
    this.sent.push({ settings, message });
    return Promise.resolve(this.script.shift() ?? { ok: true, providerMessageId: `m${this.sent.length}` });
  }
}

/** The email core's settings: an SMTP URL (its password is a secret) and the sender. */
export const SMTP_LIKE_SCHEMA = Type.Object({ smtp_url: Type.String({ pattern: '^smtps?://' }), from: Type.String({ minLength: 3 }) });
