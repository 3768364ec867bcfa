import { Alert, Anchor, Button, Group, MultiSelect, Radio, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { usePermissions } from '../auth/permissions';
import { useSegments } from '../customers/customers.queries';
import { useI18n } from '../i18n/i18n';
import { useShop, type Shop } from '../shops/shop.queries';
import { TemplatesEditor, templateErrorsOf } from '../templates/templates-editor';
import { Page, Section } from '../ui/page';
import { describeFailure, Failure, Loading } from '../ui/states';
import { AbFields } from './ab-fields';
import { AudiencePanel } from './audience-panel';
import { buildBody, channelsOf, newDraft, refusalField, type CampaignDraft, type Field, type Problem } from './campaign-form';
import { useCreateCampaign } from './campaigns.queries';
import { LimitsPanel } from './limits-panel';

/** `/shops/:shopId/campaigns/new`: compose a campaign, see who it reaches, and send it now or at a time. */
export function ComposeScreen() {
  const { t } = useI18n();
  const shopId = useParams().shopId ?? '';
  const shop = useShop(shopId);
  return (
    <Page title={t('campaigns.compose.title')} hint={t('campaigns.compose.hint')}>
      <Anchor component={Link} to={`/shops/${shopId}/campaigns`} size="sm">
        {t('campaigns.back')}
      </Anchor>
      {shop.isPending && <Loading />}
      {shop.isError && <Failure error={shop.error} onRetry={() => void shop.refetch()} />}
      {shop.data && <ComposeForm shopId={shopId} shop={shop.data} />}
    </Page>
  );
}

function ComposeForm({ shopId, shop }: { readonly shopId: string; readonly shop: Shop }) {
  const { t } = useI18n();
  const can = usePermissions();
  const navigate = useNavigate();
  const segments = useSegments(shopId);
  const create = useCreateCampaign(shopId);
  const [draft, setDraft] = useState<CampaignDraft>(newDraft);
  const [problem, setProblem] = useState<Problem | null>(null);
  const channels = channelsOf(draft.templates);
  const readOnly = !can.write;

  const change = (patch: Partial<CampaignDraft>) => {
    setProblem(null);
    if (create.isError) create.reset();
    setDraft((d) => ({ ...d, ...patch }));
  };

  const refused = refusalField(create.error);
  const errorAt = (field: Field): string | undefined => {
    if (problem?.field === field) return t(`campaigns.problem.${problem.key}`);
    if (refused === field && create.error instanceof Error) return create.error.message;
    return undefined;
  };
  const templateErrors = templateErrorsOf(create.error);
  const formError = create.isError && refused === undefined ? describeFailure(create.error, t) : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = buildBody(draft, shop.timezone);
    if ('problem' in result) {
      setProblem(result.problem);
      return;
    }
    create.mutate(result.body, { onSuccess: (answer) => void navigate(`/shops/${shopId}/campaigns/${answer.id}`) });
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t('campaigns.compose.title')}>
      <Stack gap="md">
        {readOnly && <Alert color="gray">{t('campaigns.compose.readOnly')}</Alert>}
        <TextInput
          label={t('campaigns.compose.name')}
          value={draft.name}
          onChange={(e) => change({ name: e.currentTarget.value })}
          error={errorAt('name')}
          disabled={readOnly}
          required
          maxLength={255}
        />
        <Section title={t('campaigns.compose.audience')}>
          {segments.isError && <Failure error={segments.error} onRetry={() => void segments.refetch()} />}
          <MultiSelect
            label={t('campaigns.compose.segments')}
            description={t('campaigns.compose.segmentsHint')}
            placeholder={segments.isPending ? t('app.loading') : t('campaigns.compose.pickSegments')}
            data={(segments.data?.segments ?? []).map((s) => ({
              value: String(s.id),
              label: t('campaigns.compose.segmentOption', { name: s.name, size: s.size }),
            }))}
            value={draft.segmentIds.map(String)}
            onChange={(ids) => change({ segmentIds: ids.map(Number) })}
            error={errorAt('segment_ids')}
            searchable
            disabled={readOnly}
            nothingFoundMessage={t('campaigns.compose.noSegments')}
          />
          <AudiencePanel shopId={shopId} segmentIds={draft.segmentIds} channels={channels} />
        </Section>
        <Section title={t('campaigns.compose.message')}>
          <TemplatesEditor
            shopId={shopId}
            value={draft.templates}
            onChange={(templates) => change({ templates })}
            errors={templateErrors}
          />
          {templateErrors.length === 0 && errorAt('templates') && (
            <Text c="red.9" size="sm" role="alert">
              {errorAt('templates')}
            </Text>
          )}
        </Section>
        <Section title={t('campaigns.compose.abTitle')}>
          <AbFields value={draft} onChange={change} channels={channels} error={errorAt('ab')} disabled={readOnly} />
        </Section>
        <Section title={t('campaigns.compose.sending')}>
          <Radio.Group
            label={t('campaigns.compose.when')}
            value={draft.when}
            onChange={(when) => change({ when: when === 'later' ? 'later' : 'now' })}
          >
            <Group mt="xs">
              <Radio value="now" label={t('campaigns.compose.now')} disabled={readOnly} />
              <Radio value="later" label={t('campaigns.compose.later')} disabled={readOnly} />
            </Group>
          </Radio.Group>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {draft.when === 'later' && (
              <TextInput
                type="datetime-local"
                label={t('campaigns.compose.sendAt', { zone: shop.timezone })}
                value={draft.sendAt}
                onChange={(e) => change({ sendAt: e.currentTarget.value })}
                error={errorAt('send_at')}
                disabled={readOnly}
                required
              />
            )}
            <TextInput
              label={t('campaigns.compose.throttle')}
              description={t('campaigns.compose.throttleHint')}
              inputMode="numeric"
              value={draft.throttle}
              onChange={(e) => change({ throttle: e.currentTarget.value })}
              error={errorAt('throttle_per_minute')}
              disabled={readOnly}
            />
          </SimpleGrid>
        </Section>
        <LimitsPanel shopId={shopId} channels={channels} canWrite={can.write} />
        {formError && (
          <Alert color="red" role="alert">
            {formError}
          </Alert>
        )}
        {can.write && (
          <Group>
            <Button type="submit" loading={create.isPending}>
              {draft.when === 'later' ? t('campaigns.compose.schedule') : t('campaigns.compose.sendNow')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
