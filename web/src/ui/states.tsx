import { Alert, Button, Center, Loader, Stack, Text } from '@mantine/core';
import { ApiError } from '../api/client';
import { useI18n, type Translate } from '../i18n/i18n';

/** A failure in words a person can act on: no status codes, no stack traces. */
export function describeFailure(error: unknown, t: Translate): string {
  if (error instanceof ApiError) {
    if (error.status === 403) return t('error.forbidden');
    if (error.status === 404) return t('error.notFound');
    if (error.status >= 500) return t('error.generic');
    return t('error.server', { message: error.message });
  }
  if (error instanceof TypeError) return t('error.network');
  return t('error.generic');
}

export function Loading() {
  const { t } = useI18n();
  return (
    <Center py="xl" role="status" aria-live="polite">
      <Loader size="sm" aria-hidden />
      <Text ml="sm">{t('app.loading')}</Text>
    </Center>
  );
}

export function Failure({ error, onRetry }: { readonly error: unknown; readonly onRetry?: () => void }) {
  const { t } = useI18n();
  return (
    <Alert color="red" role="alert" title={describeFailure(error, t)}>
      {onRetry && (
        <Button variant="default" color="red" size="xs" onClick={onRetry}>
          {t('error.retry')}
        </Button>
      )}
    </Alert>
  );
}

export function Empty({ children }: { readonly children: string }) {
  return (
    <Stack py="lg" align="center">
      <Text c="dimmed">{children}</Text>
    </Stack>
  );
}

/** A failure beside the control that caused it (a delete, a download), in words. */
export function InlineFailure({ error }: { readonly error: unknown }) {
  const { t } = useI18n();
  return (
    <span role="alert" style={{ color: 'var(--mantine-color-red-9)' }}>
      {describeFailure(error, t)}
    </span>
  );
}

/**
 * A small red delete button that asks the browser's confirmation first, with its failure in
 * words beside it: the delete of one row of a list.
 */
export function ConfirmDelete({
  label,
  ariaLabel,
  confirm,
  mutation,
}: {
  readonly label: string;
  readonly ariaLabel: string;
  readonly confirm: string;
  readonly mutation: { readonly isError: boolean; readonly error: unknown; readonly isPending: boolean; readonly mutate: () => void };
}) {
  return (
    <>
      {mutation.isError && <InlineFailure error={mutation.error} />}
      <Button
        size="xs"
        color="red"
        variant="subtle"
        aria-label={ariaLabel}
        loading={mutation.isPending}
        onClick={() => {
          if (window.confirm(confirm)) mutation.mutate();
        }}
      >
        {label}
      </Button>
    </>
  );
}
