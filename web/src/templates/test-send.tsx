import { Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { ApiError } from '../api/client';
import type { MessageKey } from '../i18n/en';
import { useI18n } from '../i18n/i18n';
import { describeFailure } from '../ui/states';
import { channelTemplate, type Channel, type MailingTemplates } from './templates';
import { useTemplateTest } from './templates.queries';

/** A test send of the channel's template (POST …/templates/test) to an address the user types, or a customer's devices for push. */
export function TestSend({
  shopId,
  value,
  channel,
  profileId,
  variables,
}: {
  readonly shopId: string;
  readonly value: MailingTemplates;
  readonly channel: Channel;
  readonly profileId: number | null;
  readonly variables: Record<string, unknown>;
}) {
  const { t } = useI18n();
  const test = useTemplateTest(shopId);
  const [to, setTo] = useState('');
  const toDevices = channel === 'mobile_push' || channel === 'web_push' || channel === 'wallet';
  const addressKey = channel === 'email' ? 'email' : channel === 'telegram' ? 'telegram' : 'phone';
  const send = () =>
    test.mutate({
      channel,
      template: value,
      ...(!toDevices && { to: to.trim() }),
      ...(profileId !== null && { profile_id: profileId }),
      ...(Object.keys(variables).length > 0 && { variables }),
    });
  const failure = test.isError
    ? test.error instanceof ApiError && test.error.status === 429
      ? t('templates.test.tooMany')
      : describeFailure(test.error, t)
    : null;
  return (
    <Stack gap="xs" component="section" aria-label={t('templates.test.title')}>
      <Title order={3} size="h4">
        {t('templates.test.title')}
      </Title>
      {toDevices ? (
        <Text size="sm">{profileId === null ? t('templates.test.devicesNeedCustomer') : t('templates.test.devices')}</Text>
      ) : (
        <TextInput
          label={t(`templates.test.to.${addressKey}` as MessageKey)}
          value={to}
          onChange={(e) => {
            setTo(e.currentTarget.value);
            test.reset();
          }}
          error={failure}
        />
      )}
      <Group>
        <Button
          variant="default"
          onClick={send}
          loading={test.isPending}
          disabled={channelTemplate(value, null, channel) === undefined || (toDevices ? profileId === null : to.trim() === '')}
        >
          {t('templates.test.send')}
        </Button>
        {test.isSuccess && (
          <Text size="sm" role="status">
            {t('templates.test.sent', { code: test.data.code })}
          </Text>
        )}
        {toDevices && failure && (
          <Text size="sm" c="red.9" role="alert">
            {failure}
          </Text>
        )}
      </Group>
    </Stack>
  );
}
