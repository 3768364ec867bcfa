import { Alert, Button, FileInput, Group, Loader, NumberInput, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useParams } from 'react-router';
import { api, ApiError, unwrap } from '../api/client';
import { formatDateTime, type ShopLocale } from '../i18n/format';
import { useI18n } from '../i18n/i18n';
import { useShop } from '../shops/shop.queries';
import { formFailure } from '../ui/form-errors';
import { Page } from '../ui/page';
import { describeFailure, Failure, Loading } from '../ui/states';
import { catalogKeys, formatBytes, type FeedStatus } from './catalog.queries';
import { ImportLog } from './feed-imports';

/**
 * The shop's product feed (docs/catalog-import.md): what is served, the URL fetched on a
 * schedule, a file uploaded by hand, and the import log polled while an import runs.
 */
export function FeedScreen() {
  const { t } = useI18n();
  const shopId = useParams().shopId ?? '';
  const shop = useShop(shopId);
  const [uploading, setUploading] = useState(false);
  const feed = useQuery({
    queryKey: catalogKeys.feed(shopId),
    queryFn: () => unwrap(api.GET('/admin/v1/shops/{shop_id}/feed', { params: { path: { shop_id: shopId } } })),
  });
  return (
    <Page title={t('catalog.feed.title')} hint={t('catalog.feed.hint')}>
      {(feed.isPending || shop.isPending) && <Loading />}
      {feed.isError && <Failure error={feed.error} onRetry={() => void feed.refetch()} />}
      {shop.isError && <Failure error={shop.error} onRetry={() => void shop.refetch()} />}
      {feed.data && shop.data && (
        <>
          <Served feed={feed.data} shop={shop.data} />
          <FeedUpload shopId={shopId} onUploading={setUploading} />
          <FeedUrlForm key={`${feed.data.feed_url ?? ''}/${feed.data.refresh_minutes}`} shopId={shopId} feed={feed.data} />
          <ImportLog shopId={shopId} shop={shop.data} uploading={uploading} />
        </>
      )}
    </Page>
  );
}

function Served({ feed, shop }: { readonly feed: FeedStatus; readonly shop: ShopLocale }) {
  const { t, language } = useI18n();
  const when = (iso: string | null) => (iso === null ? t('common.none') : formatDateTime(iso, shop, language));
  const facts: [string, string][] = [
    [t('catalog.feed.generation'), feed.generation === 0 ? t('catalog.feed.noCatalog') : String(feed.generation)],
    [t('catalog.feed.landedAt'), when(feed.landed_at)],
    [t('catalog.feed.url'), feed.feed_url ?? t('catalog.feed.noUrl')],
    [t('catalog.feed.nextFetch'), feed.feed_url === null ? t('common.none') : when(feed.next_fetch_at)],
  ];
  return (
    <Paper withBorder p="md">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" component="dl" m={0}>
        {facts.map(([label, value]) => (
          <div key={label}>
            <Text component="dt" size="sm" c="dimmed">
              {label}
            </Text>
            <Text component="dd" m={0} style={{ overflowWrap: 'anywhere' }}>
              {value}
            </Text>
          </div>
        ))}
      </SimpleGrid>
    </Paper>
  );
}

/** The body type the API takes: JSON for .json files, YML (XML) otherwise. */
function contentTypeOf(file: File): string {
  return /\.json$/i.test(file.name) || file.type === 'application/json' ? 'application/json' : 'application/xml';
}

