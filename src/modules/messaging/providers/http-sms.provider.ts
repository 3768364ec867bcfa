import { Type, type Static } from '@sinclair/typebox';
import {
  ApiCaller,
  failedCall,
  field,
  isTemporaryStatus,
  parseJson,
  retryAfterMs,
  vendorWords,
  type HttpProviderOptions,
} from './api-outcome.js';
import type { Provider, SendContext, SendResult, SmsMessage } from './provider.js';

/**
 * A generic HTTP SMS gateway: most SMS aggregators take a POST of the number, the text and
 * the sender under names of their own, as JSON or as a form, and answer 2xx when they took
 * the message. The field names, the authentication and where the gateway's message id
 * sits in its answer are settings, so that one class serves them all.
 */

const FieldName = (fallback: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: `Default "${fallback}".` }));

export const HttpSmsSettingsSchema = Type.Object(
  {
    url: Type.String({ pattern: '^https?://', maxLength: 2048, description: "The gateway's send URL." }),
    method: Type.Optional(
      Type.Union([Type.Literal('POST'), Type.Literal('GET')], { description: 'Default POST; GET sends the fields in the query string.' }),
    ),
    format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('form')], { description: 'The body of a POST. Default json.' })),
    auth: Type.Optional(
      Type.Union([Type.Literal('none'), Type.Literal('bearer'), Type.Literal('basic'), Type.Literal('header')], {
        description: 'bearer: Authorization: Bearer <token>; basic: username and password; header: <header_name>: <token>. Default none.',
      }),
    ),
    token: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: 'The bearer token or API key (a secret).' })),
    header_name: Type.Optional(
      Type.String({ pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$", description: 'The header that carries the token when auth is header.' }),
    ),
    username: Type.Optional(Type.String({ maxLength: 256 })),
    password: Type.Optional(Type.String({ maxLength: 1024, description: 'The basic-auth password (a secret).' })),
    to_field: FieldName('to'),
    text_field: FieldName('text'),
    from_field: FieldName('from'),
    from: Type.Optional(Type.String({ minLength: 1, maxLength: 20, description: 'The sender name or number; sent only when set.' })),
    to_format: Type.Optional(
      Type.Union([Type.Literal('digits'), Type.Literal('plus')], { description: 'digits: 79001234567 (default); plus: +79001234567.' }),
    ),
    extra_fields: Type.Optional(
      Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: 1024 }), {
        maxProperties: 20,
        description: 'Fixed fields added to every request.',
      }),
    ),
    message_id_field: Type.Optional(
      Type.String({ minLength: 1, maxLength: 128, description: 'Dot path of the message id in a JSON answer, e.g. "data.id".' }),
    ),
    id_field: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'A field that carries the message code, for a gateway that drops a repeated client id; not sent when unset.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type HttpSmsSettings = Static<typeof HttpSmsSettingsSchema>;

export class HttpSmsProvider implements Provider<'sms', HttpSmsSettings> {
  readonly vendor = 'http_sms';
  readonly channel = 'sms' as const;
  readonly settingsSchema = HttpSmsSettingsSchema;
  // Fixed fields are where a gateway's API key usually goes, so they are write-only as a whole.
  readonly secretFields = ['token', 'password', 'extra_fields'] as const;

  private readonly api: ApiCaller;

  constructor(options: HttpProviderOptions = {}) {
    this.api = new ApiCaller(options);
  }

  async send(settings: HttpSmsSettings, message: SmsMessage, context: SendContext): Promise<SendResult> {
    const headers = authHeaders(settings);
    if (!headers) {
      return { ok: false, kind: 'permanent', message: 'The SMS gateway settings lack the credentials their auth type needs.' };
    }
    const fields: Record<string, string> = {
      ...settings.extra_fields,
      [settings.to_field ?? 'to']: settings.to_format === 'plus' ? `+${message.to}` : message.to,
      [settings.text_field ?? 'text']: message.body,
      ...(settings.from === undefined ? {} : { [settings.from_field ?? 'from']: settings.from }),
      // A resend after a crash carries the same id: a gateway that deduplicates by it sends once.
      ...(settings.id_field === undefined || message.idKey === undefined ? {} : { [settings.id_field]: message.idKey }),
    };
    let url = settings.url;
    let body: string | undefined;
    if (settings.method === 'GET') {
      const target = parseUrl(settings.url);
      if (!target) return failedCall({ ok: false, code: 'invalid_url', reason: '' }, 'SMS gateway');
      for (const [name, value] of Object.entries(fields)) target.searchParams.append(name, value);
      url = target.toString();
    } else if (settings.format === 'form') {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(fields).toString();
    } else {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(fields);
    }

    const answer = await this.api.call(url, { method: settings.method ?? 'POST', headers, ...(body !== undefined && { body }) }, context);
    if (!answer.ok) return failedCall(answer, 'SMS gateway');
    if (answer.status >= 200 && answer.status < 300) {
      const id =
        settings.message_id_field === undefined ? undefined : field(parseJson(answer.body), ...settings.message_id_field.split('.'));
      return typeof id === 'string' || typeof id === 'number' ? { ok: true, providerMessageId: String(id) } : { ok: true };
    }
    const words = gatewayWords(answer.body);
    const text = `The SMS gateway answered ${answer.status}${words ? `: ${words}` : '.'}`;
    if (isTemporaryStatus(answer.status)) {
      const retry = retryAfterMs(answer.headers, this.api.clock);
      return retry === undefined
        ? { ok: false, kind: 'temporary', message: text }
        : { ok: false, kind: 'temporary', message: text, retryAfterMs: retry };
    }
    return { ok: false, kind: 'permanent', message: text };
  }
}

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

function authHeaders(settings: HttpSmsSettings): Record<string, string> | undefined {
  switch (settings.auth ?? 'none') {
    case 'none':
      return {};
    case 'bearer':
      return settings.token ? { authorization: `Bearer ${settings.token}` } : undefined;
    case 'header':
      return settings.token && settings.header_name ? { [settings.header_name.toLowerCase()]: settings.token } : undefined;
    case 'basic':
      return settings.username !== undefined && settings.password !== undefined
        ? { authorization: `Basic ${Buffer.from(`${settings.username}:${settings.password}`).toString('base64')}` }
        : undefined;
  }
}

/** The gateway's explanation: a JSON answer's message or error field, else its text. */
function gatewayWords(body: Buffer): string {
  const json = parseJson(body);
  for (const key of ['message', 'error', 'error_description', 'description', 'detail']) {
    const value = field(json, key);
    if (typeof value === 'string') return vendorWords(value);
    const nested = field(json, key, 'message');
    if (typeof nested === 'string') return vendorWords(nested);
  }
  return json === undefined ? vendorWords(body.toString('utf8')) : '';
}
