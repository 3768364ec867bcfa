import { htmlProblem, MAX_HTML_LENGTH, type HtmlProblem } from './html.js';
import { isAllowedLink, isHttpUrl, MAX_LINK_LENGTH } from './links.js';

/** A popup's fields and the rules they follow (admin-api.md "Popups", docs/popups.md). */

export const POPUP_STATUSES = ['active', 'inactive'] as const;
export type PopupStatus = (typeof POPUP_STATUSES)[number];
export const POPUP_POSITIONS = ['centered', 'fixed_bottom', 'top', 'slide_right', 'slide_left'] as const;
export type PopupPosition = (typeof POPUP_POSITIONS)[number];
export const POPUP_STREAMS = ['android', 'ios', 'web'] as const;
export const POPUP_CHANNELS = ['email', 'sms', 'web_push', 'mobile_push'] as const;
/** What popup_actions may hold: the SDKs read these three keys (docs/popups.md "What the app sees"). */
export const POPUP_ACTIONS = ['link', 'close', 'system_mobile_push_subscribe'] as const;

export const MAX_NAME_LENGTH = 200;
export const MAX_DELAY_SECONDS = 3600;
export const MAX_SCREENS = 50;
export const MAX_SCREEN_LENGTH = 100;
export const SCREEN_PATTERN = /^[A-Za-z0-9_.:/-]{1,100}$/;
export const MAX_COMPONENTS = 30;
export const COMPONENT_KEY_PATTERN = /^[a-z0-9_]{1,40}$/;
export const MAX_COMPONENT_LENGTH = 2000;
export const MAX_BUTTON_TEXT_LENGTH = 100;
export { MAX_HTML_LENGTH, MAX_LINK_LENGTH };

/** The actions the SDKs act on: a link button, a close button, and a button that asks for push permission. */
export interface PopupActions {
  readonly link?: { readonly button_text?: string; readonly link_ios?: string; readonly link_android?: string; readonly link_web?: string };
  readonly close?: { readonly button_text?: string };
  readonly system_mobile_push_subscribe?: { readonly button_text?: string };
}

