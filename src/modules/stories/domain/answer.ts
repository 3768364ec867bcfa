import { priceFields, type Product } from '../../catalog/index.js';
import type { StoredElement } from './elements.js';
import type { SlideType } from './story-set.js';
import { withDefaults, type StorySettings } from './settings.js';

/**
 * GET /stories/{code} (contract-notes "Beyond interface.md"; docs/stories.md "What the app
 * sees"): a stored set, this device's views and the products its elements show, as the
 * SDKs read them. Pure.
 *
 * The iOS SDK decodes strictly (a missing key or a wrong type fails the whole answer), so
 * every key it reads is present with its type: strings are `""` rather than null, the
 * story, slide and set ids integers, and `font_size`, `text_line_spacing`, `y_offset`
 * strings. The Android SDK reads the products element's labels at the element's own
 * level, so they are answered there too.
 */

export interface StoredSlide {
  readonly id: number;
  readonly type: SlideType;
  readonly background: string;
  readonly backgroundColor: string | null;
  readonly preview: string | null;
  readonly duration: number;
  readonly elements: readonly StoredElement[];
}

export interface StoredStory {
  readonly id: number;
  readonly name: string;
  readonly avatar: string;
  readonly pinned: boolean;
  readonly slides: readonly StoredSlide[];
}

export interface StoredSet {
  readonly id: number;
  readonly code: string;
  readonly name: string | null;
  readonly settings: Partial<StorySettings>;
  readonly stories: readonly StoredStory[];
}

type Json = string | number | boolean | null | readonly Json[] | { readonly [key: string]: Json };
type JsonObject = { readonly [key: string]: Json };

export interface StoriesAnswer {
  readonly id: number;
  readonly settings: StorySettings;
  readonly stories: readonly JsonObject[];
}

const DEFAULT_BACKGROUND_COLOR = '#000000';
const HIDE_LABEL = 'Hide products';
const SHOW_LABEL = 'Show products';

/** `products`: the available products of the elements' ids (an id absent is a product left out). */
export function storiesAnswer(set: StoredSet, viewed: ReadonlySet<number>, products: ReadonlyMap<string, Product>): StoriesAnswer {
  return {
    id: set.id,
    settings: withDefaults(set.settings),
    stories: set.stories.map((story) => {
      const firstUnseen = story.slides.findIndex((slide) => !viewed.has(slide.id));
      return {
        id: story.id,
        name: story.name,
        avatar: story.avatar,
        viewed: firstUnseen === -1,
        start_position: firstUnseen === -1 ? 0 : firstUnseen,
        pinned: story.pinned,
        slides: story.slides.map((slide) => slideAnswer(slide, products)),
      };
    }),
  };
}

function slideAnswer(slide: StoredSlide, products: ReadonlyMap<string, Product>): JsonObject {
  return {
    id: slide.id,
    duration: slide.duration,
    background: slide.background,
    background_color: slide.backgroundColor ?? DEFAULT_BACKGROUND_COLOR,
    preview: slide.preview ?? (slide.type === 'image' ? slide.background : ''),
    type: slide.type,
    elements: slide.elements.flatMap((element) => {
      const answered = elementAnswer(element, products);
      return answered ? [answered] : [];
    }),
  };
}

const text = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);
const numberText = (value: unknown, fallback: string): string => (typeof value === 'number' ? String(value) : fallback);
const links = (element: StoredElement, keys: readonly string[]): JsonObject =>
  Object.fromEntries(keys.flatMap((key) => (typeof element[key] === 'string' ? [[key, element[key]]] : [])));

