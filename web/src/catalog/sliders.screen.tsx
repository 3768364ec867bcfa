import { Alert, Anchor, Badge, Button, Code, Group, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, unwrap } from '../api/client';
import { usePermissions } from '../auth/permissions';
import { formatDateTime } from '../i18n/format';
import { useI18n } from '../i18n/i18n';
import { useShop } from '../shops/shop.queries';
import { formFailure } from '../ui/form-errors';
import { Page } from '../ui/page';
import { ConfirmDelete, Empty, Failure, Loading } from '../ui/states';
import { catalogKeys, safeHref } from './catalog.queries';
import { bodyOf, draftOf } from './slider-drafts';
import { SliderForm } from './slider-form';

/** The shop's sliders (GET /slider's banner sets). The API lists them all at once, by code. */
export function SlidersScreen() {
  const { t, language } = useI18n();
  const shopId = useParams().shopId ?? '';
  const shop = useShop(shopId);
  const sliders = useQuery({
    queryKey: catalogKeys.sliders(shopId),
    queryFn: () => unwrap(api.GET('/admin/v1/shops/{shop_id}/sliders', { params: { path: { shop_id: shopId } } })),
  });
  const failed = sliders.error ?? shop.error;
  const can = usePermissions();
  return (
    <Page title={t('catalog.sliders.title')} hint={t('catalog.sliders.hint')}>
      {can.write && <CreateSlider shopId={shopId} />}
      {(sliders.isPending || shop.isPending) && <Loading />}
      {failed && <Failure error={failed} onRetry={() => void Promise.all([sliders.refetch(), shop.refetch()])} />}
      {sliders.data && sliders.data.sliders.length === 0 && <Empty>{t('catalog.sliders.empty')}</Empty>}
      {sliders.data && shop.data && sliders.data.sliders.length > 0 && (
        <Table striped aria-label={t('catalog.sliders.title')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('catalog.sliders.code')}</Table.Th>
              <Table.Th scope="col">{t('catalog.sliders.size')}</Table.Th>
              <Table.Th scope="col">{t('catalog.sliders.slides')}</Table.Th>
              <Table.Th scope="col">{t('catalog.sliders.updated')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {sliders.data.sliders.map((slider) => (
              <Table.Tr key={slider.code}>
                <Table.Td>
                  <Anchor component={Link} to={`/shops/${shopId}/sliders/${encodeURIComponent(slider.code)}`} ff="monospace">
                    {slider.code}
                  </Anchor>
                </Table.Td>
                <Table.Td>{t('catalog.sliders.pixels', { width: slider.width, height: slider.height })}</Table.Td>
                <Table.Td>{slider.slide_count}</Table.Td>
                <Table.Td>{formatDateTime(slider.updated_at, shop.data, language)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Page>
  );
}

/** One slider with its slides as stored; the server's rendered markup is shown as text, never run. */
export function SliderScreen() {
  const { t, language } = useI18n();
  const { shopId = '', code = '' } = useParams();
  const shop = useShop(shopId);
  const slider = useQuery({
    queryKey: catalogKeys.slider(shopId, code),
    queryFn: () => unwrap(api.GET('/admin/v1/shops/{shop_id}/sliders/{code}', { params: { path: { shop_id: shopId, code } } })),
  });
  const failed = slider.error ?? shop.error;
  const can = usePermissions();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/admin/v1/shops/{shop_id}/sliders/{code}', { params: { path: { shop_id: shopId, code } } })),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: catalogKeys.slider(shopId, code) });
      await queryClient.invalidateQueries({ queryKey: catalogKeys.sliders(shopId) });
      void navigate(`/shops/${shopId}/sliders`);
    },
  });
  const none = t('common.none');
  const link = (url: string | null): ReactNode => {
    const href = safeHref(url);
    return href ? (
      <Anchor href={href} target="_blank" rel="noopener noreferrer">
        {url}
      </Anchor>
    ) : (
      (url ?? none)
    );
  };
  return (
    <Page title={t('catalog.slider.title', { code })}>
      <Anchor component={Link} to={`/shops/${shopId}/sliders`}>
        {t('catalog.slider.back')}
      </Anchor>
      {(slider.isPending || shop.isPending) && <Loading />}
      {failed && <Failure error={failed} onRetry={() => void Promise.all([slider.refetch(), shop.refetch()])} />}
      {slider.data && shop.data && editing && (
        <SliderForm
          shopId={shopId}
          code={code}
          initial={draftOf(slider.data)}
          onSaved={() => {
            setEditing(false);
            void slider.refetch();
          }}
          onCancel={() => setEditing(false)}
        />
      )}
      {slider.data && shop.data && !editing && (
        <>
          {can.write && (
            <Group>
              <Button onClick={() => setEditing(true)}>{t('catalog.slider.edit')}</Button>
              <ConfirmDelete
                label={t('catalog.slider.delete')}
                ariaLabel={t('catalog.slider.deleteLabel', { code })}
                confirm={t('catalog.slider.deleteConfirm', { code })}
                mutation={remove}
              />
            </Group>
          )}
          <Text>
            {t('catalog.sliders.pixels', { width: slider.data.width, height: slider.data.height })} ·{' '}
            {t('catalog.slider.updated', { at: formatDateTime(slider.data.updated_at, shop.data, language) })}
          </Text>
          {slider.data.slides.length === 0 && <Empty>{t('catalog.slider.noSlides')}</Empty>}
          {slider.data.slides.map((slide, index) => (
            // Slides have no id: their position is what they are.
            // biome-ignore lint/suspicious/noArrayIndexKey: the order is the slider's
            <Paper withBorder p="md" key={index}>
              <Stack gap="xs">
                <Title order={2} size="h4">
                  {t('catalog.slider.slide', { n: index + 1 })}
                </Title>
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" component="dl" m={0}>
                  {(
                    [
                      [t('catalog.slider.image'), link(slide.image_url)],
                      [t('catalog.slider.url'), link(slide.url)],
                      [t('catalog.slider.ios'), slide.deeplink_ios ?? none],
                      [t('catalog.slider.android'), slide.deeplink_android ?? none],
                      [t('catalog.slider.contentType'), slide.content_type ?? none],
                      [t('catalog.slider.content'), slide.content ?? none],
                    ] as [string, ReactNode][]
                  ).map(([label, value]) => (
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
                {slide.tags.length > 0 && (
                  <Group gap="xs" aria-label={t('catalog.slider.tags')}>
                    {slide.tags.map((tag) => (
                      <Badge key={tag} variant="default">
                        {tag}
                      </Badge>
                    ))}
                  </Group>
                )}
                <Text size="sm" c="dimmed">
                  {t('catalog.slider.html')}
                </Text>
                <Code block>{slide.html}</Code>
              </Stack>
            </Paper>
          ))}
        </>
      )}
    </Page>
  );
}

/**
 * A new slider: its code and size, saved with no slides (a slider without slides is allowed
 * and answers nothing); its page then opens to add them. An existing code is refused here
 * rather than replaced: PUT would overwrite it whole.
 */
function CreateSlider({ shopId }: { readonly shopId: string }) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const [width, setWidth] = useState('');
  const [height, setHeight] = useState('');
  const [local, setLocal] = useState<{ field: 'code' | 'width' | 'height'; message: string } | null>(null);
  const create = useMutation({
    mutationFn: async ({ body }: { body: { width: number; height: number } }) => {
      const exists = await api.GET('/admin/v1/shops/{shop_id}/sliders/{code}', { params: { path: { shop_id: shopId, code } } });
      if (exists.response.ok) throw new SliderExists();
      return unwrap(
        api.PUT('/admin/v1/shops/{shop_id}/sliders/{code}', { params: { path: { shop_id: shopId, code } }, body: { ...body, slides: [] } }),
      );
    },
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: catalogKeys.sliders(shopId) });
      void navigate(`/shops/${shopId}/sliders/${encodeURIComponent(saved.code)}`);
    },
  });
  const exists = create.error instanceof SliderExists;
  const failure = exists ? {} : formFailure(create.error, ['code', 'width', 'height'] as const, t);
  const errorAt = (field: 'code' | 'width' | 'height') =>
    local?.field === field
      ? local.message
      : field === 'code' && exists
        ? t('catalog.slider.exists')
        : failure.field?.name === field
          ? failure.field.message
          : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setLocal(null);
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(code)) return setLocal({ field: 'code', message: t('catalog.slider.codeInvalid') });
    const result = bodyOf({ width, height, slides: [] });
    if ('problem' in result) return setLocal({ field: result.problem.field, message: t(result.problem.key) });
    create.mutate({ body: { width: result.body.width, height: result.body.height } });
  };
  return (
    <Paper withBorder p="md">
      <form onSubmit={submit} noValidate aria-label={t('catalog.slider.new')}>
        <Stack gap="sm">
          {failure.form && (
            <Alert color="red" role="alert">
              {failure.form}
            </Alert>
          )}
          <Group align="flex-start" grow>
            <TextInput
              label={t('catalog.sliders.code')}
              description={t('catalog.slider.codeHint')}
              required
              maxLength={64}
              value={code}
              onChange={(e) => setCode(e.currentTarget.value)}
              error={errorAt('code')}
            />
            <TextInput
              label={t('catalog.slider.width')}
              required
              inputMode="numeric"
              value={width}
              onChange={(e) => setWidth(e.currentTarget.value)}
              error={errorAt('width')}
            />
            <TextInput
              label={t('catalog.slider.height')}
              required
              inputMode="numeric"
              value={height}
              onChange={(e) => setHeight(e.currentTarget.value)}
              error={errorAt('height')}
            />
          </Group>
          <Group>
            <Button type="submit" loading={create.isPending}>
              {t('catalog.slider.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

class SliderExists extends Error {}
