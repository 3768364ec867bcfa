import { Anchor, Stack, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { Link, useParams } from 'react-router';
import { Funnel } from '../dashboards/funnel';
import { useI18n } from '../i18n/i18n';
import { Page } from '../ui/page';
import { Failure, Loading } from '../ui/states';
import { ChainBuilder } from './chain-builder';
import { draftOf, newDraft } from './chain-draft';
import { useChain, useChainStats } from './chains.queries';
import { ChainRuns } from './runs';

/** A new chain: the builder on an empty draft; the first save creates it and opens its page. */
export function NewChainScreen() {
  const { t } = useI18n();
  const shopId = useParams().shopId ?? '';
  const initial = useMemo(() => newDraft(), []);
  return (
    <Page title={t('chains.newTitle')} hint={t('chains.builderHint')}>
      <BackToChains shopId={shopId} />
      <ChainBuilder shopId={shopId} initial={initial} isNew />
    </Page>
  );
}

/** A chain: the builder on its current version with each step's counts, then its runs and its funnel. */
export function ChainScreen() {
  const { t } = useI18n();
  const { shopId = '', code = '' } = useParams();
  const chain = useChain(shopId, code);
  const stats = useChainStats(shopId, code, chain.isSuccess);
  const version = chain.data?.version;
  const initial = useMemo(() => (chain.data ? draftOf(chain.data) : undefined), [chain.data]);
  const stepStats = stats.data && stats.data.version === version ? stats.data.steps : undefined;
  return (
    <Page title={t('chains.oneTitle', { code })} hint={t('chains.builderHint')}>
      <BackToChains shopId={shopId} />
      {chain.isPending && <Loading />}
      {chain.isError && <Failure error={chain.error} onRetry={() => void chain.refetch()} />}
      {chain.data && initial && (
        <>
          <Text size="sm" c="dimmed">
            {t('chains.versionNote', { version: chain.data.version })}
          </Text>
          {stats.isError && <Failure error={stats.error} onRetry={() => void stats.refetch()} />}
          <ChainBuilder key={chain.data.code} shopId={shopId} initial={initial} isNew={false} stats={stepStats} />
          <ChainRuns shopId={shopId} code={code} />
          <Stack gap="sm">
            <Title order={2} size="h3">
              {t('chains.funnel')}
            </Title>
            <Funnel shopId={shopId} type="chain" id={chain.data.id} title={t('chains.funnelOf', { code })} headingOrder={3} />
          </Stack>
        </>
      )}
    </Page>
  );
}

function BackToChains({ shopId }: { readonly shopId: string }) {
  const { t } = useI18n();
  return (
    <Anchor component={Link} to={`/shops/${shopId}/chains`}>
      {t('chains.back')}
    </Anchor>
  );
}
