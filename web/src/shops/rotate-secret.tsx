import { Alert, Button, Code, CopyButton, Group, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import { useI18n } from '../i18n/i18n';
import { describeFailure } from '../ui/states';

/** The secret is rotated only after a confirmation; the new one is shown once, in a dialog, and then forgotten. */
export function RotateSecret({ shopId }: { readonly shopId: string }) {
  const { t } = useI18n();
  const [confirming, setConfirming] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const rotate = useMutation({
    mutationFn: () => unwrap(api.POST('/admin/v1/shops/{shop_id}/secret', { params: { path: { shop_id: shopId } } })),
    onSuccess: (answer) => {
      setConfirming(false);
      setSecret(answer.shop_secret);
    },
  });
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('settings.secret.title')}
        </Title>
        <Text size="sm">{t('settings.secret.text')}</Text>
        <Group>
          <Button color="red" variant="outline" onClick={() => setConfirming(true)}>
            {t('settings.secret.rotate')}
          </Button>
        </Group>
      </Stack>
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={t('settings.secret.confirmTitle')}
        centered
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        <Stack>
          <Text>{t('settings.secret.confirmText')}</Text>
          {rotate.isError && (
            <Alert color="red" role="alert">
              {describeFailure(rotate.error, t)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t('settings.secret.cancel')}
            </Button>
            <Button color="red" loading={rotate.isPending} onClick={() => rotate.mutate()}>
              {t('settings.secret.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Modal
        opened={secret !== null}
        onClose={() => setSecret(null)}
        title={t('settings.secret.newTitle')}
        centered
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        <Stack>
          <Text>{t('settings.secret.newText')}</Text>
          <Code block data-testid="new-secret">
            {secret}
          </Code>
          <Group justify="flex-end">
            <CopyButton value={secret ?? ''}>
              {({ copied, copy }) => (
                <Button variant="default" onClick={copy}>
                  {copied ? t('integration.copied') : t('integration.copy')}
                </Button>
              )}
            </CopyButton>
            <Button onClick={() => setSecret(null)}>{t('settings.secret.done')}</Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}
