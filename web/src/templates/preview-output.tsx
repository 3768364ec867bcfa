import { Alert, List, Paper, Stack, Text } from '@mantine/core';
import { ApiError } from '../api/client';
import { channelName } from '../dashboards/names';
import type { MessageKey } from '../i18n/en';
import { useI18n } from '../i18n/i18n';
import { describeFailure, Loading } from '../ui/states';
import { lineMessage } from './channel-fields';
import { RenderedPreview } from './preview';
import { parseFieldPath, type Channel, type FieldError, type Variant } from './templates';
import type { useTemplatePreview } from './templates.queries';

/** The preview's answer: for whom and in which locale it rendered, and the channel as its recipient sees it. */
export function PreviewOutput({
  channel,
  request,
  preview,
  variant,
}: {
  readonly channel: Channel;
  readonly request: unknown;
  readonly preview: ReturnType<typeof useTemplatePreview>;
  readonly variant: Variant;
}) {
  const { t } = useI18n();
  if (request === undefined) return <Text c="gray.7">{t('templates.preview.nothing')}</Text>;
  if (preview.isPending) return <Loading />;
  if (preview.isError) {
    const error = preview.error;
    const message = error instanceof ApiError && error.status === 429 ? t('templates.preview.busy') : describeFailure(error, t);
    return (
      <Alert color="red" role="alert" title={message}>
        {null}
      </Alert>
    );
  }
  const answer = preview.data;
  return (
    <Stack gap="xs" aria-busy={preview.isFetching}>
      <Text size="sm" c="gray.7" aria-live="polite">
        {answer.profile.source === 'customer'
          ? t('templates.preview.withCustomer', { id: answer.profile.id ?? '' })
          : t('templates.preview.withSample')}
        {' · '}
        {answer.locale === null ? t('templates.preview.localeDefault') : t('templates.preview.locale', { tag: answer.locale })}
        {variant !== null && answer.locale !== variant ? ` ${t('templates.preview.localeOther')}` : ''}
      </Text>
      {answer.rendered === null ? (
        <Alert color="red" title={t('templates.preview.notRendered')}>
          {t('templates.preview.notRenderedHint')}
        </Alert>
      ) : (
        <Paper withBorder p="sm" data-testid="preview">
          <RenderedPreview channel={channel} rendered={answer.rendered} />
        </Paper>
      )}
    </Stack>
  );
}

/** Every error of the templates, each named by channel, field and locale. */
export function ErrorList({ errors }: { readonly errors: readonly FieldError[] }) {
  const { t } = useI18n();
  if (errors.length === 0) return null;
  return (
    <Alert color="red" title={t('templates.errors.title', { count: errors.length })} data-testid="template-errors">
      <List size="sm">
        {errors.map((e) => {
          const ref = parseFieldPath(e.name);
          const where = ref
            ? t('templates.errors.where', {
                channel: channelName(t, ref.channel),
                field: t(`templates.field.${ref.field}` as MessageKey),
                locale: ref.variant ?? t('templates.locale.default'),
              })
            : e.name;
          return (
            <List.Item key={`${e.name}:${e.line ?? 0}:${e.message}`}>
              {where}: {lineMessage(t, e)}
            </List.Item>
          );
        })}
      </List>
    </Alert>
  );
}
