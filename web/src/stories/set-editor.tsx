import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Fieldset,
  Grid,
  Group,
  NativeSelect,
  NumberInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../api/client';
import { useI18n } from '../i18n/i18n';
import { describeFailure } from '../ui/states';
import { ElementFields } from './element-fields';
import { PhonePreview } from './phone-preview';
import { SettingsFields, type StorySettings } from './settings-fields';
import { useSaveStorySet, type StoryFigures, type StorySet } from './stories.queries';
import {
  ELEMENT_TYPES,
  bodyOf,
  draftOf,
  newElement,
  newSlide,
  newStory,
  placeOf,
  type ElementType,
  type SlideDraft,
  type StoryDraft,
} from './story-draft';

/**
 * A story set's stories, slides and elements, saved whole with one PUT that passes back
 * every id (docs/stories.md "Ids"), beside a phone-frame preview of the chosen slide and
 * each story's and slide's views and clicks. Without `set` it makes a new one and asks for
 * its code. The server's 422 opens the story and slide it names and shows at its field.
 */
export function StorySetEditor({
  shopId,
  set,
  figures,
  readOnly,
  onSaved,
}: {
  readonly shopId: string;
  readonly set?: StorySet;
  readonly figures?: StoryFigures;
  readonly readOnly: boolean;
  readonly onSaved?: (set: StorySet) => void;
}) {
  const { t } = useI18n();
  const save = useSaveStorySet(shopId);
  const [code, setCode] = useState('');
  const [name, setName] = useState(set?.name ?? '');
  const [stories, setStories] = useState<StoryDraft[]>(() => (set ? draftOf(set) : [newStory()]));
  const [settings, setSettings] = useState<StorySettings>(set?.settings ?? {});
  const [storyAt, setStoryAt] = useState(0);
  const [slideAt, setSlideAt] = useState(0);
  const [saved, setSaved] = useState(false);

  const story = stories[storyAt];
  const slide = story?.slides[slideAt];
  const refused = save.error instanceof ApiError && save.error.status === 422 ? save.error : undefined;
  const place = placeOf(refused?.field);
  const here = place && place.story === storyAt && (place.slide === undefined || place.slide === slideAt) ? place : undefined;
  const problemAt = (field: string, level: 'story' | 'slide') =>
    here && here.field === field && (level === 'story' ? here.slide === undefined : here.slide !== undefined && here.element === undefined)
      ? refused?.message
      : undefined;

  const updateStory = (change: Partial<StoryDraft>) => setStories((all) => all.map((s, i) => (i === storyAt ? { ...s, ...change } : s)));
  const updateSlide = (change: Partial<SlideDraft>) =>
    updateStory({ slides: (story?.slides ?? []).map((s, i) => (i === slideAt ? { ...s, ...change } : s)) });
  const figuresOf = (id: number | undefined) => figures?.stories.find((s) => s.id === id);
  const slideFigures = (id: number | undefined) => figuresOf(story?.id)?.slides.find((s) => s.id === id);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const target = set?.code ?? code.trim();
    save.mutate(
      { code: target, body: bodyOf(name, settings, stories) },
      {
        onSuccess: (result) => {
          setStories(draftOf(result));
          setSaved(true);
          onSaved?.(result);
        },
        onError: (error) => {
          const at = error instanceof ApiError ? placeOf(error.field) : undefined;
          if (at?.story !== undefined && at.story < stories.length) {
            setStoryAt(at.story);
            setSlideAt(at.slide ?? 0);
          }
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label={set ? t('stories.form.editLabel') : t('stories.form.newLabel')}>
      <Stack gap="md">
        {save.error && (
          <Alert color="red" role="alert">
            {refused ? refused.message : describeFailure(save.error, t)}
          </Alert>
        )}
        {saved && !save.isPending && !save.isError && (
          <Alert color="green" role="status">
            {t('stories.form.saved')}
          </Alert>
        )}
        <Group grow align="flex-start">
          {!set && (
            <TextInput
              label={t('stories.form.code')}
              description={t('stories.form.codeHint')}
              required
              maxLength={64}
              value={code}
              onChange={(e) => setCode(e.currentTarget.value)}
              error={refused?.field === 'code' ? refused.message : undefined}
              ff="monospace"
            />
          )}
          <TextInput
            label={t('stories.form.name')}
            maxLength={200}
            value={name}
            disabled={readOnly}
            onChange={(e) => setName(e.currentTarget.value)}
          />
        </Group>
        <SettingsFields
          settings={settings}
          readOnly={readOnly}
          problem={refused?.field?.startsWith('settings.') ? { field: refused.field, message: refused.message } : undefined}
          onChange={setSettings}
        />
        <Grid>
          <Grid.Col span={{ base: 12, md: 8 }}>
            <Stack gap="md">
              <Title order={3} size="h5">
                {t('stories.stories.title')}
              </Title>
              <Group gap="xs" role="group" aria-label={t('stories.stories.title')}>
                {stories.map((s, i) => (
                  <Button
                    key={s.key}
                    size="xs"
                    variant={i === storyAt ? 'filled' : 'default'}
                    aria-pressed={i === storyAt}
                    onClick={() => {
                      setStoryAt(i);
                      setSlideAt(0);
                    }}
                  >
                    {s.name.trim() === '' ? t('stories.stories.untitled', { n: i + 1 }) : s.name}
                  </Button>
                ))}
                {!readOnly && stories.length < 50 && (
                  <Button
                    size="xs"
                    variant="light"
                    onClick={() => {
                      setStories((all) => [...all, newStory()]);
                      setStoryAt(stories.length);
                      setSlideAt(0);
                    }}
                  >
                    {t('stories.stories.add')}
                  </Button>
                )}
              </Group>
              {story && (
                <Fieldset legend={t('stories.story.legend', { n: storyAt + 1 })}>
                  <Stack gap="sm">
                    {story.id !== undefined && <FiguresLine figures={figuresOf(story.id)} />}
                    <Group grow align="flex-start">
                      <TextInput
                        label={t('stories.story.name')}
                        required
                        maxLength={200}
                        value={story.name}
                        disabled={readOnly}
                        onChange={(e) => updateStory({ name: e.currentTarget.value })}
                        error={problemAt('name', 'story')}
                      />
                      <TextInput
                        label={t('stories.story.avatar')}
                        required
                        value={story.avatar}
                        disabled={readOnly}
                        onChange={(e) => updateStory({ avatar: e.currentTarget.value })}
                        error={problemAt('avatar', 'story')}
                      />
                    </Group>
                    <Group justify="space-between">
                      <Checkbox
                        label={t('stories.story.pinned')}
                        checked={story.pinned}
                        disabled={readOnly}
                        onChange={(e) => updateStory({ pinned: e.currentTarget.checked })}
                      />
                      {!readOnly && stories.length > 0 && (
                        <Button
                          variant="subtle"
                          color="red"
                          size="xs"
                          onClick={() => {
                            setStories((all) => all.filter((_, i) => i !== storyAt));
                            setStoryAt(Math.max(0, storyAt - 1));
                            setSlideAt(0);
                          }}
                        >
                          {t('stories.story.remove')}
                        </Button>
                      )}
                    </Group>
                    <Group gap="xs" role="group" aria-label={t('stories.slides.title')}>
                      {story.slides.map((s, i) => (
                        <Button
                          key={s.key}
                          size="xs"
                          variant={i === slideAt ? 'filled' : 'default'}
                          aria-pressed={i === slideAt}
                          onClick={() => setSlideAt(i)}
                        >
                          {t('stories.slides.slide', { n: i + 1 })}
                        </Button>
                      ))}
                      {!readOnly && story.slides.length < 30 && (
                        <Button
                          size="xs"
                          variant="light"
                          onClick={() => {
                            updateStory({ slides: [...story.slides, newSlide()] });
                            setSlideAt(story.slides.length);
                          }}
                        >
                          {t('stories.slides.add')}
                        </Button>
                      )}
                    </Group>
                    {slide && (
                      <Fieldset legend={t('stories.slide.legend', { n: slideAt + 1 })}>
                        <Stack gap="sm">
                          {slide.id !== undefined && <FiguresLine figures={slideFigures(slide.id)} />}
                          <Group grow align="flex-start">
                            <NativeSelect
                              label={t('stories.slide.type')}
                              value={slide.type}
                              disabled={readOnly}
                              data={[
                                { value: 'image', label: t('stories.slide.image') },
                                { value: 'video', label: t('stories.slide.video') },
                              ]}
                              onChange={(e) => updateSlide({ type: e.currentTarget.value === 'video' ? 'video' : 'image' })}
                            />
                            <NumberInput
                              label={t('stories.slide.duration')}
                              min={1}
                              max={60}
                              allowDecimal={false}
                              value={slide.duration}
                              disabled={readOnly}
                              onChange={(value) => updateSlide({ duration: typeof value === 'number' ? value : 10 })}
                              error={problemAt('duration', 'slide')}
                            />
                          </Group>
                          <TextInput
                            label={slide.type === 'video' ? t('stories.slide.videoUrl') : t('stories.slide.pictureUrl')}
                            required
                            value={slide.background}
                            disabled={readOnly}
                            onChange={(e) => updateSlide({ background: e.currentTarget.value })}
                            error={problemAt('background', 'slide')}
                          />
                          {slide.type === 'video' && (
                            <TextInput
                              label={t('stories.slide.preview')}
                              value={slide.preview}
                              disabled={readOnly}
                              onChange={(e) => updateSlide({ preview: e.currentTarget.value })}
                              error={problemAt('preview', 'slide')}
                            />
                          )}
                          {slide.elements.map((element, i) => (
                            <ElementFields
                              key={i}
                              n={i + 1}
                              element={element}
                              readOnly={readOnly}
                              problem={
                                here?.element === i && here.slide === slideAt && refused
                                  ? { field: here.field, message: refused.message }
                                  : undefined
                              }
                              onChange={(next) => updateSlide({ elements: slide.elements.map((e, j) => (j === i ? next : e)) })}
                              onRemove={() => updateSlide({ elements: slide.elements.filter((_, j) => j !== i) })}
                            />
                          ))}
                          {!readOnly && slide.elements.length < 10 && (
                            <AddElement onAdd={(type) => updateSlide({ elements: [...slide.elements, newElement(type)] })} />
                          )}
                          {!readOnly && story.slides.length > 1 && (
                            <Group>
                              <Button
                                variant="subtle"
                                color="red"
                                size="xs"
                                onClick={() => {
                                  updateStory({ slides: story.slides.filter((_, i) => i !== slideAt) });
                                  setSlideAt(Math.max(0, slideAt - 1));
                                }}
                              >
                                {t('stories.slide.remove')}
                              </Button>
                            </Group>
                          )}
                        </Stack>
                      </Fieldset>
                    )}
                  </Stack>
                </Fieldset>
              )}
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 4 }}>
            <div style={{ position: 'sticky', top: 16 }}>
              <PhonePreview stories={stories} story={story} slide={slide} settings={settings} />
            </div>
          </Grid.Col>
        </Grid>
        {!readOnly && (
          <Group>
            <Button type="submit" loading={save.isPending}>
              {set ? t('stories.form.save') : t('stories.form.create')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}

function AddElement({ onAdd }: { readonly onAdd: (type: ElementType) => void }) {
  const { t } = useI18n();
  const [type, setType] = useState<ElementType>('button');
  return (
    <Group align="flex-end">
      <NativeSelect
        label={t('stories.element.newType')}
        value={type}
        data={ELEMENT_TYPES.map((value) => ({ value, label: t(`stories.elementType.${value}`) }))}
        onChange={(e) => setType(e.currentTarget.value as ElementType)}
      />
      <Button variant="light" onClick={() => onAdd(type)}>
        {t('stories.element.add')}
      </Button>
    </Group>
  );
}

function FiguresLine({ figures }: { readonly figures?: { readonly views: number; readonly clicks: number } }) {
  const { t } = useI18n();
  return (
    <Group gap="xs">
      <Text size="sm">{t('stories.figures.devices')}</Text>
      <Badge variant="light" color="blue">
        {t('stories.figures.views', { n: figures?.views ?? 0 })}
      </Badge>
      <Badge variant="light" color="grape">
        {t('stories.figures.clicks', { n: figures?.clicks ?? 0 })}
      </Badge>
    </Group>
  );
}
