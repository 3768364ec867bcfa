import { Anchor, Button, Group, Table } from '@mantine/core';
import { Link, useNavigate, useParams } from 'react-router';
import { usePermissions } from '../auth/permissions';
import { formatDateTime } from '../i18n/format';
import { useI18n } from '../i18n/i18n';
import { useShop } from '../shops/shop.queries';
import { Page } from '../ui/page';
import { Empty, Failure, Loading } from '../ui/states';
import { StorySetEditor } from './set-editor';
import { useStorySets } from './stories.queries';

/** The shop's story sets (GET …/stories: every set at once, by code; the API does not page them). */
export function StorySetsScreen() {
  const { t, language } = useI18n();
  const shopId = useParams().shopId ?? '';
  const shop = useShop(shopId);
  const sets = useStorySets(shopId);
  const can = usePermissions();
  const failed = sets.error ?? shop.error;
  return (
    <Page title={t('stories.list.title')} hint={t('stories.list.hint')}>
      {can.write && (
        <Group>
          <Button component={Link} to={`/shops/${shopId}/stories/new`}>
            {t('stories.list.new')}
          </Button>
        </Group>
      )}
      {(sets.isPending || shop.isPending) && <Loading />}
      {failed && <Failure error={failed} onRetry={() => void Promise.all([sets.refetch(), shop.refetch()])} />}
      {sets.data && sets.data.story_sets.length === 0 && <Empty>{t('stories.list.empty')}</Empty>}
      {sets.data && shop.data && sets.data.story_sets.length > 0 && (
        <Table.ScrollContainer minWidth={480}>
          <Table striped aria-label={t('stories.list.title')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('stories.list.code')}</Table.Th>
                <Table.Th scope="col">{t('stories.list.name')}</Table.Th>
                <Table.Th scope="col">{t('stories.list.stories')}</Table.Th>
                <Table.Th scope="col">{t('stories.list.updated')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {sets.data.story_sets.map((set) => (
                <Table.Tr key={set.code}>
                  <Table.Td>
                    <Anchor component={Link} to={`/shops/${shopId}/stories/${encodeURIComponent(set.code)}`} ff="monospace">
                      {set.code}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{set.name ?? t('common.none')}</Table.Td>
                  <Table.Td>{set.stories}</Table.Td>
                  <Table.Td>{formatDateTime(set.updated_at, shop.data, language)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Page>
  );
}

/** A new story set: its code, stories and slides; saved, it opens its page. */
export function NewStorySetScreen() {
  const { t } = useI18n();
  const shopId = useParams().shopId ?? '';
  const navigate = useNavigate();
  return (
    <Page title={t('stories.new.title')}>
      <Anchor component={Link} to={`/shops/${shopId}/stories`}>
        {t('stories.back')}
      </Anchor>
      <StorySetEditor
        shopId={shopId}
        readOnly={false}
        onSaved={(set) => void navigate(`/shops/${shopId}/stories/${encodeURIComponent(set.code)}`)}
      />
    </Page>
  );
}
