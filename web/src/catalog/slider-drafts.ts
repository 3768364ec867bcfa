import type { paths } from '../api/schema';
import type { Slider } from './catalog.queries';

/** A slider as PUT …/sliders/{code} takes it (docs/sliders.md): replaced whole. */
export type SliderBody = NonNullable<
  paths['/admin/v1/shops/{shop_id}/sliders/{code}']['put']['requestBody']
>['content']['application/json'];

/** The most slides a slider may hold (the server's bound, docs/sliders.md "Rules"). */
export const MAX_SLIDES = 50;

/** A slide as the form holds it: every field as typed, tags as one comma-separated line. */
export interface SlideDraft {
  readonly image_url: string;
  readonly url: string;
  readonly deeplink_ios: string;
  readonly deeplink_android: string;
  readonly content_type: string;
  readonly content: string;
  readonly tags: string;
}

export type SlideField = keyof SlideDraft;

export interface SliderDraft {
  readonly width: string;
  readonly height: string;
  readonly slides: readonly SlideDraft[];
}

export function emptySlide(): SlideDraft {
  return { image_url: '', url: '', deeplink_ios: '', deeplink_android: '', content_type: '', content: '', tags: '' };
}

/** A stored slider back into the form. */
export function draftOf(slider: Pick<Slider, 'width' | 'height' | 'slides'>): SliderDraft {
  return {
    width: String(slider.width),
    height: String(slider.height),
    slides: slider.slides.map((slide) => ({
      image_url: slide.image_url,
      url: slide.url,
      deeplink_ios: slide.deeplink_ios ?? '',
      deeplink_android: slide.deeplink_android ?? '',
      content_type: slide.content_type ?? '',
      content: slide.content ?? '',
      tags: slide.tags.join(', '),
    })),
  };
}

/** "men, sale ,, men" → ["men", "sale", "men"]: the server keeps a repeated tag once. */
export function tagsOf(line: string): string[] {
  return line
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
}

/** Why the draft cannot be sent, naming the field as the server would (`width`, `slides[2]`). */
export type DraftProblem = { readonly field: 'width' | 'height'; readonly key: 'catalog.slider.sizeInvalid' };

const DIMENSION = /^\d{1,5}$/;

/**
 * The draft as the API's body, or the size field that is not a whole number of pixels from 1
 * to 10,000. Every other rule (http(s) links, app-link schemes, lengths, tags) is the
 * server's, whose 422 names the slide's field and is shown there.
 */
export function bodyOf(draft: SliderDraft): { readonly body: SliderBody } | { readonly problem: DraftProblem } {
  const size = (text: string): number | undefined => {
    const trimmed = text.trim();
    if (!DIMENSION.test(trimmed)) return undefined;
    const n = Number(trimmed);
    return n >= 1 && n <= 10_000 ? n : undefined;
  };
  const width = size(draft.width);
  if (width === undefined) return { problem: { field: 'width', key: 'catalog.slider.sizeInvalid' } };
  const height = size(draft.height);
  if (height === undefined) return { problem: { field: 'height', key: 'catalog.slider.sizeInvalid' } };
  const text = (value: string): string | null => (value.trim() === '' ? null : value.trim());
  return {
    body: {
      width,
      height,
      slides: draft.slides.map((slide) => ({
        image_url: slide.image_url.trim(),
        url: slide.url.trim(),
        deeplink_ios: text(slide.deeplink_ios),
        deeplink_android: text(slide.deeplink_android),
        content_type: text(slide.content_type),
        // The picture's text is kept as typed (inner spaces and all), only "empty" means none.
        content: slide.content === '' ? null : slide.content,
        tags: tagsOf(slide.tags),
      })),
    },
  };
}

/** The slides with the one at `index` moved one place up (-1) or down (+1); unchanged at an end. */
export function moved<T>(items: readonly T[], index: number, step: -1 | 1): readonly T[] {
  const target = index + step;
  if (index < 0 || index >= items.length || target < 0 || target >= items.length) return items;
  const next = [...items];
  [next[index], next[target]] = [next[target] as T, next[index] as T];
  return next;
}

const SLIDE_FIELDS: readonly SlideField[] = ['image_url', 'url', 'deeplink_ios', 'deeplink_android', 'content_type', 'content', 'tags'];

/**
 * Where a 422's field lands in the form: `width`, `height`, a slide's field
 * (`slides[2].url`, `slides[0].tags[3]` → the slide's tags), or the slides as a whole.
 */
export function placeOf(
  field: string | undefined,
):
  | { readonly at: 'width' | 'height' | 'slides' }
  | { readonly at: 'slide'; readonly index: number; readonly field: SlideField }
  | undefined {
  if (field === 'width' || field === 'height' || field === 'slides') return { at: field };
  const match = /^slides\[(\d+)\]\.([a-z_]+)/.exec(field ?? '');
  if (!match) return undefined;
  const name = SLIDE_FIELDS.find((f) => f === match[2]);
  return name === undefined ? { at: 'slides' } : { at: 'slide', index: Number(match[1]), field: name };
}