/** undefined: the element is left out (its products are not available). */
function elementAnswer(element: StoredElement, products: ReadonlyMap<string, Product>): JsonObject | undefined {
  // A button, header or product without a y_offset is placed by the app (absent, not 0).
  const yOffset: JsonObject = typeof element.y_offset === 'number' ? { y_offset: String(element.y_offset) } : {};
  switch (element.type) {
    case 'button':
      return {
        type: 'button',
        title: text(element.title),
        ...links(element, ['link', 'link_ios', 'link_android', 'deeplink_ios', 'deeplink_android']),
        background: text(element.background, '#ffffff'),
        color: text(element.color, '#000000'),
        text_bold: element.text_bold === true,
        corner_radius: typeof element.corner_radius === 'number' ? element.corner_radius : 12,
        ...yOffset,
      };
    case 'header':
      return {
        type: 'header',
        title: text(element.title),
        subtitle: text(element.subtitle),
        icon: text(element.icon),
        ...links(element, ['link', 'link_ios', 'link_android']),
        ...yOffset,
      };
    case 'text_block': {
      const bold = element.bold === true;
      return {
        type: 'text_block',
        text_input: text(element.text_input),
        font_type: text(element.font_type, 'sans-serif'),
        font_size: numberText(element.font_size, '14'),
        text_align: text(element.text_align, 'left'),
        text_color: text(element.text_color, '#ffffff'),
        text_background_color: text(element.text_background_color, '#000000'),
        text_background_color_opacity: `${typeof element.text_background_color_opacity === 'number' ? element.text_background_color_opacity : 0}%`,
        text_line_spacing: numberText(element.text_line_spacing, '1.5'),
        y_offset: numberText(element.y_offset, '0'),
        bold,
        text_bold: bold,
        italic: element.italic === true,
      };
    }
    case 'products': {
      const shown = (element.item_ids as readonly string[]).flatMap((id) => {
        const product = products.get(id);
        return product?.is_available ? [carouselProduct(product)] : [];
      });
      if (shown.length === 0) return undefined;
      const labels = { hide_carousel: text(element.hide_carousel, HIDE_LABEL), show_carousel: text(element.show_carousel, SHOW_LABEL) };
      return { type: 'products', labels, ...labels, products: shown, ...yOffset };
    }
    case 'product': {
      const product = products.get(element.item_id as string);
      if (!product?.is_available) return undefined;
      return { type: 'product', title: text(element.title), item: promoProduct(product, element), ...yOffset };
    }
  }
}

function ownCategory(product: Product): JsonObject {
  const category = product.categories.find((c) => c.id === product.category_ids[0]) ?? product.categories[0];
  return { name: category?.name ?? '', url: category?.url ?? '' };
}

/** A product of the carousel: prices as whole numbers (iOS decodes price_full and oldprice_full as Int here). */
function carouselProduct(p: Product): JsonObject {
  return {
    id: p.id,
    name: p.name,
    brand: p.brand ?? '',
    currency: p.currency,
    price: p.price ?? 0,
    price_full: p.price ?? 0,
    price_formatted: p.price_formatted ?? '',
    price_full_formatted: p.price_full_formatted ?? '',
    oldprice: p.oldprice ?? 0,
    oldprice_full: p.oldprice ?? 0,
    oldprice_formatted: p.oldprice_formatted ?? '',
    oldprice_full_formatted: p.oldprice_full_formatted ?? '',
    discount: p.discount_formatted,
    discount_formatted: p.discount_formatted,
    discount_percent: p.discount_percent,
    picture: p.picture ?? '',
    image_url: p.image_url ?? '',
    category: ownCategory(p),
    url: p.url ?? '',
    deeplink_ios: p.deeplink_ios ?? '',
    deeplinkIos: p.deeplink_ios ?? '',
    deeplink_android: p.deeplink_android ?? '',
  };
}

/** The product of a promo-code element: iOS decodes price_full and oldprice_full as strings here, and `deeplinkIos` by that name. */
function promoProduct(p: Product, element: StoredElement): JsonObject {
  const percent = typeof element.promocode_discount_percent === 'number' ? element.promocode_discount_percent : 0;
  const priceMinor = Math.round((p.price_full ?? 0) * 100);
  const withCode =
    percent > 0 ? priceFields(Math.round((priceMinor * (100 - percent)) / 100), p.currency).formatted : (p.price_formatted ?? '');
  const resized = p.image_url_resized as Readonly<Record<string, string>> | null;
  return {
    id: p.id,
    name: p.name,
    brand: p.brand ?? '',
    currency: p.currency,
    price: p.price ?? 0,
    price_full: String(p.price_full ?? 0),
    price_formatted: p.price_formatted ?? '',
    price_full_formatted: p.price_full_formatted ?? '',
    oldprice: p.oldprice ?? 0,
    oldprice_full: String(p.oldprice_full ?? 0),
    oldprice_formatted: p.oldprice_formatted ?? '',
    oldprice_full_formatted: p.oldprice_full_formatted ?? '',
    discount_percent: percent > 0 ? percent : p.discount_percent,
    price_with_promocode_formatted: withCode,
    promocode: text(element.promocode),
    picture: p.picture ?? '',
    image_url: p.image_url ?? '',
    ...(resized && { image_url_resized: { 220: resized['220'] ?? '', 310: resized['310'] ?? '', 520: resized['520'] ?? '' } }),
    url: p.url ?? '',
    deeplinkIos: p.deeplink_ios ?? '',
    deeplink_ios: p.deeplink_ios ?? '',
    deeplink_android: p.deeplink_android ?? '',
  };
}
