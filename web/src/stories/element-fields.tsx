import { Button, Fieldset, Group, NumberInput, Stack, TextInput, Textarea } from '@mantine/core';
import { useI18n } from '../i18n/i18n';
import type { StoryElement } from './stories.queries';

type Field = keyof StoryElement;
type TextField =
  | 'title'
  | 'subtitle'
  | 'icon'
  | 'link'
  | 'deeplink_ios'
  | 'deeplink_android'
  | 'background'
  | 'color'
  | 'show_carousel'
  | 'hide_carousel'
  | 'item_id'
  | 'promocode'
  | 'text_color'
  | 'text_background_color';

/** Which fields the editor offers per type; the rest the API takes are kept as loaded (docs/stories.md "Elements"). */
const TEXT_FIELDS: Record<StoryElement['type'], readonly TextField[]> = {
  button: ['title', 'link', 'deeplink_ios', 'deeplink_android', 'background', 'color'],
  products: ['show_carousel', 'hide_carousel'],
  product: ['item_id', 'title', 'promocode'],
  text_block: ['text_color', 'text_background_color'],
  header: ['title', 'subtitle', 'icon', 'link'],
};

/**
 * One element of a slide: its fields by type, the server's refusal at the field it names,
 * and its removal. `n` numbers it as the editor shows it.
 */
export function ElementFields({
  element,
  n,
  problem,
  readOnly,
  onChange,
  onRemove,
}: {
  readonly element: StoryElement;
  readonly n: number;
  readonly problem?: { readonly field: string; readonly message: string };
  readonly readOnly: boolean;
  readonly onChange: (element: StoryElement) => void;
  readonly onRemove: () => void;
}) {
  const { t } = useI18n();
  const set = (field: Field, value: unknown) => onChange({ ...element, [field]: value });
  const errorAt = (field: string) => (problem?.field === field ? problem.message : undefined);
  const text = (field: TextField) => (
    <TextInput
      key={field}
      label={t(`stories.element.${field}`)}
      value={element[field] ?? ''}
      disabled={readOnly}
      onChange={(e) => set(field, e.currentTarget.value)}
      error={errorAt(field)}
    />
  );
  const number = (field: 'y_offset' | 'font_size' | 'promocode_discount_percent', min: number, max: number) => (
    <NumberInput
      key={field}
      label={t(`stories.element.${field}`)}
      min={min}
      max={max}
      value={element[field] ?? ''}
      disabled={readOnly}
      onChange={(value) => set(field, typeof value === 'number' ? value : undefined)}
      error={errorAt(field)}
    />
  );
  const legend = t('stories.element.legend', { n, type: t(`stories.elementType.${element.type}`) });
  return (
    <Fieldset legend={legend} aria-label={t('stories.element.label', { n })}>
      <Stack gap="xs">
        {problem && problem.field === '' && <span role="alert">{problem.message}</span>}
        {element.type === 'text_block' && (
          <Textarea
            label={t('stories.element.text_input')}
            autosize
            minRows={2}
            value={element.text_input ?? ''}
            disabled={readOnly}
            onChange={(e) => set('text_input', e.currentTarget.value)}
            error={errorAt('text_input')}
          />
        )}
        {element.type === 'products' && (
          <TextInput
            label={t('stories.element.item_ids')}
            description={t('stories.element.itemIdsHint')}
            value={(element.item_ids ?? []).join(', ')}
            disabled={readOnly}
            onChange={(e) =>
              set(
                'item_ids',
                e.currentTarget.value
                  .split(',')
                  .map((id) => id.trim())
                  .filter((id) => id !== ''),
              )
            }
            error={errorAt('item_ids')}
          />
        )}
        <Group grow align="flex-start">
          {TEXT_FIELDS[element.type].slice(0, 3).map(text)}
        </Group>
        {TEXT_FIELDS[element.type].length > 3 && (
          <Group grow align="flex-start">
            {TEXT_FIELDS[element.type].slice(3).map(text)}
          </Group>
        )}
        <Group grow align="flex-start">
          {element.type === 'text_block' && number('font_size', 6, 96)}
          {element.type === 'product' && number('promocode_discount_percent', 1, 99)}
          {number('y_offset', 0, 100)}
        </Group>
        {!readOnly && (
          <Group>
            <Button variant="subtle" color="red" size="xs" onClick={onRemove} aria-label={t('stories.element.removeLabel', { n })}>
              {t('stories.element.remove')}
            </Button>
          </Group>
        )}
      </Stack>
    </Fieldset>
  );
}
