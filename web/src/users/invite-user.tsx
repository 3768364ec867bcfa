import { Alert, Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, ApiError, unwrap } from '../api/client';
import { useI18n } from '../i18n/i18n';
import { formFailure } from '../ui/form-errors';
import { CopyOnce } from './copy-once';
import { RoleShopsFields } from './role-shops-fields';
import { userKeys, type UserRole } from './users.queries';

const FIELDS = ['email', 'role', 'shops'] as const;

/** Invites a user (POST /admin/v1/users without a password): the answer's link is shown once, to pass on. */
export function InviteUser() {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [opened, setOpened] = useState(false);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<UserRole>('marketer');
  const [shops, setShops] = useState<string[] | null>(null);
  const [link, setLink] = useState<{ email: string; url: string } | null>(null);
  const invite = useMutation({
    mutationFn: () => unwrap(api.POST('/admin/v1/users', { body: { email: email.trim(), role, shops } })),
    onSuccess: (answer) => {
      setLink({ email: answer.email, url: answer.invite_url ?? '' });
      setOpened(false);
      setEmail('');
      void queryClient.invalidateQueries({ queryKey: userKeys.all });
    },
  });
  const taken = invite.error instanceof ApiError && invite.error.status === 409;
  const failure = taken ? {} : formFailure(invite.error, FIELDS, t);
  const fieldError = (field: (typeof FIELDS)[number]) => (failure.field?.name === field ? failure.field.message : undefined);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate();
  };
  return (
    <Stack gap="sm">
      <Group>
        <Button
          onClick={() => {
            invite.reset();
            setLink(null);
            setOpened(true);
          }}
        >
          {t('people.invite.open')}
        </Button>
      </Group>
      {link && <CopyOnce label={t('people.invite.linkTitle', { email: link.email })} value={link.url} testId="invite-url" />}
      <Modal
        opened={opened}
        onClose={() => setOpened(false)}
        title={t('people.invite.title')}
        centered
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            {failure.form && (
              <Alert color="red" role="alert">
                {failure.form}
              </Alert>
            )}
            <TextInput
              label={t('people.email')}
              type="email"
              required
              maxLength={254}
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              error={taken ? t('people.invite.taken') : fieldError('email')}
            />
            <RoleShopsFields
              role={role}
              shops={shops}
              onRole={setRole}
              onShops={setShops}
              errors={{ role: fieldError('role'), shops: fieldError('shops') }}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setOpened(false)}>
                {t('people.cancel')}
              </Button>
              <Button type="submit" loading={invite.isPending}>
                {t('people.invite.submit')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Stack>
  );
}