function FeedUpload({ shopId, onUploading }: { readonly shopId: string; readonly onUploading: (on: boolean) => void }) {
  const { t, language } = useI18n();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const upload = useMutation({
    mutationFn: (chosen: File) =>
      unwrap(
        api.PUT('/admin/v1/shops/{shop_id}/feed', {
          params: { path: { shop_id: shopId } },
          // The file goes as the body, streamed by the browser: never read into memory here.
          body: chosen as never,
          bodySerializer: (body: unknown) => body as BodyInit,
          headers: { 'Content-Type': contentTypeOf(chosen) },
        }),
      ),
    onMutate: () => onUploading(true),
    onSettled: () => {
      onUploading(false);
      void queryClient.invalidateQueries({ queryKey: ['shops', shopId] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (file) upload.mutate(file);
  };
  const refusal = uploadRefusal(upload.error, upload.variables, t, language);
  return (
    <Paper withBorder p="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Title order={2} size="h4">
            {t('catalog.upload.title')}
          </Title>
          <FileInput
            label={t('catalog.upload.file')}
            description={t('catalog.upload.fileHint')}
            accept=".xml,.yml,.json,application/xml,text/xml,application/json"
            value={file}
            onChange={setFile}
            placeholder={t('catalog.upload.pick')}
          />
          {upload.isPending && upload.variables && (
            <Group gap="xs" role="status" aria-live="polite">
              <Loader size="xs" aria-hidden />
              <Text size="sm">
                {t('catalog.upload.running', { name: upload.variables.name, size: formatBytes(upload.variables.size, language) })}
              </Text>
            </Group>
          )}
          {refusal && (
            <Alert color="red" role="alert" title={t('catalog.upload.refused')}>
              {refusal}
            </Alert>
          )}
          {upload.isSuccess && (
            <Alert color="green" role="status">
              <Text fw={700}>{t('catalog.upload.done')}</Text>
              {t('catalog.upload.counts', {
                products: upload.data.products,
                categories: upload.data.categories,
                skipped: upload.data.skipped.length,
              })}
            </Alert>
          )}
          <Group>
            <Button type="submit" disabled={file === null} loading={upload.isPending}>
              {t('catalog.upload.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/** Why an upload was refused, in words; the served catalog stays in every case. */
function uploadRefusal(
  error: unknown,
  file: File | undefined,
  t: ReturnType<typeof useI18n>['t'],
  language: ReturnType<typeof useI18n>['language'],
): string | null {
  if (error === null || error === undefined) return null;
  if (error instanceof ApiError) {
    const kept = t('catalog.upload.kept');
    if (error.status === 413) return `${t('catalog.upload.tooLarge', { size: formatBytes(file?.size ?? 0, language) })} ${kept}`;
    if (error.status === 409) return `${t('catalog.upload.busy')} ${kept}`;
    if (error.status === 422) return `${t('catalog.upload.malformed', { message: error.message })} ${kept}`;
    if (error.status === 415) return `${t('catalog.upload.wrongType')} ${kept}`;
  }
  return describeFailure(error, t);
}

const URL_FIELDS = ['feed_url', 'refresh_minutes'] as const;

function FeedUrlForm({ shopId, feed }: { readonly shopId: string; readonly feed: FeedStatus }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [url, setUrl] = useState(feed.feed_url ?? '');
  const [minutes, setMinutes] = useState<number | string>(feed.refresh_minutes);
  const [saved, setSaved] = useState(false);
  const save = useMutation({
    mutationFn: (body: { feed_url: string | null; refresh_minutes?: number }) =>
      unwrap(api.PATCH('/admin/v1/shops/{shop_id}/feed', { params: { path: { shop_id: shopId } }, body })),
    onSuccess: (status) => {
      queryClient.setQueryData(catalogKeys.feed(shopId), status);
      void queryClient.invalidateQueries({ queryKey: catalogKeys.imports(shopId) });
      setSaved(true);
    },
  });
  const failure = formFailure(save.error, URL_FIELDS, t);
  const fieldError = (name: (typeof URL_FIELDS)[number]) => (failure.field?.name === name ? failure.field.message : undefined);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const trimmed = url.trim();
    save.mutate({ feed_url: trimmed === '' ? null : trimmed, ...(typeof minutes === 'number' ? { refresh_minutes: minutes } : {}) });
  };
  return (
    <Paper withBorder p="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Title order={2} size="h4">
            {t('catalog.schedule.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('catalog.schedule.hint')}
          </Text>
          {failure.form && (
            <Alert color="red" role="alert">
              {failure.form}
            </Alert>
          )}
          {saved && (
            <Alert color="green" role="status">
              {t('catalog.schedule.saved')}
            </Alert>
          )}
          <Group align="flex-start" grow>
            <TextInput
              label={t('catalog.feed.url')}
              type="url"
              maxLength={2048}
              placeholder="https://"
              value={url}
              onChange={(e) => setUrl(e.currentTarget.value)}
              error={fieldError('feed_url')}
            />
            <NumberInput
              label={t('catalog.schedule.minutes')}
              description={t('catalog.schedule.minutesHint')}
              min={5}
              max={10080}
              allowDecimal={false}
              value={minutes}
              onChange={setMinutes}
              error={fieldError('refresh_minutes')}
            />
          </Group>
          <Group>
            <Button type="submit" loading={save.isPending}>
              {t('catalog.schedule.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
