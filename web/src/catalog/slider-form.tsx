import { Alert, Button, Group, Paper, SimpleGrid, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, ApiError, unwrap } from '../api/client';
import { useI18n } from '../i18n/i18n';
import { describeFailure } from '../ui/states';
import { catalogKeys } from './catalog.queries';
import {
  bodyOf,
  emptySlide,
  MAX_SLIDES,
  moved,
  placeOf,
  type SlideDraft,
  type SlideField,
  type SliderBody,
  type SliderDraft,
} from './slider-drafts';

/**
 * A slider's size and slides, edited whole and saved with one PUT (docs/sliders.md: the
 * slider is replaced as sent). The server's 422 names the slide's field (`slides[2].url`)
 * and is shown under that input; the size is checked here first.
 */
export function SliderForm({
  shopId,
  code,
  initial,
  onSaved,
  onCancel,
}: {
  readonly shopId: string;
  readonly code: string;
  readonly initial: SliderDraft;
  readonly onSaved: () => void;
  readonly onCancel: () => void;
}) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<SliderDraft>(initial);
  const [local, setLocal] = useState<{ field: 'width' | 'height'; message: string } | null>(null);
  const save = useMutation({
    mutationFn: (body: SliderBody) =>
      unwrap(api.PUT('/admin/v1/shops/{shop_id}/sliders/{code}', { params: { path: { shop_id: shopId, code } }, body })),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: catalogKeys.sliders(shopId) });
      onSaved();
    },
  });
  const refused = save.error instanceof ApiError && save.error.status === 422 ? placeOf(save.error.field) : undefined;
  const serverMessage = save.error instanceof ApiError ? save.error.message : '';
  const formFailure = save.error && refused === undefined ? describeFailure(save.error, t) : undefined;
  const sizeError = (field: 'width' | 'height') =>
    local?.field === field ? local.message : refused?.at === field ? serverMessage : undefined;
  const slideError = (index: number, field: SlideField) =>
    refused?.at === 'slide' && refused.index === index && refused.field === field ? serverMessage : undefined;

  const setSlide = (index: number, field: SlideField, value: string) =>
    setDraft((d) => ({ ...d, slides: d.slides.map((s, i) => (i === index ? { ...s, [field]: value } : s)) }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setLocal(null);
    const result = bodyOf(draft);
    if ('problem' in result) return setLocal({ field: result.problem.field, message: t(result.problem.key) });
    save.mutate(result.body);
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t('catalog.slider.editTitle', { code })}>
      <Stack gap="md">
        {formFailure && (
          <Alert color="red" role="alert">
            {formFailure}
          </Alert>
        )}
        {refused?.at === 'slides' && (
          <Alert color="red" role="alert">
            {serverMessage}
          </Alert>
        )}
        <Group align="flex-start" grow maw={420}>
          <TextInput
            label={t('catalog.slider.width')}
            required
            inputMode="numeric"
            value={draft.width}
            onChange={(e) => setDraft({ ...draft, width: e.currentTarget.value })}
            error={sizeError('width')}
          />
          <TextInput
            label={t('catalog.slider.height')}
            required
            inputMode="numeric"
            value={draft.height}
            onChange={(e) => setDraft({ ...draft, height: e.currentTarget.value })}
            error={sizeError('height')}
          />
        </Group>
        {draft.slides.length === 0 && <Text c="dimmed">{t('catalog.slider.noSlides')}</Text>}
        {draft.slides.map((slide, index) => (
          // Slides have no id: their position is what they are.
          // biome-ignore lint/suspicious/noArrayIndexKey: the order is the slider's
          <Paper withBorder p="md" key={index} component="fieldset" aria-label={t('catalog.slider.slide', { n: index + 1 })}>
            <Stack gap="xs">
              <Group justify="space-between">
                <Title order={2} size="h4">
                  {t('catalog.slider.slide', { n: index + 1 })}
                </Title>
                <Group gap="xs">
                  <Button
                    size="xs"
                    variant="default"
                    disabled={index === 0}
                    aria-label={t('catalog.slider.moveUp', { n: index + 1 })}
                    onClick={() => setDraft((d) => ({ ...d, slides: moved(d.slides, index, -1) }))}
                  >
                    ↑
                  </Button>
                  <Button
                    size="xs"
                    variant="default"
                    disabled={index === draft.slides.length - 1}
                    aria-label={t('catalog.slider.moveDown', { n: index + 1 })}
                    onClick={() => setDraft((d) => ({ ...d, slides: moved(d.slides, index, 1) }))}
                  >
                    ↓
                  </Button>
                  <Button
                    size="xs"
                    color="red"
                    variant="subtle"
                    aria-label={t('catalog.slider.removeSlide', { n: index + 1 })}
                    onClick={() => setDraft((d) => ({ ...d, slides: d.slides.filter((_, i) => i !== index) }))}
                  >
                    {t('catalog.slider.remove')}
                  </Button>
                </Group>
              </Group>
              <SlideInputs slide={slide} index={index} onChange={setSlide} errorOf={slideError} />
            </Stack>
          </Paper>
        ))}
        <Group>
          <Button
            variant="default"
            disabled={draft.slides.length >= MAX_SLIDES}
            onClick={() => setDraft((d) => ({ ...d, slides: [...d.slides, emptySlide()] }))}
          >
            {t('catalog.slider.addSlide')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {t('catalog.slider.save')}
          </Button>
          <Button variant="subtle" onClick={onCancel}>
            {t('catalog.slider.cancel')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function SlideInputs({
  slide,
  index,
  onChange,
  errorOf,
}: {
  readonly slide: SlideDraft;
  readonly index: number;
  readonly onChange: (index: number, field: SlideField, value: string) => void;
  readonly errorOf: (index: number, field: SlideField) => string | undefined;
}) {
  const { t } = useI18n();
  const input = (field: SlideField, label: string, props: { required?: boolean; description?: string; maxLength: number }) => (
    <TextInput
      label={label}
      {...props}
      value={slide[field]}
      onChange={(e) => onChange(index, field, e.currentTarget.value)}
      error={errorOf(index, field)}
    />
  );
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
      {input('image_url', t('catalog.slider.image'), { required: true, description: t('catalog.slider.httpHint'), maxLength: 2048 })}
      {input('url', t('catalog.slider.url'), { required: true, description: t('catalog.slider.httpHint'), maxLength: 2048 })}
      {input('deeplink_ios', t('catalog.slider.ios'), { description: t('catalog.slider.appLinkHint'), maxLength: 2048 })}
      {input('deeplink_android', t('catalog.slider.android'), { description: t('catalog.slider.appLinkHint'), maxLength: 2048 })}
      {input('content_type', t('catalog.slider.contentType'), { maxLength: 100 })}
      {input('tags', t('catalog.slider.tags'), { description: t('catalog.slider.tagsHint'), maxLength: 1400 })}
      <Textarea
        label={t('catalog.slider.content')}
        maxLength={2000}
        autosize
        minRows={2}
        value={slide.content}
        onChange={(e) => onChange(index, 'content', e.currentTarget.value)}
        error={errorOf(index, 'content')}
      />
    </SimpleGrid>
  );
}
