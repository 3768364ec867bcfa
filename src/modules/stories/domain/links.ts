/**
 * The links a story may carry (docs/stories.md "Links"). Pictures and videos load in the
 * app, so only http(s) is fetched; a button or header link opens a page or the app itself,
 * so an app's deep link (`myapp://product/1`) is allowed beside http(s). A scheme that runs
 * code or embeds content (`javascript:`, `data:`, `vbscript:`, `file:`, `blob:`) never is,
 * whatever its case or the slashes after it.
 */

export const MAX_URL_LENGTH = 2048;

const REFUSED_SCHEMES = new Set(['javascript', 'data', 'vbscript', 'file', 'blob', 'about', 'filesystem']);
/** A scheme, then `://` and something: an app's deep link. */
const DEEP_LINK = /^([a-z][a-z0-9+.-]{0,31}):\/\/\S+$/i;
/** No spaces or control characters anywhere: a link is one token. */
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const BLANK_OR_CONTROL = /[\s\u0000-\u001f\u007f]/;

/** http(s) with a host, parsed as a URL. */
export function isMediaUrl(value: string): boolean {
  if (value.length > MAX_URL_LENGTH || BLANK_OR_CONTROL.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** http(s), or an app's deep link whose scheme is not one that runs or embeds content. */
export function isStoryLink(value: string): boolean {
  if (isMediaUrl(value)) return true;
  if (value.length > MAX_URL_LENGTH || BLANK_OR_CONTROL.test(value)) return false;
  const match = DEEP_LINK.exec(value);
  if (!match) return false;
  const scheme = (match[1] as string).toLowerCase();
  return scheme !== 'http' && scheme !== 'https' && !REFUSED_SCHEMES.has(scheme);
}
