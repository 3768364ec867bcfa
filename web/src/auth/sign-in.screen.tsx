import { Alert, Button, Center, Paper, PasswordInput, SegmentedControl, Stack, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../api/client';
import { LANGUAGES, useI18n, type Translate } from '../i18n/i18n';
import { formFailure } from '../ui/form-errors';
import { safeNextPath } from './next-path';
import { SESSION_KEY, signIn, useSession } from './session';

function signInFailure(error: unknown, t: Translate) {
  if (error instanceof ApiError && error.status === 401) return { form: t('auth.signIn.wrong') };
  if (error instanceof ApiError && error.status === 429) return { form: t('auth.signIn.tooMany') };
  return formFailure(error, ['email', 'password'] as const, t);
}

export function SignInScreen() {
  const { t } = useI18n();
  const [params] = useSearchParams();
  const next = safeNextPath(params.get('next'));
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const session = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const mutation = useMutation({
    mutationFn: () => signIn(email.trim(), password),
    onSuccess: (answer) => {
      queryClient.setQueryData(SESSION_KEY, answer);
      void navigate(next, { replace: true });
    },
  });
  useEffect(() => {
    document.title = `${t('auth.signIn.title')} · Patron`;
  }, [t]);
  if (session.data && !mutation.isPending && !mutation.isSuccess) return <Navigate to={next} replace />;

  const failure = signInFailure(mutation.error, t);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    mutation.mutate();
  };
  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder p="xl" w={380} maw="100%">
        <form onSubmit={submit} noValidate>
          <Stack>
            <Title order={1} size="h3">
              {t('auth.signIn.title')}
            </Title>
            {failure.form && (
              <Alert color="red" role="alert">
                {failure.form}
              </Alert>
            )}
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
            <PasswordInput
              visibilityToggleButtonProps={{ 'aria-label': t('auth.showPassword') }}
              label={t('auth.signIn.password')}
              autoComplete="current-password"
              required
              maxLength={1024}
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              error={failure.field?.name === 'password' ? failure.field.message : undefined}
            />
            <Button type="submit" loading={mutation.isPending}>
              {t('auth.signIn.submit')}
            </Button>
            <LanguageSwitch />
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}

export function LanguageSwitch() {
  const { t, language, setLanguage } = useI18n();
  return (
    <SegmentedControl
      aria-label={t('lang.label')}
      size="xs"
      value={language}
      onChange={(value) => setLanguage(value === 'ru' ? 'ru' : 'en')}
      data={LANGUAGES.map((code) => ({ value: code, label: t(`lang.${code}`) }))}
    />
  );
}
