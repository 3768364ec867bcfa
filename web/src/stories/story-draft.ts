import type { StoryElement, StorySet, StorySetBody } from './stories.queries';

/**
 * What the editor holds while a set is typed: the stories and slides with the ids the
 * server gave (passed back on save, so that views and clicks stay with them: docs/stories.md
 * "Ids") and a local key each for React. Pure.
 */

export type ElementType = StoryElement['type'];
export const ELEMENT_TYPES: readonly ElementType[] = ['button', 'products', 'product', 'text_block', 'header'];

export interface SlideDraft {
  readonly key: string;
  readonly id?: number;
  readonly type: 'image' | 'video';
  readonly background: string;
  readonly preview: string;
  readonly duration: number;
  readonly elements: readonly StoryElement[];
}

export interface StoryDraft {
  readonly key: string;
  readonly id?: number;
  readonly name: string;
  readonly avatar: string;
  readonly pinned: boolean;
  readonly slides: readonly SlideDraft[];
}

let counter = 0;
const nextKey = () => `k${++counter}`;

export function newSlide(): SlideDraft {
  return { key: nextKey(), type: 'image', background: '', preview: '', duration: 10, elements: [] };
}

export function newStory(): StoryDraft {
  return { key: nextKey(), name: '', avatar: '', pinned: false, slides: [newSlide()] };
}

export function newElement(type: ElementType): StoryElement {
  switch (type) {
    case 'button':
      return { type, title: '', link: '' };
    case 'products':
      return { type, item_ids: [] };
    case 'product':
      return { type, item_id: '' };
    case 'text_block':
      return { type, text_input: '' };
    case 'header':
      return { type, title: '' };
  }
}

export function draftOf(set: StorySet): StoryDraft[] {
  return set.stories.map((story) => ({
    key: nextKey(),
    id: story.id,
    name: story.name,
    avatar: story.avatar,
    pinned: story.pinned,
    slides: story.slides.map((slide) => ({
      key: nextKey(),
      id: slide.id,
      type: slide.type,
      background: slide.background,
      preview: slide.preview ?? '',
      duration: slide.duration,
      elements: slide.elements,
    })),
  }));
}

/** An element as sent: empty texts left out, so that an optional field not filled is not refused. */
function elementBody(element: StoryElement): StoryElement {
  const kept = Object.entries(element).filter(([key, value]) => key === 'type' || (value !== '' && value !== undefined && value !== null));
  return Object.fromEntries(kept) as StoryElement;
}

/** The settings as sent: one left empty is left out (the answer gives its default). */
function settingsBody(settings: StorySet['settings']): StorySet['settings'] {
  return Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== '' && value !== undefined && value !== null));
}

export function bodyOf(name: string, settings: StorySet['settings'] | undefined, stories: readonly StoryDraft[]): StorySetBody {
  return {
    name: name.trim() === '' ? null : name.trim(),
    ...(settings && { settings: settingsBody(settings) }),
    stories: stories.map((story) => ({
      ...(story.id !== undefined && { id: story.id }),
      name: story.name,
      avatar: story.avatar,
      pinned: story.pinned,
      slides: story.slides.map((slide) => ({
        ...(slide.id !== undefined && { id: slide.id }),
        type: slide.type,
        background: slide.background,
        preview: slide.preview.trim() === '' ? null : slide.preview,
        duration: slide.duration,
        elements: slide.elements.map(elementBody),
      })),
    })),
  };
}

/** Where a refused path (`stories[1].slides[0].elements[2].link`) points: story, slide and element indexes and the field. */
export interface ProblemPlace {
  readonly story?: number;
  readonly slide?: number;
  readonly element?: number;
  readonly field: string;
}

export function placeOf(path: string | undefined): ProblemPlace | undefined {
  if (!path) return undefined;
  const match = /^stories\[(\d+)\](?:\.slides\[(\d+)\](?:\.elements\[(\d+)\])?)?(?:\.(\w+))?$/.exec(path);
  if (!match) return { field: path };
  const number = (text: string | undefined) => (text === undefined ? undefined : Number(text));
  return { story: number(match[1]), slide: number(match[2]), element: number(match[3]), field: match[4] ?? '' };
}
