import { isoToLocal, localToIso } from '../loyalty/money';
import type { Popup, PopupBody } from './popups.queries';

/** What the popup form holds while it is typed: texts as typed, turned into the API's body on save. */
export interface PopupDraft {
  readonly name: string;
  readonly status: 'active' | 'inactive';
  readonly position: PopupBody['position'];
  readonly delay: number | string;
  readonly html: string;
  readonly header: string;
  readonly text: string;
  readonly image: string;
  readonly linkText: string;
  readonly linkIos: string;
  readonly linkAndroid: string;
  readonly linkWeb: string;
  readonly closeText: string;
  readonly pushText: string;
  readonly streams: readonly string[];
  /** Screen names separated by commas or spaces. */
  readonly screens: string;
  /** A segment id, or '' for everyone. */
  readonly segment: string;
  /** `datetime-local` values in the shop's time zone, or ''. */
  readonly startsAt: string;
  readonly endsAt: string;
}

export const POSITIONS = ['centered', 'fixed_bottom', 'top', 'slide_right', 'slide_left'] as const;
export const STREAMS = ['ios', 'android', 'web'] as const;

export function emptyDraft(): PopupDraft {
  return {
    name: '',
    status: 'active',
    position: 'centered',
    delay: 0,
    html: '',
    header: '',
    text: '',
    image: '',
    linkText: '',
    linkIos: '',
    linkAndroid: '',
    linkWeb: '',
    closeText: '',
    pushText: '',
    streams: [],
    screens: '',
    segment: '',
    startsAt: '',
    endsAt: '',
  };
}

export function draftOf(popup: Popup, timezone: string): PopupDraft {
  const { link, close, system_mobile_push_subscribe: push } = popup.actions;
  const c = popup.components;
  return {
    name: popup.name,
    status: popup.status,
    position: popup.position,
    delay: popup.delay,
    html: popup.html,
    header: c.header ?? '',
    text: c.text ?? '',
    image: c.image ?? '',
    linkText: link?.button_text ?? '',
    linkIos: link?.link_ios ?? '',
    linkAndroid: link?.link_android ?? '',
    linkWeb: link?.link_web ?? '',
    closeText: close?.button_text ?? '',
    pushText: push?.button_text ?? '',
    streams: popup.streams,
    screens: popup.screens.join(', '),
    segment: popup.segment_id === null ? '' : String(popup.segment_id),
    startsAt: popup.starts_at ? isoToLocal(popup.starts_at, timezone) : '',
    endsAt: popup.ends_at ? isoToLocal(popup.ends_at, timezone) : '',
  };
}

/** Only the non-empty texts, so that an untouched field is not sent as an empty one. */
function filled(entries: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(entries).filter(([, value]) => value.trim() !== ''));
}

/** The components kept from a popup the form does not show (flags such as `header_enabled`) stay as they were. */
export function bodyOf(draft: PopupDraft, timezone: string, previous?: Popup): PopupBody {
  const components = {
    ...previous?.components,
    header: '',
    text: '',
    image: '',
    ...filled({ header: draft.header, text: draft.text, image: draft.image }),
  };
  for (const key of ['header', 'text', 'image'] as const) if (components[key] === '') delete components[key];
  const link = filled({ button_text: draft.linkText, link_ios: draft.linkIos, link_android: draft.linkAndroid, link_web: draft.linkWeb });
  const actions: PopupBody['actions'] = {};
  if (Object.keys(link).length > 0) actions.link = link;
  if (draft.closeText.trim() !== '') actions.close = { button_text: draft.closeText.trim() };
  if (draft.pushText.trim() !== '') actions.system_mobile_push_subscribe = { button_text: draft.pushText.trim() };
  return {
    name: draft.name.trim(),
    status: draft.status,
    position: draft.position,
    delay: typeof draft.delay === 'number' ? draft.delay : Number(draft.delay) || 0,
    html: draft.html,
    components,
    actions,
    streams: draft.streams as PopupBody['streams'],
    screens: draft.screens.split(/[\s,]+/).filter((s) => s !== ''),
    segment_id: draft.segment === '' ? null : Number(draft.segment),
    starts_at: draft.startsAt === '' ? null : localToIso(draft.startsAt, timezone),
    ends_at: draft.endsAt === '' ? null : localToIso(draft.endsAt, timezone),
  };
}
