/**
 * A story set's display settings (docs/stories.md "Settings"). The iOS SDK decodes every
 * one of these keys with its type and fails the whole answer on a missing one, so the
 * answer always carries them all: what the shop gave, else these defaults.
 */

export interface StorySettings {
  readonly color: string;
  readonly font_size: number;
  readonly avatar_size: number;
  readonly close_color: string;
  readonly border_viewed: string;
  readonly border_not_viewed: string;
  readonly background_pin: string;
  readonly background_progress: string;
  readonly pin_symbol: string;
  readonly background: string;
  readonly background_opacity: number;
}

export const DEFAULT_SETTINGS: StorySettings = {
  color: '#212529',
  font_size: 13,
  avatar_size: 60,
  close_color: '#ffffff',
  border_viewed: '#fdc2a1',
  border_not_viewed: '#fd7c50',
  background_pin: '#fd7c50',
  background_progress: '#ffffff',
  pin_symbol: '📌',
  background: '#ffffff',
  background_opacity: 100,
};

export const COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

type Rule = { kind: 'color' } | { kind: 'int'; min: number; max: number } | { kind: 'text'; max: number };

const RULES: Record<keyof StorySettings, Rule> = {
  color: { kind: 'color' },
  font_size: { kind: 'int', min: 6, max: 48 },
  avatar_size: { kind: 'int', min: 20, max: 200 },
  close_color: { kind: 'color' },
  border_viewed: { kind: 'color' },
  border_not_viewed: { kind: 'color' },
  background_pin: { kind: 'color' },
  background_progress: { kind: 'color' },
  pin_symbol: { kind: 'text', max: 8 },
  background: { kind: 'color' },
  background_opacity: { kind: 'int', min: 0, max: 100 },
};

export type SettingsCheck = { ok: true; settings: Partial<StorySettings> } | { ok: false; field: string; requirement: string };

/** The settings a PUT gave, each checked; unknown keys are refused so that a typo is seen. */
export function checkSettings(raw: unknown): SettingsCheck {
  if (raw === undefined || raw === null) return { ok: true, settings: {} };
  if (typeof raw !== 'object' || Array.isArray(raw)) return { ok: false, field: 'settings', requirement: 'must be an object' };
  const settings: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    const rule = RULES[key as keyof StorySettings];
    const field = `settings.${key}`;
    if (!rule) return { ok: false, field, requirement: 'is not a setting' };
    if (value === null || value === undefined) continue;
    if (rule.kind === 'color' && !(typeof value === 'string' && COLOR.test(value))) {
      return { ok: false, field, requirement: 'must be a colour as `#rgb` or `#rrggbb`' };
    }
    if (rule.kind === 'int' && !(Number.isInteger(value) && (value as number) >= rule.min && (value as number) <= rule.max)) {
      return { ok: false, field, requirement: `must be a whole number from ${rule.min} to ${rule.max}` };
    }
    if (rule.kind === 'text' && !(typeof value === 'string' && value.length >= 1 && value.length <= rule.max)) {
      return { ok: false, field, requirement: `must be 1 to ${rule.max} characters` };
    }
    settings[key] = value;
  }
  return { ok: true, settings: settings };
}

export function withDefaults(settings: Partial<StorySettings>): StorySettings {
  return { ...DEFAULT_SETTINGS, ...settings };
}
