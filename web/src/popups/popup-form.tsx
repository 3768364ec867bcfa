import {
  Alert,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  NumberInput,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useState, type FormEvent, type ReactNode } from 'react';
import { ApiError } from '../api/client';
import { useSegments } from '../customers/customers.queries';
import { useI18n } from '../i18n/i18n';
import { describeFailure } from '../ui/states';
import { PopupPreview } from './popup-preview';
import { bodyOf, draftOf, emptyDraft, POSITIONS, STREAMS, type PopupDraft } from './popup-draft';
import { useSavePopup, type Popup } from './popups.queries';

/** The fields a 422 can name, by the first part of the server's field (`actions.link.link_ios` → actions). */
type Field = 'name' | 'delay' | 'html' | 'components' | 'actions' | 'screens' | 'segment_id' | 'starts_at' | 'ends_at';
/** The draft's plain text fields. */
type TextKey = 'header' | 'text' | 'image' | 'linkText' | 'linkIos' | 'linkAndroid' | 'linkWeb' | 'closeText' | 'pushText' | 'screens';
const FIELDS: readonly Field[] = ['name', 'delay', 'html', 'components', 'actions', 'screens', 'segment_id', 'starts_at', 'ends_at'];

/**
 * A popup's content, buttons and targeting with a live preview (admin-api.md "Popups",
 * docs/popups.md), saved with POST (new) or PATCH (every field). The server's 422 is shown
 * at the part of the form it names; the HTML is sent exactly as typed.
 */
