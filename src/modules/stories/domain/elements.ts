import { isMediaUrl, isStoryLink } from './links.js';
import { COLOR } from './settings.js';

/**
 * The elements of a slide (admin-api.md "Stories"; docs/stories.md "Elements"): what the
 * admin API takes, checked field by field, and stored as given. Pure.
 */

export const ELEMENT_TYPES = ['button', 'products', 'product', 'text_block', 'header'] as const;
export type ElementType = (typeof ELEMENT_TYPES)[number];

export const MAX_ELEMENTS_PER_SLIDE = 10;
export const MAX_PRODUCTS_PER_ELEMENT = 20;
const MAX_ITEM_ID_LENGTH = 255;

type FieldRule =
  | { kind: 'text'; max: number }
  | { kind: 'link' }
  | { kind: 'media' }
  | { kind: 'color' }
  | { kind: 'number'; min: number; max: number; integer?: boolean }
  | { kind: 'flag' }
  | { kind: 'choice'; values: readonly string[] }
  | { kind: 'item' }
  | { kind: 'items' };

const TEXT = (max: number): FieldRule => ({ kind: 'text', max });
const LINK: FieldRule = { kind: 'link' };
const COLOUR: FieldRule = { kind: 'color' };
const FLAG: FieldRule = { kind: 'flag' };
const Y_OFFSET: FieldRule = { kind: 'number', min: 0, max: 100 };

const LINKS = { link: LINK, link_ios: LINK, link_android: LINK, deeplink_ios: LINK, deeplink_android: LINK };

/** Each type's fields; the first named in REQUIRED must be present. */
const FIELDS: Record<ElementType, Record<string, FieldRule>> = {
  button: {
    title: TEXT(100),
    ...LINKS,
    background: COLOUR,
    color: COLOUR,
    text_bold: FLAG,
    corner_radius: { kind: 'number', min: 0, max: 100, integer: true },
    y_offset: Y_OFFSET,
  },
  products: { item_ids: { kind: 'items' }, show_carousel: TEXT(64), hide_carousel: TEXT(64), y_offset: Y_OFFSET },
  product: {
    item_id: { kind: 'item' },
    title: TEXT(100),
    promocode: TEXT(64),
    promocode_discount_percent: { kind: 'number', min: 1, max: 99, integer: true },
    y_offset: Y_OFFSET,
  },
  text_block: {
    text_input: TEXT(2000),
    font_type: { kind: 'choice', values: ['monospaced', 'serif', 'sans-serif'] },
    font_size: { kind: 'number', min: 6, max: 96 },
    text_align: { kind: 'choice', values: ['left', 'right', 'center'] },
    text_color: COLOUR,
    text_background_color: COLOUR,
    text_background_color_opacity: { kind: 'number', min: 0, max: 100, integer: true },
    text_line_spacing: { kind: 'number', min: 0.5, max: 5 },
    y_offset: Y_OFFSET,
    bold: FLAG,
    italic: FLAG,
  },
  header: {
    title: TEXT(100),
    subtitle: TEXT(200),
    icon: { kind: 'media' },
    link: LINK,
    link_ios: LINK,
    link_android: LINK,
    y_offset: Y_OFFSET,
  },
};

const REQUIRED: Record<ElementType, string> = {
  button: 'title',
  products: 'item_ids',
  product: 'item_id',
  text_block: 'text_input',
  header: 'title',
};

/** An element as stored: its type and the fields it was given (unset ones absent). */
export type StoredElement = { readonly type: ElementType } & Readonly<Record<string, string | number | boolean | readonly string[]>>;

export type ElementCheck = { ok: true; element: StoredElement } | { ok: false; field: string; requirement: string };

/** One element; `path` names it in a refusal (`stories[0].slides[1].elements[2]`). */
export function checkElement(raw: unknown, path: string): ElementCheck {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return refuse(path, 'must be an object');
  const input = raw as Record<string, unknown>;
  const type = input.type;
  if (typeof type !== 'string' || !(ELEMENT_TYPES as readonly string[]).includes(type)) {
    return refuse(`${path}.type`, `must be one of ${ELEMENT_TYPES.join(', ')}`);
  }
  const rules = FIELDS[type as ElementType];
  const element: Record<string, unknown> = { type };
  for (const [key, value] of Object.entries(input)) {
    if (key === 'type' || value === undefined || value === null) continue;
    const rule = rules[key];
    if (!rule) return refuse(`${path}.${key}`, `is not a field of a ${type} element`);
    const problem = checkField(rule, value);
    if (problem) return refuse(`${path}.${key}`, problem);
    element[key] = value;
  }
  const required = REQUIRED[type as ElementType];
  if (element[required] === undefined) return refuse(`${path}.${required}`, 'is required');
  return { ok: true, element: element as StoredElement };
}

function checkField(rule: FieldRule, value: unknown): string | undefined {
  switch (rule.kind) {
    case 'text':
      return typeof value === 'string' && value.length <= rule.max ? undefined : `must be text of at most ${rule.max} characters`;
    case 'link':
      return typeof value === 'string' && isStoryLink(value)
        ? undefined
        : 'must be an http(s) link or an app deep link (`myapp://…`), never `javascript:` or `data:`';
    case 'media':
      return typeof value === 'string' && isMediaUrl(value) ? undefined : 'must be an http(s) link';
    case 'color':
      return typeof value === 'string' && COLOR.test(value) ? undefined : 'must be a colour as `#rgb` or `#rrggbb`';
    case 'number': {
      const ok = typeof value === 'number' && Number.isFinite(value) && value >= rule.min && value <= rule.max;
      if (ok && (!rule.integer || Number.isInteger(value))) return undefined;
      return `must be a ${rule.integer ? 'whole ' : ''}number from ${rule.min} to ${rule.max}`;
    }
    case 'flag':
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    case 'choice':
      return typeof value === 'string' && rule.values.includes(value) ? undefined : `must be one of ${rule.values.join(', ')}`;
    case 'item':
      return isItemId(value) ? undefined : `must be a product id of 1 to ${MAX_ITEM_ID_LENGTH} characters`;
    case 'items':
      return Array.isArray(value) && value.length >= 1 && value.length <= MAX_PRODUCTS_PER_ELEMENT && value.every(isItemId)
        ? undefined
        : `must be 1 to ${MAX_PRODUCTS_PER_ELEMENT} product ids`;
  }
}

function isItemId(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '' && value.length <= MAX_ITEM_ID_LENGTH;
}

function refuse(field: string, requirement: string): ElementCheck {
  return { ok: false, field, requirement };
}

/** The product ids an element shows, to be read from the catalog at answer time. */
export function itemIdsOf(element: StoredElement): readonly string[] {
  if (element.type === 'products') return element.item_ids as readonly string[];
  if (element.type === 'product') return [element.item_id as string];
  return [];
}
