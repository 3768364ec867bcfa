import crypto from 'node:crypto';
import { constantTimeEqual } from '../../../constant-time.js';

/**
 * The links a sent email carries back to this server: the open pixel, click redirects
 * and the unsubscribe address (RFC 8058). Each is signed with HMAC-SHA256 over what it
 * names, so that only a link this server rendered is honoured: a click link whose target
 * was changed redirects nowhere (no open redirect), and nobody can unsubscribe or mark
 * opened a message by guessing its code.
 *
 * Paths (under the public base URL):
 *   /m/{code}/o?s=…          the open pixel
 *   /m/{code}/c?u=<url>&s=…  a click, redirecting to <url>
 *   /m/{code}/u?s=…          the unsubscribe page; POST there is the one-click unsubscribe
 */

export type LinkKind = 'open' | 'click' | 'unsubscribe';

/** 128 bits of HMAC-SHA256, base64url: 22 characters, short enough for an SMS link too. */
export function linkSignature(key: Buffer, kind: LinkKind, code: string, target = ''): string {
  return crypto.createHmac('sha256', key).update(`${kind}\n${code}\n${target}`).digest().subarray(0, 16).toString('base64url');
}

/** Constant-time check of a signature from a request (any string, any length). */
export function verifyLinkSignature(key: Buffer, kind: LinkKind, code: string, target: string, given: string): boolean {
  return constantTimeEqual(given, linkSignature(key, kind, code, target));
}

export interface TrackingUrls {
  open: string;
  unsubscribe: string;
  click(target: string): string;
}

export function trackingUrls(key: Buffer, baseUrl: string, code: string): TrackingUrls {
  const base = `${baseUrl.replace(/\/+$/, '')}/m/${encodeURIComponent(code)}`;
  return {
    open: `${base}/o?s=${linkSignature(key, 'open', code)}`,
    unsubscribe: `${base}/u?s=${linkSignature(key, 'unsubscribe', code)}`,
    click: (target) => `${base}/c?u=${encodeURIComponent(target)}&s=${linkSignature(key, 'click', code, target)}`,
  };
}

/** The C0 controls (CR and LF among them) and DEL: no header value holds them, and a browser drops them from a URL. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Where a click on `target` may redirect: the http(s) URL as a browser reads it,
 * serialised in ASCII (the path and query percent-encoded, the host in punycode), so that
 * it is always a valid Location header. Null for any other target: not http(s), not a
 * URL, or holding a control character (CR/LF would split the header; a browser would
 * drop them and go somewhere else than the text says).
 */
export function redirectTarget(target: string): string | null {
  if (!/^https?:\/\//i.test(target) || CONTROL.test(target)) return null;
  try {
    return new URL(target).href;
  } catch {
    return null;
  }
}

const ANCHOR_HREF = /(<a\b[^>]*?\bhref\s*=\s*)("([^"]*)"|'([^']*)')/gi;
const BODY_END = /<\/body\s*>/i;

/**
 * The email's HTML with every http(s) link of an `<a href>` sent through a click link and
 * the open pixel added before `</body>` (or at the end). Other schemes (mailto:, tel:,
 * #anchors), links already pointing at the unsubscribe address and targets the click
 * could not redirect to (redirectTarget: a CR/LF from a template variable, a text that is
 * no URL) are left as written: the email goes out, that link untracked. The href is HTML
 * text: it is unescaped to get the URL and the click link escaped back.
 */
export function rewriteEmailHtml(html: string, urls: TrackingUrls): string {
  const rewritten = html.replace(ANCHOR_HREF, (whole, prefix: string, _quoted, double?: string, single?: string) => {
    const raw = double ?? single ?? '';
    const target = unescapeHtml(raw).trim();
    if (redirectTarget(target) === null || target === urls.unsubscribe) return whole;
    return `${prefix}"${escapeHtml(urls.click(target))}"`;
  });
  const pixel = `<img src="${escapeHtml(urls.open)}" width="1" height="1" alt="" style="display:block;border:0;width:1px;height:1px">`;
  const end = BODY_END.exec(rewritten);
  return end ? `${rewritten.slice(0, end.index)}${pixel}${rewritten.slice(end.index)}` : `${rewritten}${pixel}`;
}

/** The RFC 8058 headers: the unsubscribe URI, and the one-click POST it accepts. */
export function unsubscribeHeaders(unsubscribeUrl: string): Record<string, string> {
  return {
    'List-Unsubscribe': `<${unsubscribeUrl}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'", '#x27': "'" };

function unescapeHtml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos|#39|#x27);/gi, (_m, name: string) => ENTITIES[name.toLowerCase()] ?? '');
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
