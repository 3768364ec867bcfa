import { isHttpUrl, type Slide } from './slider.js';

/**
 * The ready markup of a slide (interface.md, "Slider": `html`), which clients insert into
 * their pages as it is. Fixed and small (docs/sliders.md):
 *
 *   <a href="URL"><img src="IMAGE_URL" width="W" height="H" alt="CONTENT"></a>
 *
 * Every value is escaped for the double-quoted attribute it lands in, and the two links
 * are checked again here (not only when the slider is saved), so that no stored value,
 * whatever its origin, can open a tag, close an attribute or run a script.
 */

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Escapes text for HTML element content and for quoted attribute values alike: `&`, `<`,
 * `>` and both quotes. Other characters, non-ASCII included, are left as they are (the
 * answer is UTF-8).
 */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);
}

export interface SlideSize {
  readonly width: number;
  readonly height: number;
}

export function renderSlideHtml(slide: Slide, size: SlideSize): string {
  // A picture link that is not http(s) is never put in markup; nothing is shown instead.
  if (!isHttpUrl(slide.imageUrl)) return '';
  const img =
    `<img src="${escapeHtml(slide.imageUrl)}" width="${dimension(size.width)}" height="${dimension(size.height)}"` +
    ` alt="${escapeHtml(slide.content ?? '')}">`;
  return isHttpUrl(slide.url) ? `<a href="${escapeHtml(slide.url)}">${img}</a>` : img;
}

/** A pixel size as decimal digits only, whatever the caller passed. */
function dimension(value: number): string {
  return Number.isSafeInteger(value) && value > 0 ? String(value) : '0';
}
