import { Alert, Badge, Button, Code, Group, Paper, Select, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { Fragment, useState, type FormEvent } from 'react';
import { ApiError } from '../api/client';
import { usePermissions } from '../auth/permissions';
import { useI18n } from '../i18n/i18n';
import { useShops } from '../shops/shop.queries';
import { Page } from '../ui/page';
import { Empty, Failure, Loading } from '../ui/states';
import { formatAt } from '../users/dates';
import { useUsers } from '../users/users.queries';
import { actionFilter, formatJson, useAuditLog, type AuditEntry, type AuditFilter } from './audit.queries';

/**
 * The audit log (docs/audit-log.md): newest first, filtered on the server by user, shop and
 * action, 50 entries a page with "Load more". An entry opens to its state before and after,
 * as JSON text. Times are in the entry's shop's zone, UTC for an entry of no shop.
 */
export function AuditScreen() {
  const { t, language } = useI18n();
  const shops = useShops();
  const [filter, setFilter] = useState<AuditFilter>({});
  const log = useAuditLog(filter);
  const [open, setOpen] = useState<number | null>(null);
  const zones = new Map((shops.data?.shops ?? []).map((shop) => [shop.shop_id, shop.timezone]));
  const names = new Map((shops.data?.shops ?? []).map((shop) => [shop.shop_id, shop.name]));
  const entries = log.data?.pages.flatMap((page) => page.items) ?? [];
  const badAction = log.error instanceof ApiError && log.error.status === 422;
  return (
    <Page title={t('people.audit.title')} hint={t('people.audit.hint')}>
      <Filters onApply={setFilter} actionError={badAction ? t('people.audit.badAction') : undefined} />
      {log.isPending && <Loading />}
      {log.isError && !badAction && <Failure error={log.error} onRetry={() => void log.refetch()} />}
      {log.isSuccess && entries.length === 0 && <Empty>{t('people.audit.empty')}</Empty>}
      {entries.length > 0 && (
        <Table.ScrollContainer minWidth={760}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('people.audit.at')}</Table.Th>
                <Table.Th scope="col">{t('people.audit.actor')}</Table.Th>
                <Table.Th scope="col">{t('people.audit.action')}</Table.Th>
                <Table.Th scope="col">{t('people.audit.shop')}</Table.Th>
                <Table.Th scope="col">{t('people.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {entries.map((entry) => (
                <Fragment key={entry.id}>
                  <Table.Tr>
                    <Table.Td>{formatAt(entry.at, entry.shop_id === null ? null : (zones.get(entry.shop_id) ?? null), language)}</Table.Td>
                    <Table.Td>
                      <Actor entry={entry} />
                    </Table.Td>
                    <Table.Td>
                      <Code>{entry.action}</Code>
                    </Table.Td>
                    <Table.Td>{entry.shop_id === null ? t('common.none') : (names.get(entry.shop_id) ?? entry.shop_id)}</Table.Td>
                    <Table.Td>
                      <Button
                        size="xs"
                        variant="default"
                        aria-expanded={open === entry.id}
                        aria-controls={`audit-${entry.id}`}
                        onClick={() => setOpen(open === entry.id ? null : entry.id)}
                      >
                        {open === entry.id ? t('people.audit.hide') : t('people.audit.show')}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                  {open === entry.id && (
                    <Table.Tr id={`audit-${entry.id}`}>
                      <Table.Td colSpan={5}>
                        <Details entry={entry} />
                      </Table.Td>
                    </Table.Tr>
                  )}
                </Fragment>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {log.hasNextPage && (
        <Group>
          <Button variant="default" loading={log.isFetchingNextPage} onClick={() => void log.fetchNextPage()}>
            {t('people.loadMore')}
          </Button>
        </Group>
      )}
      {log.isFetchNextPageError && (
        <Alert color="red" role="alert">
          {t('error.generic')}
        </Alert>
      )}
    </Page>
  );
}

function Actor({ entry }: { readonly entry: AuditEntry }) {
  const { t } = useI18n();
  if (entry.actor.kind === 'superuser') return <Text size="sm">{t('people.audit.superuser')}</Text>;
  return (
    <Group gap={4}>
      <Text size="sm">{entry.actor.email ?? `#${entry.actor.user_id ?? '?'}`}</Text>
      {entry.actor.via === 'token' && (
        <Badge size="xs" variant="default">
          {t('people.audit.viaToken')}
        </Badge>
      )}
    </Group>
  );
}

function Details({ entry }: { readonly entry: AuditEntry }) {
  const { t } = useI18n();
  return (
    <Stack gap="xs">
      <Text size="sm">
        <Code>
          {entry.method} {entry.path}
        </Code>{' '}
        → {entry.status} · {t('people.audit.ip')}: {entry.ip ?? t('common.none')}
      </Text>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <div>
          <Text size="sm" fw={600}>
            {t('people.audit.before')}
          </Text>
          <Code block mah={400} style={{ overflow: 'auto' }} tabIndex={0}>
            {formatJson(entry.before)}
          </Code>
        </div>
        <div>
          <Text size="sm" fw={600}>
            {t('people.audit.after')}
          </Text>
          <Code block mah={400} style={{ overflow: 'auto' }} tabIndex={0}>
            {formatJson(entry.after)}
          </Code>
        </div>
      </SimpleGrid>
    </Stack>
  );
}

function Filters({ onApply, actionError }: { readonly onApply: (filter: AuditFilter) => void; readonly actionError?: string }) {
  const { t } = useI18n();
  const can = usePermissions();
  const users = useUsers(can.manageUsers);
  const shops = useShops();
  const [userId, setUserId] = useState<string | null>(null);
  const [shopId, setShopId] = useState<string | null>(null);
  const [action, setAction] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply({
      ...(userId === null ? {} : { userId: Number(userId) }),
      ...(shopId === null ? {} : { shopId }),
      ...(actionFilter(action) === undefined ? {} : { action: actionFilter(action) }),
    });
  };
  return (
    <Paper withBorder p="md">
      <form onSubmit={submit} noValidate aria-label={t('people.audit.filters')}>
        <Group align="flex-start">
          <Select
            label={t('people.audit.user')}
            placeholder={t('people.audit.anyone')}
            data={(users.data?.items ?? []).map((u) => ({ value: String(u.id), label: u.email }))}
            value={userId}
            onChange={setUserId}
            searchable
            clearable
            w={260}
          />
          <Select
            label={t('people.audit.shop')}
            placeholder={t('people.audit.anyShop')}
            data={(shops.data?.shops ?? []).map((s) => ({ value: s.shop_id, label: s.name }))}
            value={shopId}
            onChange={setShopId}
            searchable
            clearable
            w={260}
          />
          <TextInput
            label={t('people.audit.action')}
            description={t('people.audit.actionHint')}
            maxLength={200}
            value={action}
            onChange={(e) => setAction(e.currentTarget.value)}
            error={actionError}
            w={260}
          />
          <Button type="submit" mt={24}>
            {t('people.audit.apply')}
          </Button>
        </Group>
      </form>
    </Paper>
  );
}
