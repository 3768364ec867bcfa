import { Box, Text } from '@mantine/core';
import type { CSSProperties } from 'react';
import { useI18n } from '../i18n/i18n';
import { DEFAULT_COLOURS, type StorySettings } from './settings-fields';
import type { StoryElement } from './stories.queries';
import type { SlideDraft, StoryDraft } from './story-draft';

const SCREEN: CSSProperties = {
  position: 'relative',
  width: 260,
  height: 462,
  borderRadius: 28,
  border: '10px solid #1f2328',
  background: '#000000',
  overflow: 'hidden',
  color: '#ffffff',
};

/**
 * A phone-shaped sketch of the chosen slide as the apps lay it out: the row of story
 * avatars, the slide's picture (a video's preview), and its elements at their `y_offset`.
 * Products show their offer ids: the apps read them from the feed when they load.
 */
export function PhonePreview({
  stories,
  story,
  slide,
  settings,
}: {
  readonly stories: readonly StoryDraft[];
  readonly story?: StoryDraft;
  readonly slide?: SlideDraft;
  readonly settings: StorySettings;
}) {
  const { t } = useI18n();
  const colour = (key: keyof typeof DEFAULT_COLOURS) => {
    const given = settings[key];
    return given !== undefined && /^#[0-9a-f]{3,8}$/i.test(given) ? given : DEFAULT_COLOURS[key];
  };
  const slides = story?.slides ?? [];
  const picture = slide ? (slide.type === 'video' ? slide.preview : slide.background) : '';
  return (
    <Box component="figure" m={0} aria-label={t('stories.preview.label')}>
      <div style={SCREEN}>
        {picture !== '' && (
          <img src={picture} alt="" style={{ position: 'absolute', inset: 0, width: '100%', height: '100%', objectFit: 'cover' }} />
        )}
        <div style={{ position: 'absolute', top: 4, left: 8, right: 8, display: 'flex', gap: 3 }}>
          {slides.map((s) => (
            <div key={s.key} style={{ flex: 1, height: 2, background: colour('background_progress'), opacity: s === slide ? 1 : 0.5 }} />
          ))}
        </div>
        <span aria-hidden style={{ position: 'absolute', top: 10, right: 10, color: colour('close_color'), fontSize: 16, lineHeight: 1 }}>
          ×
        </span>
        <div style={{ position: 'absolute', top: 14, left: 8, right: 28, display: 'flex', gap: 6, overflow: 'hidden' }}>
          {stories.map((s) => (
            <div key={s.key} style={{ textAlign: 'center', width: 44, flex: 'none' }}>
              <div
                style={{
                  width: 36,
                  height: 36,
                  margin: '0 auto',
                  borderRadius: '50%',
                  border: `2px solid ${s === story ? colour('border_not_viewed') : colour('border_viewed')}`,
                  background: s.avatar ? `center / cover url("${encodeURI(s.avatar)}")` : '#495057',
                }}
              />
              <span style={{ fontSize: 10, display: 'block', overflow: 'hidden', whiteSpace: 'nowrap', background: '#000000' }}>
                {s.name}
              </span>
            </div>
          ))}
        </div>
        {slide?.type === 'video' && picture === '' && (
          <Text c="#ffffff" ta="center" mt={200} size="sm">
            {t('stories.preview.video')}
          </Text>
        )}
        {slide?.elements.map((element, i) => (
          <PreviewElement key={i} element={element} />
        ))}
      </div>
      <Text component="figcaption" size="xs" c="dimmed" mt={4}>
        {slide ? t('stories.preview.caption', { seconds: slide.duration }) : t('stories.preview.empty')}
      </Text>
    </Box>
  );
}

function PreviewElement({ element }: { readonly element: StoryElement }) {
  const { t } = useI18n();
  const top = `${Math.min(90, Math.max(0, element.y_offset ?? defaultOffset(element.type)))}%`;
  const place: CSSProperties = { position: 'absolute', left: 12, right: 12, top };
  switch (element.type) {
    case 'button':
      return (
        <div
          style={{
            ...place,
            textAlign: 'center',
            padding: '8px 0',
            borderRadius: Math.min(element.corner_radius ?? 12, 24),
            background: element.background ?? '#ffffff',
            color: element.color ?? '#000000',
            fontWeight: element.text_bold ? 700 : 500,
            fontSize: 14,
          }}
        >
          {element.title}
        </div>
      );
    case 'header':
      return (
        <div style={{ ...place, background: '#000000', padding: 4 }}>
          <strong style={{ fontSize: 14 }}>{element.title}</strong>
          {element.subtitle && <div style={{ fontSize: 11 }}>{element.subtitle}</div>}
        </div>
      );
    case 'text_block':
      return (
        <div
          style={{
            ...place,
            color: element.text_color ?? '#ffffff',
            background: element.text_background_color ?? '#000000',
            fontSize: Math.min(element.font_size ?? 14, 28),
            fontWeight: element.bold ? 700 : 400,
            fontStyle: element.italic ? 'italic' : 'normal',
            textAlign: (element.text_align as CSSProperties['textAlign']) ?? 'left',
            lineHeight: element.text_line_spacing ?? 1.5,
            whiteSpace: 'pre-wrap',
            padding: 4,
          }}
        >
          {element.text_input}
        </div>
      );
    case 'products':
      return (
        <div style={{ ...place, display: 'flex', gap: 6, overflow: 'hidden' }}>
          {(element.item_ids ?? []).map((id) => (
            <div key={id} style={{ flex: 'none', background: '#ffffff', color: '#000000', borderRadius: 8, padding: 6, fontSize: 11 }}>
              {t('stories.preview.product', { id })}
            </div>
          ))}
        </div>
      );
    case 'product':
      return (
        <div style={{ ...place, background: '#ffffff', color: '#000000', borderRadius: 8, padding: 8, fontSize: 12 }}>
          {t('stories.preview.product', { id: element.item_id ?? '' })}
          {element.promocode && <div style={{ fontWeight: 700 }}>{element.promocode}</div>}
        </div>
      );
  }
}

/** Where an element stands when no y_offset was given: buttons and products low, text high. */
function defaultOffset(type: StoryElement['type']): number {
  return type === 'button' || type === 'products' || type === 'product' ? 80 : 20;
}
