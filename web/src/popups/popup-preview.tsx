import { Box, Group, Image, Stack, Text } from '@mantine/core';
import type { CSSProperties } from 'react';
import { useI18n } from '../i18n/i18n';
import type { PopupDraft } from './popup-draft';

const FRAME = { width: 280, height: 480 };

/** Where the card sits in the phone for each position (docs/popups.md). */
const PLACES: Record<PopupDraft['position'], CSSProperties> = {
  centered: { top: '50%', left: 16, right: 16, transform: 'translateY(-50%)' },
  top: { top: 16, left: 16, right: 16 },
  fixed_bottom: { bottom: 16, left: 16, right: 16 },
  slide_right: { bottom: 16, right: 8, width: '75%' },
  slide_left: { bottom: 16, left: 8, width: '75%' },
};

/**
 * A phone-sized sketch of the popup as it is being typed: the card at its position, the
 * HTML in a sandboxed frame that runs nothing (sandbox with no permissions: no script,
 * no forms, no access to this page), else the components, and the buttons of the actions.
 */
export function PopupPreview({ draft }: { readonly draft: PopupDraft }) {
  const { t } = useI18n();
  const buttons = [draft.pushText || draft.linkText, draft.closeText].filter((label) => label.trim() !== '');
  return (
    <Box
      role="figure"
      aria-label={t('popups.preview.label', { position: t(`popups.position.${draft.position}`) })}
      pos="relative"
      w={FRAME.width}
      h={FRAME.height}
      bg="gray.1"
      style={{ borderRadius: 24, border: '8px solid var(--mantine-color-gray-7)', overflow: 'hidden' }}
    >
      <Box pos="absolute" bg="white" p="sm" style={{ ...PLACES[draft.position], borderRadius: 12, boxShadow: '0 4px 16px rgba(0,0,0,.2)' }}>
        <Stack gap={6}>
          {draft.html.trim() !== '' ? (
            <iframe title={t('popups.preview.html')} sandbox="" srcDoc={draft.html} style={{ border: 0, width: '100%', height: 160 }} />
          ) : (
            <>
              {draft.image.trim() !== '' && <Image src={draft.image} alt="" h={80} fit="cover" radius="sm" />}
              {draft.header.trim() !== '' && (
                <Text fw={700} ta="center">
                  {draft.header}
                </Text>
              )}
              {draft.text.trim() !== '' && (
                <Text size="sm" c="gray.7" ta="center">
                  {draft.text}
                </Text>
              )}
            </>
          )}
          {buttons.length > 0 && (
            <Group grow gap={6}>
              {buttons.map((label, i) => (
                <Text
                  key={i}
                  size="xs"
                  ta="center"
                  py={4}
                  c={i === 0 ? 'white' : 'dark'}
                  bg={i === 0 ? 'blue.8' : 'gray.2'}
                  style={{ borderRadius: 4 }}
                >
                  {label}
                </Text>
              ))}
            </Group>
          )}
        </Stack>
      </Box>
    </Box>
  );
}
