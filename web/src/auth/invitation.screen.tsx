import { Alert, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { ApiError } from '../api/client';
import { useI18n } from '../i18n/i18n';
import { formFailure } from '../ui/form-errors';
import { Failure, Loading } from '../ui/states';
import { LanguageSwitch } from './sign-in.screen';
import { acceptInvitation, readInvitation, SESSION_KEY, type Invitation } from './session';

/** /admin/invite/:token: the invited person sets a password (and types an email when the invitation has none). */
export function InvitationScreen() {
  const { t } = useI18n();
  const token = useParams().token ?? '';
  const invitation = useQuery({ queryKey: ['invitation', token], queryFn: () => readInvitation(token), retry: false });
  useEffect(() => {
    document.title = `${t('auth.invite.title')} · Patron`;
  }, [t]);
  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder p="xl" w={420} maw="100%">
        <Stack>
          <Title order={1} size="h3">
            {t('auth.invite.title')}
          </Title>
          {invitation.isPending && <Loading />}
          {invitation.isError &&
            (invitation.error instanceof ApiError && invitation.error.status === 404 ? (
              <Alert color="orange" role="alert">
                {t('auth.invite.gone')}
              </Alert>
            ) : (
              <Failure error={invitation.error} onRetry={() => void invitation.refetch()} />
            ))}
          {invitation.data && <InvitationForm token={token} invitation={invitation.data} />}
          <LanguageSwitch />
        </Stack>
      </Paper>
    </Center>
  );
}

function InvitationForm({ token, invitation }: { readonly token: string; readonly invitation: Invitation }) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const mutation = useMutation({
    mutationFn: () => acceptInvitation(token, invitation.email === null ? { email: email.trim(), password } : { password }),
    onSuccess: (answer) => {
      queryClient.setQueryData(SESSION_KEY, answer);
      void navigate('/', { replace: true });
    },
  });
  const failure = formFailure(mutation.error, ['email', 'password'] as const, t);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (password !== again) {
      setMismatch(true);
      return;
    }
    setMismatch(false);
    mutation.mutate();
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Text>{t('auth.invite.role', { role: t(`role.${invitation.role}`) })}</Text>
        {failure.form && (
          <Alert color="red" role="alert">
            {failure.form}
          </Alert>
        )}
        {invitation.email === null ? (
          <TextInput
            label={t('auth.signIn.email')}
            type="email"
            autoComplete="username"
            required
            maxLength={254}
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={failure.field?.name === 'email' ? failure.field.message : undefined}
          />
        ) : (
          <TextInput label={t('auth.signIn.email')} value={invitation.email} readOnly autoComplete="username" />
        )}
        <PasswordInput
          visibilityToggleButtonProps={{ 'aria-label': t('auth.showPassword') }}
          label={t('auth.signIn.password')}
          autoComplete="new-password"
          required
          maxLength={1024}
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          error={failure.field?.name === 'password' ? failure.field.message : undefined}
        />
        <PasswordInput
          visibilityToggleButtonProps={{ 'aria-label': t('auth.showPassword') }}
          label={t('auth.invite.passwordAgain')}
          autoComplete="new-password"
          required
          maxLength={1024}
          value={again}
          onChange={(e) => setAgain(e.currentTarget.value)}
          error={mismatch ? t('auth.invite.mismatch') : undefined}
        />
        <Button type="submit" loading={mutation.isPending}>
          {t('auth.invite.submit')}
        </Button>
      </Stack>
    </form>
  );
}
