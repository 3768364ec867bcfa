import { Fieldset, SimpleGrid, TextInput } from '@mantine/core';
import { useI18n } from '../i18n/i18n';
import type { StorySet } from './stories.queries';

export type StorySettings = StorySet['settings'];

/** The colours a shop most often sets; the rest keep their defaults (docs/stories.md "Settings"). */
const COLOURS = ['color', 'close_color', 'border_not_viewed', 'border_viewed', 'background_pin', 'background_progress'] as const;

export const DEFAULT_COLOURS: Readonly<Record<(typeof COLOURS)[number], string>> = {
  color: '#212529',
  close_color: '#ffffff',
  border_not_viewed: '#fd7c50',
  border_viewed: '#fdc2a1',
  background_pin: '#fd7c50',
  background_progress: '#ffffff',
};

/** The set's display settings: a colour left empty is answered with its default, shown as the placeholder. */
export function SettingsFields({
  settings,
  readOnly,
  problem,
  onChange,
}: {
  readonly settings: StorySettings;
  readonly readOnly: boolean;
  readonly problem?: { readonly field: string; readonly message: string };
  readonly onChange: (settings: StorySettings) => void;
}) {
  const { t } = useI18n();
  return (
    <Fieldset legend={t('stories.settings.legend')}>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {COLOURS.map((key) => (
          <TextInput
            key={key}
            label={t(`stories.settings.${key}`)}
            placeholder={DEFAULT_COLOURS[key]}
            maxLength={9}
            value={settings[key] ?? ''}
            disabled={readOnly}
            onChange={(e) => onChange({ ...settings, [key]: e.currentTarget.value })}
            error={problem?.field === `settings.${key}` ? problem.message : undefined}
            styles={{ input: { fontFamily: 'monospace' } }}
          />
        ))}
      </SimpleGrid>
    </Fieldset>
  );
}
