/**
 * Credentials out of text that will be stored or logged: a vendor's error reply, a job's
 * failure, an exception's message. Servers quote what they were sent (an SMTP 535 that
 * repeats the AUTH PLAIN token, a gateway that echoes its request URL), so every text from
 * outside passes here before it reaches the database or a log line. Each credential is
 * replaced by ****, the rest of the text kept so that the failure still reads.
 *
 * Two kinds of rule: the known secrets of the call at hand (a password, a login) in every
 * encoding a protocol gives them, and the shapes credentials take whoever owns them
 * (SASL responses, URL user info, Authorization values, secret-named parameters).
 */

export const REDACTED = '****';

/** Shortest known secret searched for as text: a shorter one would match ordinary words. */
const MIN_SECRET = 4;
/** A run of base64 (standard or URL-safe) long enough to hold a credential. */
const BASE64_RUN = /[A-Za-z0-9+/_-]{8,}={0,2}/g;

/** SASL mechanisms whose command line carries the credential (RFC 4954 AUTH with an initial response). */
const SASL_COMMAND = /\b(AUTH\s+(?:PLAIN|LOGIN|XOAUTH2|OAUTHBEARER|CRAM-MD5|DIGEST-MD5|NTLM|GSSAPI|SCRAM-SHA-\d+(?:-PLUS)?))\s+[^\s]+/gi;
/** `scheme://user:password@host`: the user info of any URL. */
const URL_USER_INFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]+@/gi;
/** An Authorization value quoted in an error: `Bearer <token>`, `ApplePass <token>`. */
const AUTH_SCHEME = /\b(Bearer|ApplePass)(\s+)[A-Za-z0-9._~+/=-]{8,}/gi;
/** `Basic <base64 of user:password>`. */
const BASIC_AUTH = /\b(Basic\s+)([A-Za-z0-9+/]{4,}={0,2})/gi;
/** A secret-named parameter or field: `password=…`, `"api_key": "…"`, `?access_token=…`. */
const NAMED_SECRET =
  /\b((?:access|refresh|id|auth|bot|api|session)[_-]?token|client[_-]?secret|api[_-]?key|apikey|x-api-key|password|passwd|pwd|secret|token|signature|sig|authorization)(["']?\s*[:=]\s*["']?)(?!\*{4}|(?:Bearer|Basic|ApplePass)\s)([^\s"'&,;}<>]+)/gi;
/** A Telegram bot token (`<bot id>:<35 characters>`), in a Bot API path or alone. */
const TELEGRAM_TOKEN = /(?<![0-9])\d{5,}:[A-Za-z0-9_-]{30,}/g;

/** `text` with every credential replaced by ****; `secrets` are the known ones of the call. */
export function redactCredentials(text: string, secrets: readonly string[] = []): string {
  let out = redactKnownSecrets(text, secrets);
  out = out.replace(SASL_COMMAND, `$1 ${REDACTED}`);
  out = out.replace(URL_USER_INFO, `$1${REDACTED}@`);
  out = out.replace(BASIC_AUTH, (match, prefix: string, token: string) =>
    BASIC_PAIR.test(decode(token)) ? `${prefix}${REDACTED}` : match,
  );
  out = out.replace(AUTH_SCHEME, `$1$2${REDACTED}`);
  out = out.replace(TELEGRAM_TOKEN, REDACTED);
  out = out.replace(NAMED_SECRET, `$1$2${REDACTED}`);
  return out.replace(BASE64_RUN, (run) => (isSaslResponse(run) ? REDACTED : run));
}

/**
 * True when a secret shorter than the search allows appears in `text`: the caller then
 * withholds the whole text, since replacing two characters would mangle the rest.
 */
export function quotesShortSecret(text: string, secrets: readonly string[]): boolean {
  return secrets.some((secret) => secret.length > 0 && secret.length < MIN_SECRET && text.includes(secret));
}

function redactKnownSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  const long = secrets.filter((secret) => secret.length >= MIN_SECRET).sort((a, b) => b.length - a.length);
  for (const secret of long) {
    for (const form of new Set([secret, encodeURIComponent(secret)])) out = out.split(form).join(REDACTED);
  }
  const cores = long.flatMap(base64Cores);
  if (cores.length === 0) return out;
  return out.replace(BASE64_RUN, (run) => (cores.some((core) => run.includes(core)) ? REDACTED : run));
}

/**
 * The base64 text a secret turns into wherever it sits in an encoded string (AUTH PLAIN's
 * `\0user\0password`, an AUTH LOGIN line, a Basic header): base64 encodes three bytes at a
 * time, so the secret's bytes begin at one of three offsets in a group, and the groups
 * wholly inside it encode the same way whatever surrounds them. One core per offset,
 * standard and URL-safe alphabets.
 */
function base64Cores(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const cores: string[] = [];
  for (let skip = 0; skip < 3; skip += 1) {
    const whole = bytes.subarray(skip, skip + Math.floor((bytes.length - skip) / 3) * 3);
    if (whole.length < 3) continue;
    cores.push(whole.toString('base64'), whole.toString('base64url'));
  }
  return cores;
}

/** Printable text around the separators: what a person's login and password look like. */
const FIELD = '[^\\x00-\\x1f\\x7f\\ufffd]';
const BASIC_PAIR = new RegExp(`^${FIELD}*:${FIELD}*$`, 'u');
/** AUTH PLAIN: `[authzid]\0authcid\0password` (RFC 4616). */
const PLAIN_RESPONSE = new RegExp(`^${FIELD}*\\x00${FIELD}+\\x00${FIELD}+$`, 'u');

/**
 * A SASL response quoted on its own, without its command: base64 whose text is PLAIN's
 * NUL-separated fields or XOAUTH2's. Plain words of the reply never decode to either.
 */
function isSaslResponse(run: string): boolean {
  if (run.length % 4 !== 0 && !run.endsWith('=')) return false;
  const text = decode(run);
  // XOAUTH2: `user=…^Aauth=Bearer …^A^A`.
  return PLAIN_RESPONSE.test(text) || (text.startsWith('user=') && text.includes('\u0001auth='));
}

function decode(base64: string): string {
  return Buffer.from(base64.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
}
