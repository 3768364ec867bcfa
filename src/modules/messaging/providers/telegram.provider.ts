import { Type, type Static } from '@sinclair/typebox';
import { ApiCaller, field, readJsonAnswer, vendorWords, type HttpProviderOptions, type JsonAnswerReading } from './api-outcome.js';
import type { ChatMessage, Provider, SendContext, SendResult } from './provider.js';

/**
 * Telegram through the Bot API's sendMessage. The recipient is the chat id Telegram gave
 * the bot for the customer (a profile's telegram_id). The token travels in the URL path,
 * as the Bot API requires, so no URL ever goes into a result message.
 */

export const TelegramSettingsSchema = Type.Object(
  {
    bot_token: Type.String({ pattern: '^[0-9]{1,20}:[A-Za-z0-9_-]{20,100}$', description: "The bot's token from @BotFather (a secret)." }),
    api_base_url: Type.Optional(
      Type.String({
        pattern: '^https?://',
        maxLength: 2048,
        description: 'Default https://api.telegram.org (a local Bot API server can stand in).',
      }),
    ),
    parse_mode: Type.Optional(
      Type.Union([Type.Literal('HTML'), Type.Literal('MarkdownV2')], {
        description: 'How Telegram formats the text; plain text when unset.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type TelegramSettings = Static<typeof TelegramSettingsSchema>;

const DEFAULT_BASE_URL = 'https://api.telegram.org';
/** 400 descriptions that mean the chat is gone or never existed for this bot. */
const UNKNOWN_CHAT = /chat not found|user not found|peer_id_invalid|chat_id is empty/i;

/** The Bot API's answer: `{ok, result: {message_id}}`, or `{ok: false, error_code, description, parameters: {retry_after}}`. */
const TELEGRAM_ANSWER: JsonAnswerReading = {
  vendor: 'Telegram',
  sent: (status, json) => status === 200 && field(json, 'ok') === true,
  messageId: (json) => {
    const id = field(json, 'result', 'message_id');
    return typeof id === 'number' ? String(id) : undefined;
  },
  describe: (json) => {
    const description = field(json, 'description');
    return typeof description === 'string' ? `: ${vendorWords(description)}` : '.';
  },
  classify: (status, json) => {
    if (status === 429 || status >= 500) return 'temporary';
    // 403 is the bot being blocked, kicked, or never allowed to write to this user: the chat is unreachable.
    // Only Telegram's own error object counts: a bare 403 from a proxy says nothing of the chat.
    const description = field(json, 'description');
    if (typeof description === 'string' && (status === 403 || (status === 400 && UNKNOWN_CHAT.test(description)))) return 'dead_address';
    return 'permanent';
  },
  retryAfterMs: (json) => {
    const seconds = field(json, 'parameters', 'retry_after');
    return typeof seconds === 'number' ? seconds * 1000 : undefined;
  },
};

export class TelegramProvider implements Provider<'telegram', TelegramSettings> {
  readonly vendor = 'telegram';
  readonly channel = 'telegram' as const;
  readonly settingsSchema = TelegramSettingsSchema;
  readonly secretFields = ['bot_token'] as const;

  private readonly api: ApiCaller;

  constructor(options: HttpProviderOptions = {}) {
    this.api = new ApiCaller(options);
  }

  async send(settings: TelegramSettings, message: ChatMessage, context: SendContext): Promise<SendResult> {
    const base = (settings.api_base_url ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    const body = { chat_id: message.to, text: message.text, ...(settings.parse_mode ? { parse_mode: settings.parse_mode } : {}) };
    const answer = await this.api.postJson(`${base}/bot${settings.bot_token}/sendMessage`, {}, body, context);
    return readJsonAnswer(answer, TELEGRAM_ANSWER, this.api.clock);
  }
}
