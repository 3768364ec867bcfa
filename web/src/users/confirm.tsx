import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { ApiError } from '../api/client';
import { useI18n, type Translate } from '../i18n/i18n';
import { describeFailure } from '../ui/states';

/** A destructive action asked once more, with the server's refusal (a 403, the last owner's 409) in words. */
export function Confirm({
  opened,
  title,
  text,
  confirmLabel,
  pending,
  error,
  onConfirm,
  onCancel,
}: {
  readonly opened: boolean;
  readonly title: string;
  readonly text: string;
  readonly confirmLabel: string;
  readonly pending: boolean;
  readonly error: unknown;
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
}) {
  const { t } = useI18n();
  return (
    <Modal opened={opened} onClose={onCancel} title={title} centered closeButtonProps={{ 'aria-label': t('common.close') }}>
      <Stack>
        <Text>{text}</Text>
        {error !== null && error !== undefined && (
          <Alert color="red" role="alert">
            {describePeopleFailure(error, t)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('people.cancel')}
          </Button>
          <Button color="red" loading={pending} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** describeFailure, plus the one conflict of this section: the last owner cannot be demoted, disabled or removed. */
export function describePeopleFailure(error: unknown, t: Translate): string {
  if (error instanceof ApiError && error.status === 409 && /owner/i.test(error.message)) return t('people.lastOwner');
  return describeFailure(error, t);
}
