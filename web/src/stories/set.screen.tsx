import { Anchor, Group, Table } from '@mantine/core';
import { Link, useNavigate, useParams } from 'react-router';
import { usePermissions } from '../auth/permissions';
import { useI18n } from '../i18n/i18n';
import { Page, Section } from '../ui/page';
import { ConfirmDelete, Failure, Loading } from '../ui/states';
import { StorySetEditor } from './set-editor';
import { useDeleteStorySet, useStoryFigures, useStorySet, type StoryFigures, type StorySet } from './stories.queries';

/** One story set: its editor with the phone preview, its views and clicks per story and slide; deleted behind a confirmation. */
export function StorySetScreen() {
  const { t } = useI18n();
  const { shopId = '', code = '' } = useParams();
  const set = useStorySet(shopId, code);
  const figures = useStoryFigures(shopId, code);
  const can = usePermissions();
  const navigate = useNavigate();
  const remove = useDeleteStorySet(shopId, code, () => void navigate(`/shops/${shopId}/stories`));
  return (
    <Page title={set.data?.name ? t('stories.set.title', { name: set.data.name, code }) : t('stories.set.titleCode', { code })}>
      <Group justify="space-between">
        <Anchor component={Link} to={`/shops/${shopId}/stories`}>
          {t('stories.back')}
        </Anchor>
        {can.write && set.data && (
          <ConfirmDelete
            label={t('stories.set.delete')}
            ariaLabel={t('stories.set.deleteLabel', { code })}
            confirm={t('stories.set.deleteConfirm', { code })}
            mutation={remove}
          />
        )}
      </Group>
      {set.isPending && <Loading />}
      {set.error && <Failure error={set.error} onRetry={() => void set.refetch()} />}
      {set.data && (
        <>
          <Section title={t('stories.figures.title')}>
            {figures.error && <Failure error={figures.error} onRetry={() => void figures.refetch()} />}
            {figures.data && <FiguresTable set={set.data} figures={figures.data} />}
          </Section>
          <Section title={t('stories.set.editor')}>
            <StorySetEditor shopId={shopId} set={set.data} figures={figures.data} readOnly={!can.write} />
          </Section>
        </>
      )}
    </Page>
  );
}

/** Views and clicks: per story the devices that viewed (clicked) any slide, then each slide's. */
function FiguresTable({ set, figures }: { readonly set: StorySet; readonly figures: StoryFigures }) {
  const { t } = useI18n();
  const rows = set.stories.flatMap((story) => {
    const of = figures.stories.find((s) => s.id === story.id);
    return [
      { key: `s${story.id}`, label: story.name, views: of?.views ?? 0, clicks: of?.clicks ?? 0, strong: true },
      ...story.slides.map((slide, i) => {
        const its = of?.slides.find((s) => s.id === slide.id);
        return {
          key: `l${slide.id}`,
          label: t('stories.figures.slide', { n: i + 1 }),
          views: its?.views ?? 0,
          clicks: its?.clicks ?? 0,
          strong: false,
        };
      }),
    ];
  });
  return (
    <Table aria-label={t('stories.figures.title')}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">{t('stories.figures.story')}</Table.Th>
          <Table.Th scope="col">{t('stories.figures.viewsColumn')}</Table.Th>
          <Table.Th scope="col">{t('stories.figures.clicksColumn')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={row.key}>
            <Table.Th scope="row" fw={row.strong ? 700 : 400} pl={row.strong ? undefined : 'xl'}>
              {row.label}
            </Table.Th>
            <Table.Td>{row.views}</Table.Td>
            <Table.Td>{row.clicks}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
