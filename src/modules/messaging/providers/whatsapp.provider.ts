import { Type, type Static } from '@sinclair/typebox';
import { ApiCaller, field, readJsonAnswer, vendorWords, type HttpProviderOptions, type JsonAnswerReading } from './api-outcome.js';
import type { ChatMessage, Provider, SendContext, SendResult } from './provider.js';

/**
 * WhatsApp through the Cloud API: POST /{phone_number_id}/messages with a bearer token.
 * A free-form text reaches a customer only within 24 hours of their last message to the
 * shop; outside that window WhatsApp takes approved templates only. With template_name
 * set, the rendered text goes as the one body parameter ({{1}}) of that template, which
 * is how a shop sends transactional notices at any time.
 */

export const WhatsappSettingsSchema = Type.Object(
  {
    access_token: Type.String({ minLength: 1, maxLength: 4096, description: 'A system-user access token (a secret).' }),
    phone_number_id: Type.String({ pattern: '^[0-9]{1,32}$', description: "The sending number's id in WhatsApp Manager." }),
    api_base_url: Type.Optional(
      Type.String({ pattern: '^https?://', maxLength: 2048, description: 'Default https://graph.facebook.com/v21.0.' }),
    ),
    template_name: Type.Optional(
      Type.String({ pattern: '^[a-z0-9_]{1,512}$', description: 'An approved template whose body is {{1}}; free-form text when unset.' }),
    ),
    template_language: Type.Optional(
      Type.String({ pattern: '^[A-Za-z]{2,3}(_[A-Za-z0-9]{2,8})?$', description: 'The template language code. Default en.' }),
    ),
  },
  { additionalProperties: false },
);
export type WhatsappSettings = Static<typeof WhatsappSettingsSchema>;

const DEFAULT_BASE_URL = 'https://graph.facebook.com/v21.0';
/**
 * Error codes that pass with time: throughput and pair rate limits (130429, 131056),
 * spam rate limit (131048), app and account rate limits (4, 80007), and WhatsApp's own
 * transient failures (1, 2, 131000, 131016).
 */
const TEMPORARY_CODES = new Set([1, 2, 4, 80007, 130429, 131000, 131016, 131048, 131056]);
/** 131026: the number is not on WhatsApp or cannot receive this message. */
const DEAD_CODES = new Set([131026]);

/** The Cloud API's answer: `{messages: [{id}]}`, or `{error: {code, message, error_data: {details}}}`. */
const WHATSAPP_ANSWER: JsonAnswerReading = {
  vendor: 'WhatsApp',
  messageId: (json) => {
    const messages = field(json, 'messages');
    const id = Array.isArray(messages) ? field(messages[0], 'id') : undefined;
    return typeof id === 'string' ? id : undefined;
  },
  describe: (json) => {
    const code = field(json, 'error', 'code');
    const details = field(json, 'error', 'error_data', 'details');
    const words = typeof details === 'string' ? details : field(json, 'error', 'message');
    return `${typeof code === 'number' ? ` (code ${code})` : ''}${typeof words === 'string' ? `: ${vendorWords(words)}` : '.'}`;
  },
  classify: (status, json) => {
    const code = field(json, 'error', 'code');
    if (typeof code === 'number' && DEAD_CODES.has(code)) return 'dead_address';
    if ((typeof code === 'number' && TEMPORARY_CODES.has(code)) || status === 429 || status >= 500) return 'temporary';
    return 'permanent';
  },
};

export class WhatsappProvider implements Provider<'whatsapp', WhatsappSettings> {
  readonly vendor = 'whatsapp';
  readonly channel = 'whatsapp' as const;
  readonly settingsSchema = WhatsappSettingsSchema;
  readonly secretFields = ['access_token'] as const;

  private readonly api: ApiCaller;

  constructor(options: HttpProviderOptions = {}) {
    this.api = new ApiCaller(options);
  }

  async send(settings: WhatsappSettings, message: ChatMessage, context: SendContext): Promise<SendResult> {
    const base = (settings.api_base_url ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    const to = message.to.replace(/^\+/, '');
    const content = settings.template_name
      ? {
          type: 'template',
          template: {
            name: settings.template_name,
            language: { code: settings.template_language ?? 'en' },
            components: [{ type: 'body', parameters: [{ type: 'text', text: message.text }] }],
          },
        }
      : { type: 'text', text: { preview_url: false, body: message.text } };
    const answer = await this.api.postJson(
      `${base}/${settings.phone_number_id}/messages`,
      { authorization: `Bearer ${settings.access_token}` },
      { messaging_product: 'whatsapp', recipient_type: 'individual', to, ...content },
      context,
    );
    return readJsonAnswer(answer, WHATSAPP_ANSWER, this.api.clock);
  }
}
