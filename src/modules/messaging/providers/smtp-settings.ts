import net from 'node:net';
import { Type, type Static } from '@sinclair/typebox';

/**
 * The settings of the 'smtp' email vendor, as PUT /admin/v1/shops/{shop_id}/channels/email
 * takes them (admin-api.md, "Messaging"), and the parsing of `smtp_url`.
 *
 * `smtp_url` holds the login and password in its user-info part, so the whole URL is a
 * secret field; `redactSmtpUrl` gives the form an admin may see. `dkim` is a secret field
 * as a whole because its `private_key` is: secret fields are top-level (provider.ts).
 */

const HOST_NAME = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*';

export const SmtpDkimSchema = Type.Object(
  {
    domain: Type.String({ pattern: `^${HOST_NAME}$`, maxLength: 253, description: 'The d= domain of the signature.' }),
    selector: Type.String({
      pattern: '^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,62})$',
      description: 'The s= selector: the public key is in TXT <selector>._domainkey.<domain>.',
    }),
    private_key: Type.String({
      pattern: '^\\s*-----BEGIN (RSA |EC )?PRIVATE KEY-----',
      maxLength: 16384,
      description: 'PEM (PKCS#1 or PKCS#8) RSA key.',
    }),
  },
  { additionalProperties: false },
);

export const SmtpPoolSchema = Type.Object(
  {
    max_connections: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 5 })),
    max_messages: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1_000_000,
        default: 1000,
        description: 'Messages one connection sends before it is closed and replaced by a new one.',
      }),
    ),
    rate_per_second: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 1000, description: 'Messages per second over the whole pool; unlimited when absent.' }),
    ),
  },
  { additionalProperties: false },
);

export const SmtpSettingsSchema = Type.Object(
  {
    smtp_url: Type.String({
      maxLength: 2048,
      pattern: '^smtps?://[^\\s#]+$',
      description:
        'smtp://user:pass@host:port (STARTTLS) or smtps://… (TLS from the start); options in the query: ' +
        'starttls=required|opportunistic|never, tls_verify=false, ehlo=<host name>.',
    }),
    from: Type.String({ minLength: 3, maxLength: 320, pattern: '^[^\\r\\n]+$', description: 'Shop <shop@example.org>' }),
    dkim: Type.Optional(SmtpDkimSchema),
    pool: Type.Optional(SmtpPoolSchema),
    timeout_ms: Type.Optional(
      Type.Integer({
        minimum: 500,
        maximum: 120_000,
        default: 30_000,
        description: 'Longest wait for the connection, the greeting and each reply of the server.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type SmtpSettings = Static<typeof SmtpSettingsSchema>;

export const SMTP_SECRET_FIELDS = ['smtp_url', 'dkim'] as const;

export type StartTls = 'required' | 'opportunistic' | 'never';

export interface SmtpEndpoint {
  /** The host as written (lower case, no brackets): a name or an IP literal. */
  readonly host: string;
  readonly port: number;
  /** TLS from the first byte (smtps://). */
  readonly implicitTls: boolean;
  readonly starttls: StartTls;
  readonly tlsVerify: boolean;
  readonly ehlo: string | undefined;
  readonly user: string | undefined;
  readonly pass: string | undefined;
}

export type ParsedSmtpUrl = { readonly ok: true; readonly endpoint: SmtpEndpoint } | { readonly ok: false; readonly reason: string };

const OPTIONS = new Set(['starttls', 'tls_verify', 'ehlo']);
const HOST_NAME_RE = new RegExp(`^${HOST_NAME}$`);

/** Parses `smtp_url`. Reasons name the problem, never the URL (it holds the password). */
export function parseSmtpUrl(text: string): ParsedSmtpUrl {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: 'The SMTP URL is not a valid URL.' };
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    return { ok: false, reason: 'The SMTP URL must start with smtp:// or smtps://.' };
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (host === '' || (net.isIP(host) === 0 && !HOST_NAME_RE.test(host))) {
    return { ok: false, reason: 'The SMTP URL has no valid host.' };
  }
  if ((url.pathname !== '' && url.pathname !== '/') || url.hash !== '') {
    return { ok: false, reason: 'The SMTP URL takes no path.' };
  }
  const implicitTls = url.protocol === 'smtps:';
  const port = url.port === '' ? (implicitTls ? 465 : 587) : Number(url.port);
  for (const key of url.searchParams.keys()) {
    if (!OPTIONS.has(key)) return { ok: false, reason: `The SMTP URL has an unknown option "${key.slice(0, 40)}".` };
  }
  const starttls = url.searchParams.get('starttls') ?? 'opportunistic';
  if (starttls !== 'required' && starttls !== 'opportunistic' && starttls !== 'never') {
    return { ok: false, reason: 'starttls must be required, opportunistic or never.' };
  }
  if (implicitTls && url.searchParams.has('starttls')) {
    return { ok: false, reason: 'starttls applies to smtp:// only; smtps:// is TLS from the start.' };
  }
  const tlsVerify = url.searchParams.get('tls_verify') ?? 'true';
  if (tlsVerify !== 'true' && tlsVerify !== 'false') return { ok: false, reason: 'tls_verify must be true or false.' };
  const ehlo = url.searchParams.get('ehlo') ?? undefined;
  if (ehlo !== undefined && (!HOST_NAME_RE.test(ehlo) || ehlo.length > 253)) {
    return { ok: false, reason: 'ehlo must be a host name.' };
  }
  let user: string | undefined;
  let pass: string | undefined;
  try {
    user = url.username === '' ? undefined : decodeURIComponent(url.username);
    pass = url.password === '' ? undefined : decodeURIComponent(url.password);
  } catch {
    return { ok: false, reason: 'The login or password of the SMTP URL is badly percent-encoded.' };
  }
  if (pass !== undefined && user === undefined) return { ok: false, reason: 'The SMTP URL has a password but no login.' };
  return {
    ok: true,
    endpoint: { host, port, implicitTls, starttls: starttls, tlsVerify: tlsVerify === 'true', ehlo, user, pass },
  };
}

/** `smtp_url` with its password replaced by ****, for an admin to see which server is set. */
export function redactSmtpUrl(text: string): string {
  try {
    const url = new URL(text);
    if (url.password !== '') url.password = '****';
    return url.href;
  } catch {
    return '****';
  }
}
