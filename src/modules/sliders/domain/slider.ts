/**
 * Sliders: a named set of banners (slides) of one size that a shop shows in its site or
 * app (interface.md, "Slider" and endpoint 10). The rules of what a slider may hold, and
 * which slides a request with tags gets. Pure: no I/O, no clock.
 */

export interface Slide {
  /** http(s) link of the banner picture. */
  readonly imageUrl: string;
  /** http(s) link the banner leads to on the web. */
  readonly url: string;
  /** App links (a custom scheme such as `myshop://…` or an https universal link). */
  readonly deeplinkIos: string | null;
  readonly deeplinkAndroid: string | null;
  /** Service fields of the contract, passed through to clients as given. */
  readonly contentType: string | null;
  readonly content: string | null;
  /** Tags a client filters by (GET /slider `tags`); [] for none. */
  readonly tags: readonly string[];
}

export interface SliderDefinition {
  readonly width: number;
  readonly height: number;
  readonly slides: readonly Slide[];
}

export interface Slider extends SliderDefinition {
  readonly code: string;
  readonly createdAt: number;
  readonly updatedAt: number;
}

// Bounds, shared by the admin schemas, the public parameter reader and the checks below.
export const SLIDER_CODE_MAX_LENGTH = 64;
export const SLIDER_CODE_PATTERN = /^[A-Za-z0-9_-]+$/;
export const MIN_DIMENSION = 1;
export const MAX_DIMENSION = 10_000;
export const MAX_SLIDES = 50;
export const MAX_LINK_LENGTH = 2048;
export const MAX_CONTENT_TYPE_LENGTH = 100;
export const MAX_CONTENT_LENGTH = 2000;
export const MAX_TAGS_PER_SLIDE = 20;
export const MAX_TAG_LENGTH = 64;

export function isValidSliderCode(code: string): boolean {
  return code.length >= 1 && code.length <= SLIDER_CODE_MAX_LENGTH && SLIDER_CODE_PATTERN.test(code);
}

/**
 * White space and control characters are refused anywhere in a link: browsers strip
 * some of them while parsing (`java\tscript:`), which is how a scheme hides from a check.
 */
const SPACE_OR_CONTROL = /[\s\p{Cc}]/u;

/** An absolute http or https URL with a host: the only links that go into `html`. */
export function isHttpUrl(value: string): boolean {
  // A host must follow `//` at once: parsers read `https:///x` and `https://\\x` as other hosts.
  if (value.length > MAX_LINK_LENGTH || SPACE_OR_CONTROL.test(value) || !/^https?:\/\/[^/\\]/i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * Schemes that run code or read local data when opened; an app link never needs them.
 * App links use custom schemes by nature (`myshop://product/1`, Android's `intent://`),
 * so they are checked against this list rather than limited to http(s).
 */
const REFUSED_DEEPLINK_SCHEMES: ReadonlySet<string> = new Set(['javascript', 'vbscript', 'data', 'file', 'blob', 'about']);
const DEEPLINK_PATTERN = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/./;

export function isAcceptableDeeplink(value: string): boolean {
  if (value.length > MAX_LINK_LENGTH || SPACE_OR_CONTROL.test(value)) return false;
  const scheme = DEEPLINK_PATTERN.exec(value)?.[1];
  return scheme !== undefined && !REFUSED_DEEPLINK_SCHEMES.has(scheme.toLowerCase());
}

/**
 * A tag: 1 to 64 characters, no comma (GET /slider takes tags comma-separated), no
 * control character, no white space at either end (GET /slider trims what it gets).
 */
export function isValidTag(tag: string): boolean {
  return tag.length >= 1 && tag.length <= MAX_TAG_LENGTH && !/[,\p{Cc}]/u.test(tag) && tag.trim() === tag;
}

/** A field that breaks a rule, by its path in the admin body (`slides[2].url`). */
export type SliderCheck = { readonly ok: true } | { readonly ok: false; readonly field: string; readonly requirement: string };

const ok: SliderCheck = { ok: true };
const fail = (field: string, requirement: string): SliderCheck => ({ ok: false, field, requirement });

/** Every rule of a slider, so that the service is safe whoever calls it. */
export function checkSlider(code: string, definition: SliderDefinition): SliderCheck {
  if (!isValidSliderCode(code)) {
    return fail('code', `must be 1 to ${SLIDER_CODE_MAX_LENGTH} characters of letters, digits, _ and -`);
  }
  for (const name of ['width', 'height'] as const) {
    const value = definition[name];
    if (!Number.isSafeInteger(value) || value < MIN_DIMENSION || value > MAX_DIMENSION) {
      return fail(name, `must be an integer from ${MIN_DIMENSION} to ${MAX_DIMENSION}`);
    }
  }
  if (definition.slides.length > MAX_SLIDES) return fail('slides', `must have at most ${MAX_SLIDES} items`);
  for (const [index, slide] of definition.slides.entries()) {
    const result = checkSlide(slide, `slides[${index}]`);
    if (!result.ok) return result;
  }
  return ok;
}

function checkSlide(slide: Slide, path: string): SliderCheck {
  if (!isHttpUrl(slide.imageUrl)) return fail(`${path}.image_url`, 'must be an http or https URL');
  if (!isHttpUrl(slide.url)) return fail(`${path}.url`, 'must be an http or https URL');
  const deeplinks = [
    ['deeplink_ios', slide.deeplinkIos],
    ['deeplink_android', slide.deeplinkAndroid],
  ] as const;
  for (const [name, value] of deeplinks) {
    if (value !== null && !isAcceptableDeeplink(value)) {
      return fail(`${path}.${name}`, 'must be an app link scheme://… (not javascript:, data: or file:)');
    }
  }
  if (slide.contentType !== null && slide.contentType.length > MAX_CONTENT_TYPE_LENGTH) {
    return fail(`${path}.content_type`, `must be at most ${MAX_CONTENT_TYPE_LENGTH} characters long`);
  }
  if (slide.content !== null && slide.content.length > MAX_CONTENT_LENGTH) {
    return fail(`${path}.content`, `must be at most ${MAX_CONTENT_LENGTH} characters long`);
  }
  if (slide.tags.length > MAX_TAGS_PER_SLIDE) return fail(`${path}.tags`, `must have at most ${MAX_TAGS_PER_SLIDE} items`);
  for (const [index, tag] of slide.tags.entries()) {
    if (!isValidTag(tag)) {
      return fail(
        `${path}.tags[${index}]`,
        `must be 1 to ${MAX_TAG_LENGTH} characters without commas, control characters or surrounding spaces`,
      );
    }
  }
  return ok;
}

/** Optional text fields: an empty string (an admin form's empty input) means "none". */
export function emptyAsNull(value: string | null | undefined): string | null {
  return value === undefined || value === null || value === '' ? null : value;
}

/** Tags in their first order, each once. */
export function uniqueTags(tags: readonly string[]): string[] {
  return [...new Set(tags)];
}

/**
 * The slides a request gets, in the slider's order. Without tags: every slide. With
 * tags: the slides carrying at least one of them; a slide without tags is not shown,
 * because a filter asks for banners marked for it (docs/sliders.md). Tags match exactly.
 */
export function selectSlides(slides: readonly Slide[], tags: readonly string[] | undefined): Slide[] {
  if (tags === undefined || tags.length === 0) return [...slides];
  const wanted = new Set(tags);
  return slides.filter((slide) => slide.tags.some((tag) => wanted.has(tag)));
}