export interface Popup {
  readonly id: number;
  readonly name: string;
  readonly status: PopupStatus;
  readonly position: PopupPosition;
  readonly delay: number;
  readonly streams: readonly string[];
  readonly screens: readonly string[];
  readonly channels: readonly string[];
  readonly html: string;
  /** String values only: the iOS and Android SDKs decode every component as text. */
  readonly components: Readonly<Record<string, string>>;
  readonly actions: PopupActions;
  readonly webPushSystem: boolean;
  readonly segmentId: number | null;
  readonly startsAt: number | null;
  readonly endsAt: number | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export type FieldCheck = { readonly ok: true } | { readonly ok: false; readonly field: string; readonly requirement: string };

const ok: FieldCheck = { ok: true };
const refuse = (field: string, requirement: string): FieldCheck => ({ ok: false, field, requirement });

/** The content fields' check: `html` (htmlProblem), `components` and `actions`. */
export function checkContent(input: { readonly html?: string; readonly components?: unknown; readonly actions?: unknown }): FieldCheck {
  if (input.html !== undefined) {
    const problem = htmlProblem(input.html);
    if (problem) return refuse('html', htmlRequirement(problem));
  }
  if (input.components !== undefined) {
    const check = checkComponents(input.components);
    if (!check.ok) return check;
  }
  if (input.actions !== undefined) return checkActions(input.actions);
  return ok;
}

function htmlRequirement(problem: HtmlProblem): string {
  switch (problem.kind) {
    case 'too_long':
      return `must be at most ${MAX_HTML_LENGTH} characters`;
    case 'element':
      return `must not hold a <${problem.name}> element`;
    case 'handler':
      return `must not hold an event handler attribute (${problem.name})`;
    case 'link':
      return `may link (${problem.attribute}) only to http(s) addresses and app deep links`;
    case 'style':
      return 'may load styles’ images only from http(s) addresses and must not run script from CSS';
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkComponents(components: unknown): FieldCheck {
  if (!isRecord(components)) return refuse('components', 'must be an object of texts');
  const entries = Object.entries(components);
  if (entries.length > MAX_COMPONENTS) return refuse('components', `must have at most ${MAX_COMPONENTS} keys`);
  for (const [key, value] of entries) {
    const field = `components.${key.slice(0, 40)}`;
    if (!COMPONENT_KEY_PATTERN.test(key)) return refuse('components', 'keys must be 1 to 40 of a-z, 0-9 and _');
    if (typeof value !== 'string') return refuse(field, 'must be a string (the apps read every component as text, e.g. "1" for on)');
    if (value.length > MAX_COMPONENT_LENGTH) return refuse(field, `must be at most ${MAX_COMPONENT_LENGTH} characters`);
    if (key === 'image' && value !== '' && !isHttpUrl(value)) return refuse(field, 'must be an http(s) URL');
  }
  return ok;
}

const ACTION_FIELDS: Readonly<Record<(typeof POPUP_ACTIONS)[number], readonly string[]>> = {
  link: ['button_text', 'link_ios', 'link_android', 'link_web'],
  close: ['button_text'],
  system_mobile_push_subscribe: ['button_text'],
};

function checkActions(actions: unknown): FieldCheck {
  if (!isRecord(actions)) return refuse('actions', 'must be an object');
  for (const [key, action] of Object.entries(actions)) {
    if (!(POPUP_ACTIONS as readonly string[]).includes(key)) return refuse('actions', `may hold only ${POPUP_ACTIONS.join(', ')}`);
    const fields = ACTION_FIELDS[key as (typeof POPUP_ACTIONS)[number]];
    if (!isRecord(action)) return refuse(`actions.${key}`, 'must be an object');
    for (const [name, value] of Object.entries(action)) {
      const field = `actions.${key}.${name.slice(0, 40)}`;
      if (!fields.includes(name)) return refuse(`actions.${key}`, `may hold only ${fields.join(', ')}`);
      if (typeof value !== 'string') return refuse(field, 'must be a string');
      if (name === 'button_text' && value.length > MAX_BUTTON_TEXT_LENGTH) {
        return refuse(field, `must be at most ${MAX_BUTTON_TEXT_LENGTH} characters`);
      }
      if (name.startsWith('link_') && value !== '' && !isAllowedLink(value)) {
        return refuse(field, 'must be an http(s) address or an app deep link (scheme://…)');
      }
    }
  }
  return ok;
}

/** Only the keys the SDKs read, in a fixed order: the JSON text the apps get as `popup_actions`. */
export function normalizeActions(actions: unknown): PopupActions {
  if (!isRecord(actions)) return {};
  const out: { -readonly [K in keyof PopupActions]: Record<string, string> } = {};
  for (const key of POPUP_ACTIONS) {
    const action = actions[key];
    if (!isRecord(action)) continue;
    const kept: Record<string, string> = {};
    for (const name of ACTION_FIELDS[key]) {
      const value = action[name];
      if (typeof value === 'string') kept[name] = value;
    }
    out[key] = kept;
  }
  return out;
}

/** What the device asks with, for matching. */
export interface OfferContext {
  readonly stream?: string;
  readonly screen?: string;
}

/**
 * The popups that may be offered now to a device in this context, apart from what needs
 * the database (shown before, segment): active, within their schedule, for the device's
 * stream and screen. Oldest first, so that a device sees a shop's popups in the order
 * they were made.
 */
export function candidatesFor(popups: readonly Popup[], context: OfferContext, now: number): Popup[] {
  const stream = context.stream?.toLowerCase();
  return popups
    .filter(
      (p) =>
        p.status === 'active' &&
        (p.startsAt === null || p.startsAt <= now) &&
        (p.endsAt === null || now < p.endsAt) &&
        (p.streams.length === 0 || (stream !== undefined && p.streams.includes(stream))) &&
        (p.screens.length === 0 || (context.screen !== undefined && p.screens.includes(context.screen))),
    )
    .sort((a, b) => a.id - b.id);
}

/** Whether an active popup could still be offered some time from now (the cache keeps only these). */
export function mayBeOffered(popup: Popup, now: number): boolean {
  return popup.status === 'active' && (popup.endsAt === null || now < popup.endsAt);
}

/**
 * The popup as every SDK reads it (contract-notes "Beyond interface.md"; docs/popups.md
 * "What the app sees"): `components` and `popup_actions` as JSON object text, `{}` when
 * empty (the Android SDK parses both as JSON objects and drops the whole answer on
 * empty text), `web_push_system` a boolean, `delay` whole seconds.
 */
export interface PopupOffer {
  readonly id: number;
  // A copy of its own (toOffer), so that an answer's schema can type it as a plain array.
  readonly channels: string[];
  readonly position: string;
  readonly delay: number;
  readonly html: string;
  readonly web_push_system: boolean;
  readonly components: string;
  readonly popup_actions: string;
}

export function toOffer(popup: Popup): PopupOffer {
  return {
    id: popup.id,
    channels: [...popup.channels],
    position: popup.position,
    delay: popup.delay,
    html: popup.html,
    web_push_system: popup.webPushSystem,
    components: JSON.stringify(popup.components),
    popup_actions: JSON.stringify(popup.actions),
  };
}