export function PopupForm({
  shopId,
  timezone,
  popup,
  readOnly,
  onSaved,
}: {
  readonly shopId: string;
  readonly timezone: string;
  readonly popup?: Popup;
  readonly readOnly: boolean;
  readonly onSaved?: (popup: Popup) => void;
}) {
  const { t } = useI18n();
  const save = useSavePopup(shopId);
  const segments = useSegments(shopId);
  const [draft, setDraft] = useState<PopupDraft>(() => (popup ? draftOf(popup, timezone) : emptyDraft()));
  const [saved, setSaved] = useState(false);
  const set = <K extends keyof PopupDraft>(key: K, value: PopupDraft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setSaved(false);
  };

  const refusal = save.error instanceof ApiError && save.error.status === 422 ? save.error : undefined;
  const refusedField = FIELDS.find((f) => f === refusal?.field?.split(/[./]/)[0]);
  const at = (field: Field) => (refusedField === field ? refusal?.message : undefined);
  const formMessage = save.error && refusedField === undefined ? describeFailure(save.error, t) : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    save.mutate(
      { id: popup?.id, body: bodyOf(draft, timezone, popup) },
      {
        onSuccess: (result) => {
          setSaved(true);
          onSaved?.(result);
        },
      },
    );
  };
  const text = (key: TextKey, label: string, props: { maxLength: number; hint?: string; error?: ReactNode } = { maxLength: 200 }) => (
    <TextInput
      label={label}
      description={props.hint}
      maxLength={props.maxLength}
      value={draft[key]}
      disabled={readOnly}
      onChange={(e) => set(key, e.currentTarget.value)}
      error={props.error}
    />
  );

  return (
    <form onSubmit={submit} noValidate aria-label={popup ? t('popups.form.editLabel') : t('popups.form.newLabel')}>
      <Stack gap="md">
        {formMessage && (
          <Alert color="red" role="alert">
            {formMessage}
          </Alert>
        )}
        {saved && !save.isPending && !save.isError && (
          <Alert color="green" role="status">
            {t('popups.form.saved')}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <Stack gap="sm">
            <TextInput
              label={t('popups.form.name')}
              description={t('popups.form.nameHint')}
              required
              maxLength={200}
              value={draft.name}
              disabled={readOnly}
              onChange={(e) => set('name', e.currentTarget.value)}
              error={at('name')}
            />
            <Group grow align="flex-start">
              <NativeSelect
                label={t('popups.form.status')}
                value={draft.status}
                disabled={readOnly}
                onChange={(e) => set('status', e.currentTarget.value as PopupDraft['status'])}
                data={[
                  { value: 'active', label: t('popups.status.active') },
                  { value: 'inactive', label: t('popups.status.inactive') },
                ]}
              />
              <NativeSelect
                label={t('popups.form.position')}
                value={draft.position}
                disabled={readOnly}
                onChange={(e) => set('position', e.currentTarget.value as PopupDraft['position'])}
                data={POSITIONS.map((p) => ({ value: p, label: t(`popups.position.${p}`) }))}
              />
              <NumberInput
                label={t('popups.form.delay')}
                min={0}
                max={3600}
                allowDecimal={false}
                value={draft.delay}
                disabled={readOnly}
                onChange={(value) => set('delay', value)}
                error={at('delay')}
              />
            </Group>
            <Textarea
              label={t('popups.form.html')}
              description={t('popups.form.htmlHint')}
              autosize
              minRows={4}
              maxRows={14}
              maxLength={65_536}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              value={draft.html}
              disabled={readOnly}
              onChange={(e) => set('html', e.currentTarget.value)}
              error={at('html')}
            />
            <Title order={3} size="h5">
              {t('popups.form.components')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('popups.form.componentsHint')}
            </Text>
            {text('header', t('popups.form.header'), { maxLength: 2000, error: at('components') })}
            {text('text', t('popups.form.text'), { maxLength: 2000 })}
            {text('image', t('popups.form.image'), { maxLength: 2000, hint: t('popups.form.imageHint') })}
          </Stack>
          <Stack gap="sm" align="center">
            <Text size="sm" fw={500}>
              {t('popups.preview.title')}
            </Text>
            <PopupPreview draft={draft} />
          </Stack>
        </SimpleGrid>
        <Title order={3} size="h5">
          {t('popups.form.buttons')}
        </Title>
        {at('actions') && (
          <Alert color="red" role="alert">
            {at('actions')}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {text('linkText', t('popups.form.linkText'), { maxLength: 100 })}
          {text('linkIos', t('popups.form.linkIos'), { maxLength: 2000, hint: t('popups.form.linkHint') })}
          {text('linkAndroid', t('popups.form.linkAndroid'), { maxLength: 2000 })}
          {text('linkWeb', t('popups.form.linkWeb'), { maxLength: 2000 })}
          {text('closeText', t('popups.form.closeText'), { maxLength: 100 })}
          {text('pushText', t('popups.form.pushText'), { maxLength: 100, hint: t('popups.form.pushHint') })}
        </SimpleGrid>
        <Title order={3} size="h5">
          {t('popups.form.targeting')}
        </Title>
        <Checkbox.Group
          label={t('popups.form.streams')}
          description={t('popups.form.streamsHint')}
          value={[...draft.streams]}
          onChange={(value) => set('streams', value)}
        >
          <Group mt={4}>
            {STREAMS.map((s) => (
              <Checkbox key={s} value={s} label={t(`popups.stream.${s}`)} disabled={readOnly} />
            ))}
          </Group>
        </Checkbox.Group>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {text('screens', t('popups.form.screens'), { maxLength: 2000, hint: t('popups.form.screensHint'), error: at('screens') })}
          <NativeSelect
            label={t('popups.form.segment')}
            value={draft.segment}
            disabled={readOnly}
            onChange={(e) => set('segment', e.currentTarget.value)}
            error={at('segment_id')}
            data={[
              { value: '', label: t('popups.form.everyone') },
              ...(segments.data?.segments ?? []).map((s) => ({ value: String(s.id), label: s.name })),
            ]}
          />
          <TextInput
            type="datetime-local"
            label={t('popups.form.startsAt', { zone: timezone })}
            value={draft.startsAt}
            disabled={readOnly}
            onChange={(e) => set('startsAt', e.currentTarget.value)}
            error={at('starts_at')}
          />
          <TextInput
            type="datetime-local"
            label={t('popups.form.endsAt', { zone: timezone })}
            value={draft.endsAt}
            disabled={readOnly}
            onChange={(e) => set('endsAt', e.currentTarget.value)}
            error={at('ends_at')}
          />
        </SimpleGrid>
        {!readOnly && (
          <Group>
            <Button type="submit" loading={save.isPending}>
              {popup ? t('popups.form.save') : t('popups.form.create')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
