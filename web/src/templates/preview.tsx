import { Box, Paper, SegmentedControl, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useI18n } from '../i18n/i18n';
import type { Channel } from './templates';

const WIDTHS = { desktop: 640, mobile: 375 } as const;

/**
 * One channel's rendered fields as its recipient would see them: an email's HTML in a
 * sandboxed frame with no script rights (`sandbox=""`, `srcdoc`) at desktop or mobile
 * width, a push in a phone frame, a message as a bubble. Every value is shown as text but
 * the email's HTML, which never enters the app's own document.
 */
export function RenderedPreview({ channel, rendered }: { readonly channel: Channel; readonly rendered: Readonly<Record<string, string>> }) {
  if (channel === 'email') return <EmailPreview rendered={rendered} />;
  if (channel === 'mobile_push' || channel === 'web_push') return <PushPreview rendered={rendered} />;
  return <Bubble text={rendered.body ?? rendered.text ?? ''} />;
}

function EmailPreview({ rendered }: { readonly rendered: Readonly<Record<string, string>> }) {
  const { t } = useI18n();
  const [view, setView] = useState<'desktop' | 'mobile' | 'text'>('desktop');
  return (
    <Stack gap="xs">
      <Text size="sm">
        <Text span fw={700}>
          {t('templates.preview.subject')}
        </Text>{' '}
        <span data-testid="preview-subject">{rendered.subject ?? ''}</span>
      </Text>
      <SegmentedControl
        aria-label={t('templates.preview.width')}
        value={view}
        onChange={(v) => setView(v)}
        data={[
          { value: 'desktop', label: t('templates.preview.desktop') },
          { value: 'mobile', label: t('templates.preview.mobile') },
          { value: 'text', label: t('templates.preview.text') },
        ]}
      />
      {view === 'text' ? (
        <Paper withBorder p="sm">
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {rendered.text ?? ''}
          </Text>
        </Paper>
      ) : (
        <Box>
          <iframe
            title={t('templates.preview.frame')}
            sandbox=""
            srcDoc={rendered.html ?? ''}
            style={{
              // The desktop width where the panel has room for it; a phone's always.
              width: view === 'mobile' ? WIDTHS.mobile : '100%',
              maxWidth: WIDTHS[view],
              height: 520,
              border: '1px solid #ced4da',
              background: 'white',
            }}
          />
        </Box>
      )}
    </Stack>
  );
}

function PushPreview({ rendered }: { readonly rendered: Readonly<Record<string, string>> }) {
  const { t } = useI18n();
  return (
    <Box
      aria-label={t('templates.preview.phone')}
      role="figure"
      style={{ width: 300, minHeight: 420, borderRadius: 32, border: '10px solid #25262b', background: '#e9ecef', padding: 12 }}
    >
      <Paper shadow="sm" radius="md" p="sm" data-testid="push-card">
        <Text size="sm" fw={700} style={{ overflowWrap: 'anywhere' }}>
          {rendered.title ?? ''}
        </Text>
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {rendered.body ?? ''}
        </Text>
        {rendered.url && (
          <Text size="xs" c="gray.7" style={{ overflowWrap: 'anywhere' }}>
            {rendered.url}
          </Text>
        )}
      </Paper>
    </Box>
  );
}

function Bubble({ text }: { readonly text: string }) {
  return (
    <Box style={{ maxWidth: 360 }}>
      <Paper radius="lg" p="sm" bg="blue.0" withBorder data-testid="message-bubble">
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {text}
        </Text>
      </Paper>
    </Box>
  );
}
