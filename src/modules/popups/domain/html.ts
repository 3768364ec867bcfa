import { isAllowedLink } from './links.js';

/**
 * The check of a popup's HTML (docs/popups.md "What a popup may hold"). The HTML is stored
 * and served exactly as the shop wrote it, and never has customer data put into it, so
 * what must not run is refused when it is saved rather than rewritten: elements that run
 * or load active content, event-handler attributes, and links other than http(s) and app
 * deep links, whatever entity encoding hides them.
 */

export const MAX_HTML_LENGTH = 65_536;

const REFUSED_ELEMENTS = ['script', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'base', 'meta', 'link', 'form', 'portal'];
const URL_ATTRIBUTES = new Set([
  'href',
  'src',
  'action',
  'formaction',
  'xlink:href',
  'poster',
  'background',
  'cite',
  'data',
  'srcset',
  'ping',
]);

export type HtmlProblem =
  | { readonly kind: 'too_long' }
  | { readonly kind: 'element'; readonly name: string }
  | { readonly kind: 'handler'; readonly name: string }
  | { readonly kind: 'link'; readonly attribute: string }
  | { readonly kind: 'style' };

/** The first reason the HTML may not be saved, or undefined when it may. */
export function htmlProblem(html: string): HtmlProblem | undefined {
  if (html.length > MAX_HTML_LENGTH) return { kind: 'too_long' };
  const lower = html.toLowerCase();
  for (const name of REFUSED_ELEMENTS) {
    if (new RegExp(`<\\s*/?\\s*${name}(?![a-z0-9-])`, 'i').test(lower)) return { kind: 'element', name };
  }
  // A tag runs to its `>` or, unclosed, to the end: browsers still read its attributes.
  for (const tag of html.matchAll(/<[a-zA-Z][^>]*(?:>|$)/g)) {
    const problem = tagProblem(tag[0]);
    if (problem) return problem;
  }
  for (const block of html.matchAll(/<style[^>]*>([\s\S]*?)(?:<\/style|$)/gi)) {
    if (cssProblem(decodeEntities(block[1] ?? ''))) return { kind: 'style' };
  }
  return undefined;
}

function tagProblem(tag: string): HtmlProblem | undefined {
  const body = tag.replace(/^<[a-zA-Z][a-zA-Z0-9:-]*/, '');
  for (const attribute of body.matchAll(/([^\s"'<>/=]+)\s*(?:=\s*(?:"([^"]*)"?|'([^']*)'?|([^\s>]*)))?/g)) {
    const name = (attribute[1] ?? '').toLowerCase();
    const value = decodeEntities(attribute[2] ?? attribute[3] ?? attribute[4] ?? '');
    if (name.startsWith('on')) return { kind: 'handler', name };
    if (name === 'style' && cssProblem(value)) return { kind: 'style' };
    if (!URL_ATTRIBUTES.has(name) || attribute[0].indexOf('=') === -1) continue;
    const links = name === 'srcset' || name === 'ping' ? srcsetLinks(value) : [value.trim()];
    if (links.some((link) => link !== '' && !link.startsWith('#') && !isAllowedLink(link))) return { kind: 'link', attribute: name };
  }
  return undefined;
}

/** CSS may load images from http(s) only, and never run script (old `expression()`, `-moz-binding`, `behavior`). */
function cssProblem(css: string): boolean {
  const lower = css.toLowerCase().replace(/\\/g, '');
  if (/expression\s*\(|-moz-binding|behavior\s*:|@import/.test(lower)) return true;
  for (const url of lower.matchAll(/url\s*\(\s*(['"]?)([^'")]*)\1\s*\)/g)) {
    const link = (url[2] ?? '').trim();
    if (!/^https?:\/\//.test(link)) return true;
  }
  return false;
}

function srcsetLinks(value: string): string[] {
  return value
    .split(',')
    .map((part) => part.trim().split(/\s+/)[0] ?? '')
    .filter((link) => link !== '');
}

const NAMED: Readonly<Record<string, string>> = {
  colon: ':',
  tab: '\t',
  newline: '\n',
  amp: '&',
  quot: '"',
  apos: "'",
  lt: '<',
  gt: '>',
  sol: '/',
  lpar: '(',
  rpar: ')',
  bsol: '\\',
};

/** Character references as a browser reads them in an attribute, for the checks above (never stored). */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);?/gi, (whole, ref: string) => {
    const lower = ref.toLowerCase();
    if (lower.startsWith('#x')) return codePoint(Number.parseInt(lower.slice(2), 16), whole);
    if (lower.startsWith('#')) return codePoint(Number.parseInt(lower.slice(1), 10), whole);
    return NAMED[lower] ?? whole;
  });
}

function codePoint(value: number, fallback: string): string {
  return Number.isSafeInteger(value) && value >= 0 && value <= 0x10ffff ? String.fromCodePoint(value) : fallback;
}
