import { Alert, Button, FileInput, Group, Paper, Select, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useInfiniteQuery, useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { api, unwrap } from '../api/client';
import { formatDateTime } from '../i18n/format';
import { useI18n } from '../i18n/i18n';
import { useShop } from '../shops/shop.queries';
import { formFailure } from '../ui/form-errors';
import { Page } from '../ui/page';
import { Empty, Failure, Loading } from '../ui/states';
import { customerKeys, useSegments, type AudienceImport, type AudienceImportsPage as ImportsPage } from './customers.queries';
import { LoadMore } from './load-more';
import { ImportReport, ImportStatus } from './import-report';

/** The upload's bound (POST …/imports): 16 MiB. Checked here too, to say so before sending. */
const MAX_BYTES = 16 * 1024 * 1024;
/** How often the log is read again while an import is queued or running. */
const POLL_MS = 1000;
/** Imports a page of the log holds. */
const IMPORTS_PAGE = 20;

const isRunning = (entry: AudienceImport) => entry.status === 'queued' || entry.status === 'running';

/**
 * Audience import: a CSV file uploaded (POST …/imports, text/csv, the format of `patron
 * import audience`), its progress polled from the import log while it runs, then its
 * report; below, the shop's imports, newest first, a keyset page at a time.
 */
export function ImportsScreen() {
  const { t, language } = useI18n();
  const shopId = useParams().shopId ?? '';
  const shop = useShop(shopId);
  const [uploadedId, setUploadedId] = useState<number | null>(null);
  const imports = useInfiniteQuery({
    queryKey: customerKeys.imports(shopId),
    initialPageParam: undefined as number | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/admin/v1/shops/{shop_id}/imports', {
          params: { path: { shop_id: shopId }, query: { limit: IMPORTS_PAGE, ...(pageParam === undefined ? {} : { before: pageParam }) } },
        }),
      ),
    getNextPageParam: (last) => last.next_before ?? undefined,
    refetchInterval: (query) => (query.state.data?.pages[0]?.imports.some(isRunning) ? POLL_MS : false),
  });
  const list = imports.data?.pages.flatMap((page) => page.imports) ?? [];
  const uploaded = uploadedId === null ? undefined : list.find((entry) => entry.id === uploadedId);

  return (
    <Page title={t('customers.imports.title')} hint={t('customers.imports.hint')}>
      <Upload shopId={shopId} onUploaded={setUploadedId} />
      {uploaded && shop.data && (
        <Paper withBorder p="md" component="section" aria-label={t('customers.imports.current')}>
          <ImportReport entry={uploaded} shop={shop.data} />
        </Paper>
      )}
      {(imports.isPending || shop.isPending) && <Loading />}
      {imports.isError && !imports.isFetchNextPageError && <Failure error={imports.error} onRetry={() => void imports.refetch()} />}
      {shop.isError && <Failure error={shop.error} onRetry={() => void shop.refetch()} />}
      {imports.isSuccess && list.length === 0 && <Empty>{t('customers.imports.empty')}</Empty>}
      {shop.data && list.length > 0 && (
        <Table.ScrollContainer minWidth={720}>
          <Table striped aria-label={t('customers.imports.log')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('customers.imports.id')}</Table.Th>
                <Table.Th scope="col">{t('customers.imports.created')}</Table.Th>
                <Table.Th scope="col">{t('customers.imports.status')}</Table.Th>
                <Table.Th scope="col">{t('customers.imports.received')}</Table.Th>
                <Table.Th scope="col">{t('customers.imports.imported')}</Table.Th>
                <Table.Th scope="col">{t('customers.imports.skipped')}</Table.Th>
                <Table.Th scope="col">{t('customers.imports.segment')}</Table.Th>
                <Table.Th scope="col">
                  <VisuallyHidden>{t('customers.imports.report')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((entry) => (
                <Table.Tr key={entry.id}>
                  <Table.Td>{entry.id}</Table.Td>
                  <Table.Td>{formatDateTime(entry.created_at, shop.data, language)}</Table.Td>
                  <Table.Td>
                    <ImportStatus status={entry.status} />
                  </Table.Td>
                  <Table.Td>{entry.received}</Table.Td>
                  <Table.Td>{entry.imported}</Table.Td>
                  <Table.Td>{entry.skipped}</Table.Td>
                  <Table.Td>{entry.segment_id ?? t('common.none')}</Table.Td>
                  <Table.Td>
                    <Button
                      size="xs"
                      variant="subtle"
                      onClick={() => setUploadedId(entry.id)}
                      aria-label={t('customers.imports.showReport', { id: entry.id })}
                    >
                      {t('customers.imports.report')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <LoadMore query={imports} />
    </Page>
  );
}

function Upload({ shopId, onUploaded }: { readonly shopId: string; readonly onUploaded: (id: number) => void }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const segments = useSegments(shopId);
  const [params] = useSearchParams();
  const [file, setFile] = useState<File | null>(null);
  const [segment, setSegment] = useState<string | null>(params.get('segment'));
  const [tooLarge, setTooLarge] = useState(false);
  const upload = useMutation({
    mutationFn: async (chosen: File) =>
      unwrap(
        api.POST('/admin/v1/shops/{shop_id}/imports', {
          params: { path: { shop_id: shopId }, query: segment === null ? {} : { segment_id: Number(segment) } },
          body: await chosen.text(),
          bodySerializer: (body) => body,
          headers: { 'Content-Type': 'text/csv' },
        }),
      ),
    onSuccess: (entry) => {
      // The new import at the head of the first page at once, so its report shows while the list is asked again.
      queryClient.setQueryData(customerKeys.imports(shopId), (old: InfiniteData<ImportsPage, number | undefined> | undefined) =>
        old === undefined
          ? old
          : {
              ...old,
              pages: old.pages.map((page, i) =>
                i === 0 ? { ...page, imports: [entry, ...page.imports.filter((e) => e.id !== entry.id)] } : page,
              ),
            },
      );
      void queryClient.invalidateQueries({ queryKey: customerKeys.imports(shopId) });
      onUploaded(entry.id);
      setFile(null);
    },
  });
  const failure = formFailure(upload.error, ['file', 'segment_id'] as const, t);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (file === null) return;
    setTooLarge(file.size > MAX_BYTES);
    if (file.size > MAX_BYTES) return;
    upload.mutate(file);
  };
  const fileError = tooLarge ? t('customers.imports.tooLarge') : failure.field?.name === 'file' ? failure.field.message : undefined;
  const segmentOptions = (segments.data?.segments ?? []).map((s) => ({ value: String(s.id), label: `${s.name} (#${s.id})` }));
  return (
    <Paper withBorder p="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {failure.form && (
            <Alert color="red" role="alert">
              {failure.form}
            </Alert>
          )}
          <Text size="sm">{t('customers.imports.format')}</Text>
          <Group align="flex-start" grow>
            <FileInput
              label={t('customers.imports.file')}
              placeholder={t('customers.imports.pick')}
              accept=".csv,text/csv"
              required
              clearable
              value={file}
              onChange={(chosen) => {
                setFile(chosen);
                setTooLarge(false);
                upload.reset();
              }}
              error={fileError}
            />
            <Select
              label={t('customers.imports.segment')}
              placeholder={t('customers.imports.noSegment')}
              data={segmentOptions}
              value={segment}
              onChange={setSegment}
              clearable
              error={failure.field?.name === 'segment_id' ? failure.field.message : undefined}
            />
          </Group>
          <Group>
            <Button type="submit" loading={upload.isPending} disabled={file === null}>
              {t('customers.imports.upload')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
