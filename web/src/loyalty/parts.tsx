import { Alert, Badge, Button, Group } from '@mantine/core';
import { useI18n } from '../i18n/i18n';

/** "Load more" under a keyset-paged list: shown while the server says there is a next page. */
export function LoadMore({
  hasMore,
  loading,
  onClick,
}: {
  readonly hasMore: boolean;
  readonly loading: boolean;
  readonly onClick: () => void;
}) {
  const { t } = useI18n();
  if (!hasMore) return null;
  return (
    <Group justify="center">
      <Button variant="default" loading={loading} onClick={onClick}>
        {t('loyalty.loadMore')}
      </Button>
    </Group>
  );
}

export function FormAlert({ message }: { readonly message: string | undefined }) {
  if (!message) return null;
  return (
    <Alert color="red" role="alert">
      {message}
    </Alert>
  );
}

export function Saved({ shown, children }: { readonly shown: boolean; readonly children: string }) {
  if (!shown) return null;
  return (
    <Alert color="green" role="status">
      {children}
    </Alert>
  );
}

const STATUS_COLOURS: Readonly<Record<string, string>> = {
  active: 'green',
  scheduled: 'blue',
  draft: 'gray',
  inactive: 'gray',
  archived: 'dark',
  pending: 'yellow',
  confirmed: 'green',
  cancelled: 'gray',
  spent: 'gray',
  expired: 'red',
};

export function StatusBadge({ status, label }: { readonly status: string; readonly label: string }) {
  return (
    <Badge variant="dot" color={STATUS_COLOURS[status] ?? 'gray'}>
      {label}
    </Badge>
  );
}
