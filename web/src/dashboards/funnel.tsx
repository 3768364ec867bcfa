import { Anchor, SimpleGrid, Stack, Table } from '@mantine/core';
import { useMemo } from 'react';
import { Link, useParams } from 'react-router';
import { useI18n } from '../i18n/i18n';
import { useShop } from '../shops/shop.queries';
import { Page } from '../ui/page';
import { Empty, Failure, Loading } from '../ui/states';
import { funnelCsv, useFunnel } from './dashboards.queries';
import { funnelOption, funnelSteps, isFunnelType, type FunnelAnswer, type FunnelType, type Step } from './funnel-steps';
import { channelName } from './names';
import { formatsFor, type Formats } from './options';
import { StatCard } from '../ui/page';
import { ChartFrame } from './parts';

export type { FunnelType } from './funnel-steps';

/** The props of `Funnel`: which mailing's funnel to show, and how it sits in the page around it. */
export interface FunnelProps {
  /** The shop's id (the `:shopId` of the page). */
  readonly shopId: string;
  /**
   * The kind of mailing, as the API names it: `transactional` (a mailing of /transact),
   * `chain`, or `bulk` (a bulk mailing: a campaign).
   */
  readonly type: FunnelType;
  /** The mailing's, chain's or bulk mailing's numeric id (the `mailing_id` of its messages). */
  readonly id: number | string;
  /** The heading's text; "Funnel" when absent. */
  readonly title?: string;
  /** The heading's level: 2 (the default) on its own screen, 3 or 4 inside a mailing's page. */
  readonly headingOrder?: 2 | 3 | 4;
}

/**
 * One mailing's funnel (GET …/dashboard/funnels/{type}/{id}, docs/dashboards.md): sent →
 * delivered → opened → clicked → purchased as a chart, with each step's share of sent, the
 * revenue of the purchases, the steps per channel, and the CSV download. It loads its own
 * data and handles its loading, failure and empty states, so a mailing's, chain's or
 * campaign's page only places it:
 *
 *     <Funnel shopId={shopId} type="chain" id={chain.id} headingOrder={3} />
 *
 * Importing it does not load ECharts: the chart comes in its own chunk when drawn.
 */
export function Funnel({ shopId, type, id, title, headingOrder = 2 }: FunnelProps) {
  const { t, language } = useI18n();
  const key = String(id);
  const shop = useShop(shopId);
  const funnel = useFunnel(shopId, type, key);
  const f = useMemo(() => (shop.data ? formatsFor(shop.data, language) : undefined), [shop.data, language]);

  if (shop.isPending || funnel.isPending) return <Loading />;
  if (shop.isError) return <Failure error={shop.error} onRetry={() => void shop.refetch()} />;
  if (funnel.isError) return <Failure error={funnel.error} onRetry={() => void funnel.refetch()} />;
  if (!f) return null;
  return (
    <FunnelView
      answer={funnel.data}
      f={f}
      title={title ?? t('dashboards.funnel.title')}
      order={headingOrder}
      csv={funnelCsv(shopId, type, key)}
    />
  );
}

function FunnelView({
  answer,
  f,
  title,
  order,
  csv,
}: {
  readonly answer: FunnelAnswer;
  readonly f: Formats;
  readonly title: string;
  readonly order: 2 | 3 | 4;
  readonly csv: { readonly path: string; readonly filename: string };
}) {
  const { t } = useI18n();
  const steps = useMemo(() => funnelSteps(answer), [answer]);
  const label = (step: Step) => t(`dashboards.funnel.${step}`);
  const option = useMemo(() => funnelOption(steps, (step) => t(`dashboards.funnel.${step}`), f), [steps, t, f]);
  const summary = t('dashboards.funnel.summary', {
    title,
    steps: steps.map((s) => `${label(s.step)} ${f.count(s.value)}`).join(', '),
    revenue: f.money(answer.revenue),
  });
  return (
    <ChartFrame
      title={title}
      order={order}
      csv={csv}
      empty={answer.sent === 0 ? t('dashboards.funnel.empty') : undefined}
      option={option}
      summary={summary}
      height={240}
      table={() => (
        <Table aria-label={t('dashboards.tableOf', { title })}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('dashboards.funnel.step')}</Table.Th>
              <Table.Th scope="col">{t('dashboards.funnel.count')}</Table.Th>
              <Table.Th scope="col">{t('dashboards.funnel.ofSent')}</Table.Th>
              <Table.Th scope="col">{t('dashboards.funnel.ofPrevious')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {steps.map((s) => (
              <Table.Tr key={s.step}>
                <Table.Th scope="row" fw="normal">
                  {label(s.step)}
                </Table.Th>
                <Table.Td>{f.count(s.value)}</Table.Td>
                <Table.Td>{f.rate(s.ofSent)}</Table.Td>
                <Table.Td>{f.rate(s.ofPrevious)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    >
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, xs: 3 }}>
          <StatCard label={t('dashboards.funnel.sent')} value={f.count(answer.sent)} />
          <StatCard
            label={t('dashboards.funnel.purchased')}
            value={f.count(answer.purchased)}
            note={t('dashboards.funnel.ofSentNote', { rate: f.rate(steps[4]?.ofSent ?? null) })}
          />
          <StatCard label={t('dashboards.funnel.revenue')} value={f.money(answer.revenue)} />
        </SimpleGrid>
        {answer.channels.length > 0 && (
          <Table.ScrollContainer minWidth={420}>
            <Table aria-label={t('dashboards.funnel.byChannel')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('dashboards.messages.channel')}</Table.Th>
                  {(['sent', 'delivered', 'opened', 'clicked'] as const).map((step) => (
                    <Table.Th scope="col" key={step}>
                      {label(step)}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {answer.channels.map((c) => (
                  <Table.Tr key={c.channel}>
                    <Table.Th scope="row" fw="normal">
                      {channelName(t, c.channel)}
                    </Table.Th>
                    <Table.Td>{f.count(c.sent)}</Table.Td>
                    <Table.Td>{f.count(c.delivered)}</Table.Td>
                    <Table.Td>{f.count(c.opened)}</Table.Td>
                    <Table.Td>{f.count(c.clicked)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </ChartFrame>
  );
}

/** `/shops/:shopId/dashboard/funnels/:type/:id`: one mailing's funnel on a screen of its own. */
export function FunnelScreen() {
  const { t } = useI18n();
  const { shopId = '', type, id = '' } = useParams();
  const known = isFunnelType(type) && /^\d+$/.test(id);
  return (
    <Page title={known ? t('dashboards.funnel.screenTitle', { kind: t(`dashboards.funnel.kind.${type}`), id }) : t('error.notFound')}>
      <Anchor component={Link} to={`/shops/${shopId}/dashboard`} size="sm">
        {t('dashboards.funnel.back')}
      </Anchor>
      {known ? <Funnel shopId={shopId} type={type} id={id} /> : <Empty>{t('error.notFound')}</Empty>}
    </Page>
  );
}
