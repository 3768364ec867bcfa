import { checkElement, MAX_ELEMENTS_PER_SLIDE, type StoredElement } from './elements.js';
import { isMediaUrl } from './links.js';
import { checkSettings, COLOR, type StorySettings } from './settings.js';

/**
 * A story set as a PUT gives it (admin-api.md "Stories"), checked whole. Pure; the first
 * problem is answered, naming its path (`stories[0].slides[2].background`).
 */

export const MAX_STORIES_PER_SET = 50;
export const MAX_SLIDES_PER_STORY = 30;
export const MAX_NAME_LENGTH = 200;
export const DEFAULT_SLIDE_DURATION = 10;
export const MAX_SLIDE_DURATION = 60;
const CODE = /^[a-z0-9_-]{1,64}$/;

export const SLIDE_TYPES = ['image', 'video'] as const;
export type SlideType = (typeof SLIDE_TYPES)[number];

export interface SlideDraft {
  readonly id: number | undefined;
  readonly type: SlideType;
  readonly background: string;
  readonly backgroundColor: string | null;
  readonly preview: string | null;
  readonly duration: number;
  readonly elements: readonly StoredElement[];
}

export interface StoryDraft {
  readonly id: number | undefined;
  readonly name: string;
  readonly avatar: string;
  readonly pinned: boolean;
  readonly slides: readonly SlideDraft[];
}

export interface StorySetDraft {
  readonly name: string | null;
  readonly settings: Partial<StorySettings>;
  readonly stories: readonly StoryDraft[];
}

export type SetCheck = { ok: true; set: StorySetDraft } | { ok: false; field: string; requirement: string };

export function isValidSetCode(code: string): boolean {
  return CODE.test(code);
}

/** Thrown inside this file only, to stop at the first problem; checkStorySet answers it. */
class Refusal extends Error {
  constructor(
    readonly field: string,
    readonly requirement: string,
  ) {
    super(`${field} ${requirement}`);
  }
}

export function checkStorySet(raw: unknown): SetCheck {
  try {
    return { ok: true, set: readSet(raw) };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, field: error.field, requirement: error.requirement };
    throw error;
  }
}

function readSet(raw: unknown): StorySetDraft {
  const input = objectAt(raw, 'body');
  const name = optionalText(input.name, 'name', MAX_NAME_LENGTH);
  const settings = checkSettings(input.settings);
  if (!settings.ok) throw new Refusal(settings.field, settings.requirement);
  const stories = listAt(input.stories, 'stories', 0, MAX_STORIES_PER_SET).map((story, i) => readStory(story, `stories[${i}]`));
  return { name: name ?? null, settings: settings.settings, stories };
}

function readStory(raw: unknown, path: string): StoryDraft {
  const input = objectAt(raw, path);
  const name = optionalText(input.name, `${path}.name`, MAX_NAME_LENGTH);
  if (name === undefined || name.trim() === '') throw new Refusal(`${path}.name`, 'is required');
  const avatar = media(input.avatar, `${path}.avatar`);
  if (input.pinned !== undefined && input.pinned !== null && typeof input.pinned !== 'boolean') {
    throw new Refusal(`${path}.pinned`, 'must be true or false');
  }
  const slides = listAt(input.slides, `${path}.slides`, 1, MAX_SLIDES_PER_STORY).map((slide, i) =>
    readSlide(slide, `${path}.slides[${i}]`),
  );
  return { id: optionalId(input.id, `${path}.id`), name, avatar, pinned: input.pinned === true, slides };
}

function readSlide(raw: unknown, path: string): SlideDraft {
  const input = objectAt(raw, path);
  const type = input.type ?? 'image';
  if (typeof type !== 'string' || !(SLIDE_TYPES as readonly string[]).includes(type)) {
    throw new Refusal(`${path}.type`, 'must be `image` or `video`');
  }
  const background = media(input.background, `${path}.background`);
  const preview =
    input.preview === undefined || input.preview === null || input.preview === '' ? null : media(input.preview, `${path}.preview`);
  const color = input.background_color;
  if (color !== undefined && color !== null && !(typeof color === 'string' && COLOR.test(color))) {
    throw new Refusal(`${path}.background_color`, 'must be a colour as `#rgb` or `#rrggbb`');
  }
  const duration = input.duration ?? DEFAULT_SLIDE_DURATION;
  if (!Number.isInteger(duration) || (duration as number) < 1 || (duration as number) > MAX_SLIDE_DURATION) {
    throw new Refusal(`${path}.duration`, `must be a whole number of seconds from 1 to ${MAX_SLIDE_DURATION}`);
  }
  const elements = listAt(input.elements ?? [], `${path}.elements`, 0, MAX_ELEMENTS_PER_SLIDE).map((element, i) => {
    const checked = checkElement(element, `${path}.elements[${i}]`);
    if (!checked.ok) throw new Refusal(checked.field, checked.requirement);
    return checked.element;
  });
  return {
    id: optionalId(input.id, `${path}.id`),
    type: type as SlideType,
    background,
    backgroundColor: typeof color === 'string' ? color : null,
    preview,
    duration: duration as number,
    elements,
  };
}

function objectAt(raw: unknown, path: string): Record<string, unknown> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Refusal(path, 'must be an object');
  return raw as Record<string, unknown>;
}

function listAt(raw: unknown, path: string, min: number, max: number): unknown[] {
  if (!Array.isArray(raw)) throw new Refusal(path, 'must be an array');
  if (raw.length < min || raw.length > max) throw new Refusal(path, `must hold ${min} to ${max} entries`);
  return raw;
}

function optionalText(raw: unknown, path: string, max: number): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'string' || raw.length > max) throw new Refusal(path, `must be text of at most ${max} characters`);
  return raw;
}

function media(raw: unknown, path: string): string {
  if (raw === undefined || raw === null || raw === '') throw new Refusal(path, 'is required');
  if (typeof raw !== 'string' || !isMediaUrl(raw)) throw new Refusal(path, 'must be an http(s) link');
  return raw;
}

function optionalId(raw: unknown, path: string): number | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!Number.isSafeInteger(raw) || (raw as number) < 1) throw new Refusal(path, 'must be a whole number from 1');
  return raw as number;
}
