/**
 * The links a popup may hold (docs/popups.md "What a popup may hold"): http(s) addresses
 * and app deep links (`myshop://catalog/7`). Schemes that run or embed content where the
 * link is opened (javascript:, vbscript:, data:, file:, blob:) are refused, as is anything
 * without a scheme: an app has no page a relative link could be relative to.
 */

export const MAX_LINK_LENGTH = 2000;

const SCHEME = /^([a-z][a-z0-9+.-]{0,31}):/i;
const REFUSED_SCHEMES = new Set(['javascript', 'vbscript', 'data', 'file', 'blob', 'filesystem', 'about']);
// Browsers drop ASCII tab and newlines inside a URL and trim control characters and spaces
// around it, so `java\tscript:` is `javascript:` to them: the check sees what they see.
const IGNORED_BY_BROWSERS = /[\t\n\r]/g;
// eslint-disable-next-line no-control-regex -- the C0 controls and space a URL parser trims.
const TRIMMED = /^[\u0000-\u0020]+|[\u0000-\u0020]+$/g;

/** The scheme of a link as a browser or an app would read it, lower case; undefined without one. */
export function linkScheme(link: string): string | undefined {
  const cleaned = link.replace(IGNORED_BY_BROWSERS, '').replace(TRIMMED, '');
  return SCHEME.exec(cleaned)?.[1]?.toLowerCase();
}

/** True for an http(s) URL or an app deep link (`scheme://…`), at most MAX_LINK_LENGTH characters. */
export function isAllowedLink(link: string): boolean {
  if (link.length === 0 || link.length > MAX_LINK_LENGTH) return false;
  // eslint-disable-next-line no-control-regex -- no control characters or spaces anywhere in a stored link.
  if (/[\u0000-\u0020\u007f]/.test(link)) return false;
  const scheme = linkScheme(link);
  if (scheme === undefined || REFUSED_SCHEMES.has(scheme)) return false;
  if (scheme === 'http' || scheme === 'https') return /^https?:\/\/[^/?#\s]+/i.test(link);
  return link.slice(scheme.length + 1).startsWith('//');
}

/** True for an http(s) URL (an image the app loads). */
export function isHttpUrl(link: string): boolean {
  const scheme = linkScheme(link);
  return (scheme === 'http' || scheme === 'https') && isAllowedLink(link);
}
