import { Alert, Anchor, Button, Group, Stack, Table, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { usePermissions } from '../auth/permissions';
import { useI18n } from '../i18n/i18n';
import { formFailure } from '../ui/form-errors';
import { Page, Section } from '../ui/page';
import { ConfirmDelete, Empty, Failure, Loading } from '../ui/states';
import { CategoryForm } from './category-form';
import {
  useCategories,
  useChannels,
  useDeleteCategory,
  useDeleteChannel,
  useSaveChannel,
  type Category,
  type Channel,
} from './nps.queries';

/**
 * NPS settings (admin-api.md "NPS"): the channels apps name a review's source by, and the
 * categories it rates, with the question to ask and the thank-you text for each group of
 * ratings, which apps read from GET /nps/categories.
 */
export function SettingsScreen() {
  const { t } = useI18n();
  const shopId = useParams().shopId ?? '';
  const can = usePermissions();
  return (
    <Page title={t('nps.settings.title')} hint={t('nps.settings.hint')}>
      <Anchor component={Link} to={`/shops/${shopId}/nps`}>
        {t('nps.settings.toReviews')}
      </Anchor>
      <Channels shopId={shopId} canWrite={can.write} />
      <Categories shopId={shopId} canWrite={can.write} />
    </Page>
  );
}

function Channels({ shopId, canWrite }: { readonly shopId: string; readonly canWrite: boolean }) {
  const { t } = useI18n();
  const channels = useChannels(shopId);
  return (
    <Section title={t('nps.channels.title')}>
      {channels.isPending && <Loading />}
      {channels.isError && <Failure error={channels.error} onRetry={() => void channels.refetch()} />}
      {channels.data && channels.data.channels.length === 0 && <Empty>{t('nps.channels.empty')}</Empty>}
      {channels.data && channels.data.channels.length > 0 && (
        <Table striped aria-label={t('nps.channels.title')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('nps.form.code')}</Table.Th>
              <Table.Th scope="col">{t('nps.form.name')}</Table.Th>
              {canWrite && <Table.Th scope="col">{t('nps.settings.actions')}</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {channels.data.channels.map((c) => (
              <ChannelRow key={c.code} shopId={shopId} channel={c} canWrite={canWrite} />
            ))}
          </Table.Tbody>
        </Table>
      )}
      {canWrite && <ChannelForm shopId={shopId} />}
    </Section>
  );
}

function ChannelRow({ shopId, channel, canWrite }: { readonly shopId: string; readonly channel: Channel; readonly canWrite: boolean }) {
  const { t } = useI18n();
  const remove = useDeleteChannel(shopId, channel.code);
  return (
    <Table.Tr>
      <Table.Td ff="monospace">{channel.code}</Table.Td>
      <Table.Td>{channel.name}</Table.Td>
      {canWrite && (
        <Table.Td>
          <ConfirmDelete
            label={t('nps.settings.delete')}
            ariaLabel={t('nps.channels.deleteLabel', { code: channel.code })}
            confirm={t('nps.channels.deleteConfirm', { code: channel.code })}
            mutation={remove}
          />
        </Table.Td>
      )}
    </Table.Tr>
  );
}

const CHANNEL_FIELDS = ['code', 'name'] as const;

/** A channel to add, or one to rename (the same code again). */
function ChannelForm({ shopId }: { readonly shopId: string }) {
  const { t } = useI18n();
  const save = useSaveChannel(shopId);
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  const failure = formFailure(save.error, CHANNEL_FIELDS, t);
  const at = (field: (typeof CHANNEL_FIELDS)[number]) => (failure.field?.name === field ? failure.field.message : undefined);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(
      { code: code.trim(), name },
      {
        onSuccess: () => {
          setCode('');
          setName('');
        },
      },
    );
  };
  return (
    <form onSubmit={submit} noValidate aria-label={t('nps.channels.formLabel')}>
      <Stack gap="sm">
        {failure.form && (
          <Alert color="red" role="alert">
            {failure.form}
          </Alert>
        )}
        <Group align="flex-start" grow>
          <TextInput
            label={t('nps.channels.code')}
            description={t('nps.channels.codeHint')}
            required
            maxLength={64}
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
            error={at('code')}
            ff="monospace"
          />
          <TextInput
            label={t('nps.channels.name')}
            required
            maxLength={255}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={at('name')}
          />
        </Group>
        <Group>
          <Button type="submit" loading={save.isPending} disabled={code.trim() === ''}>
            {t('nps.channels.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function Categories({ shopId, canWrite }: { readonly shopId: string; readonly canWrite: boolean }) {
  const { t } = useI18n();
  const categories = useCategories(shopId);
  const [editing, setEditing] = useState<Category | null>(null);
  return (
    <Section title={t('nps.categories.title')}>
      {categories.isPending && <Loading />}
      {categories.isError && <Failure error={categories.error} onRetry={() => void categories.refetch()} />}
      {categories.data && categories.data.categories.length === 0 && <Empty>{t('nps.categories.empty')}</Empty>}
      {categories.data && categories.data.categories.length > 0 && (
        <Table striped aria-label={t('nps.categories.title')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('nps.form.code')}</Table.Th>
              <Table.Th scope="col">{t('nps.form.name')}</Table.Th>
              <Table.Th scope="col">{t('nps.categories.questions')}</Table.Th>
              {canWrite && <Table.Th scope="col">{t('nps.settings.actions')}</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {categories.data.categories.map((c) => (
              <CategoryRow key={c.code} shopId={shopId} category={c} canWrite={canWrite} onEdit={() => setEditing(c)} />
            ))}
          </Table.Tbody>
        </Table>
      )}
      {canWrite && <CategoryForm key={editing?.code ?? ''} shopId={shopId} category={editing} onDone={() => setEditing(null)} />}
    </Section>
  );
}

function CategoryRow({
  shopId,
  category,
  canWrite,
  onEdit,
}: {
  readonly shopId: string;
  readonly category: Category;
  readonly canWrite: boolean;
  readonly onEdit: () => void;
}) {
  const { t } = useI18n();
  const remove = useDeleteCategory(shopId, category.code);
  const set = [category.detractor_question, category.passive_question, category.promoter_question].filter((q) => q !== null).length;
  return (
    <Table.Tr>
      <Table.Td ff="monospace">{category.code}</Table.Td>
      <Table.Td>{category.name}</Table.Td>
      <Table.Td>{t('nps.categories.questionsSet', { count: set })}</Table.Td>
      {canWrite && (
        <Table.Td>
          <Group gap="xs">
            <Button size="xs" variant="subtle" onClick={onEdit} aria-label={t('nps.categories.editLabel', { code: category.code })}>
              {t('nps.settings.edit')}
            </Button>
            <ConfirmDelete
              label={t('nps.settings.delete')}
              ariaLabel={t('nps.categories.deleteLabel', { code: category.code })}
              confirm={t('nps.categories.deleteConfirm', { code: category.code })}
              mutation={remove}
            />
          </Group>
        </Table.Td>
      )}
    </Table.Tr>
  );
}
