import { Type, type Static } from '@sinclair/typebox';
import {
  ApiCaller,
  field,
  isTemporaryStatus,
  readJsonAnswer,
  vendorWords,
  type HttpProviderOptions,
  type JsonAnswerReading,
} from './api-outcome.js';
import type { ChatMessage, Provider, SendContext, SendResult } from './provider.js';

/**
 * The MAX messenger through its Bot API: POST /messages?user_id=… with the bot's token as
 * the bare value of the Authorization header (MAX has retired the access_token query
 * parameter) and a NewMessageBody of JSON. A bot reaches a user by the numeric user_id
 * MAX gave the bot when the user started it; the Bot API has no lookup by phone, so the
 * recipient is that id (or a chat_id, for a group or channel the bot is in).
 */

export const MaxSettingsSchema = Type.Object(
  {
    access_token: Type.String({ minLength: 1, maxLength: 4096, description: "The bot's token from business.max.ru (a secret)." }),
    api_base_url: Type.Optional(
      Type.String({ pattern: '^https?://', maxLength: 2048, description: 'Default https://platform-api.max.ru.' }),
    ),
    recipient: Type.Optional(
      Type.Union([Type.Literal('user_id'), Type.Literal('chat_id')], { description: 'What the recipient id is. Default user_id.' }),
    ),
    format: Type.Optional(
      Type.Union([Type.Literal('markdown'), Type.Literal('html')], { description: 'How MAX formats the text; plain text when unset.' }),
    ),
  },
  { additionalProperties: false },
);
export type MaxSettings = Static<typeof MaxSettingsSchema>;

const DEFAULT_BASE_URL = 'https://platform-api.max.ru';

/** The Bot API's answer: `{message: {body: {mid}}}`, or `{code, message}`. */
const MAX_ANSWER: JsonAnswerReading = {
  vendor: 'MAX',
  messageId: (json) => {
    const id = field(json, 'message', 'body', 'mid');
    return typeof id === 'string' ? id : undefined;
  },
  describe: (json) => {
    const code = field(json, 'code');
    const words = field(json, 'message');
    return `${typeof code === 'string' ? ` (${vendorWords(code)})` : ''}${typeof words === 'string' ? `: ${vendorWords(words)}` : '.'}`;
  },
  classify: (status, json) => {
    if (isTemporaryStatus(status)) return 'temporary';
    // 403: the user stopped (suspended) the bot or the bot has no access to the chat; 404: no such user or
    // chat. Only MAX's own error object counts: a bare 404 is more likely a wrong api_base_url.
    if ((status === 403 || status === 404) && typeof field(json, 'code') === 'string') return 'dead_address';
    return 'permanent';
  },
};

export class MaxProvider implements Provider<'max', MaxSettings> {
  readonly vendor = 'max';
  readonly channel = 'max' as const;
  readonly settingsSchema = MaxSettingsSchema;
  readonly secretFields = ['access_token'] as const;

  private readonly api: ApiCaller;

  constructor(options: HttpProviderOptions = {}) {
    this.api = new ApiCaller(options);
  }

  async send(settings: MaxSettings, message: ChatMessage, context: SendContext): Promise<SendResult> {
    const recipient = settings.recipient ?? 'user_id';
    if (!/^-?[0-9]{1,20}$/.test(message.to)) {
      return { ok: false, kind: 'dead_address', message: `The MAX recipient is not a numeric ${recipient}.` };
    }
    const base = (settings.api_base_url ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    const body = { text: message.text, ...(settings.format ? { format: settings.format } : {}) };
    const answer = await this.api.postJson(
      `${base}/messages?${recipient}=${message.to}`,
      { authorization: settings.access_token },
      body,
      context,
    );
    return readJsonAnswer(answer, MAX_ANSWER, this.api.clock);
  }
}
