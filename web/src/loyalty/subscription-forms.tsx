import { Button, Group, Paper, Select, Stack, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../api/client';
import { useI18n } from '../i18n/i18n';
import { failureAt } from './form';
import { loyaltyKeys } from './loyalty.queries';
import { parseUnits } from './money';
import { FormAlert } from './parts';

type Kind = 'boolean' | 'integer' | 'promos';
const PLAN_FIELDS = ['code', 'name', 'period_days', 'benefits'] as const;

/** A new plan with its first benefit (docs/subscriptions.md: a plan has at least one). */
export function CreatePlan({ shopId, code }: { readonly shopId: string; readonly code: string }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [plan, setPlan] = useState({ code: '', name: '', period: '30' });
  const [benefit, setBenefit] = useState({
    code: '',
    name: '',
    kind: 'boolean' as Kind,
    value: 'true',
    promotions: '',
    savings: '',
    uses: '',
  });
  const [local, setLocal] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (body: never) =>
      unwrap(api.POST('/admin/v1/shops/{shop_id}/subscriptions/{code}/plans', { params: { path: { shop_id: shopId, code } }, body })),
    onSuccess: () => {
      setPlan({ code: '', name: '', period: '30' });
      void queryClient.invalidateQueries({ queryKey: [...loyaltyKeys.subscription(shopId, code), 'plans'] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setLocal(null);
    const head = { code: benefit.code.trim(), name: benefit.name.trim() };
    let item: Record<string, unknown>;
    if (benefit.kind === 'boolean') item = { ...head, data_type: 'boolean', value: benefit.value === 'true' };
    else if (benefit.kind === 'integer') item = { ...head, data_type: 'integer', value: Number.parseInt(benefit.value, 10) };
    else {
      const savings = parseUnits(benefit.savings);
      if (savings === null) return setLocal(t('loyalty.amountInvalid'));
      const ids = benefit.promotions
        .split(/[\s,]+/)
        .filter((s) => s !== '')
        .map(Number);
      item = {
        ...head,
        data_type: 'promos',
        promotion_ids: ids,
        savings_limit: savings,
        usage_limit: Number.parseInt(benefit.uses, 10) || 0,
      };
    }
    create.mutate({
      code: plan.code.trim(),
      name: plan.name.trim(),
      period_days: Number.parseInt(plan.period, 10),
      benefits: [item],
    } as never);
  };
  const failure = failureAt(create.error, PLAN_FIELDS, t);
  const at = (f: (typeof PLAN_FIELDS)[number]) => (failure.field?.name === f ? failure.field.message : undefined);
  return (
    <Paper withBorder p="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <FormAlert message={local ?? failure.form ?? at('benefits')} />
          <Group align="flex-start" grow>
            <TextInput
              label={t('loyalty.subs.planCode')}
              required
              maxLength={64}
              value={plan.code}
              onChange={(e) => setPlan({ ...plan, code: e.currentTarget.value })}
              error={at('code')}
            />
            <TextInput
              label={t('loyalty.subs.planName')}
              required
              maxLength={200}
              value={plan.name}
              onChange={(e) => setPlan({ ...plan, name: e.currentTarget.value })}
              error={at('name')}
            />
            <TextInput
              label={t('loyalty.subs.periodDays')}
              required
              inputMode="numeric"
              maxLength={5}
              value={plan.period}
              onChange={(e) => setPlan({ ...plan, period: e.currentTarget.value })}
              error={at('period_days')}
            />
          </Group>
          <Group align="flex-start" grow>
            <TextInput
              label={t('loyalty.subs.benefitCode')}
              required
              maxLength={64}
              value={benefit.code}
              onChange={(e) => setBenefit({ ...benefit, code: e.currentTarget.value })}
            />
            <TextInput
              label={t('loyalty.subs.benefitName')}
              required
              maxLength={200}
              value={benefit.name}
              onChange={(e) => setBenefit({ ...benefit, name: e.currentTarget.value })}
            />
            <Select
              label={t('loyalty.subs.benefitKind')}
              data={[
                { value: 'boolean', label: t('loyalty.subs.kind.boolean') },
                { value: 'integer', label: t('loyalty.subs.kind.integer') },
                { value: 'promos', label: t('loyalty.subs.kind.promos') },
              ]}
              value={benefit.kind}
              onChange={(v) => v && setBenefit({ ...benefit, kind: v, value: v === 'boolean' ? 'true' : '0' })}
              allowDeselect={false}
            />
          </Group>
          {benefit.kind === 'boolean' && (
            <Select
              label={t('loyalty.subs.benefitValue')}
              data={[
                { value: 'true', label: t('loyalty.yes') },
                { value: 'false', label: t('loyalty.no') },
              ]}
              value={benefit.value}
              onChange={(v) => v && setBenefit({ ...benefit, value: v })}
              allowDeselect={false}
              w={200}
            />
          )}
          {benefit.kind === 'integer' && (
            <TextInput
              label={t('loyalty.subs.benefitValue')}
              inputMode="numeric"
              maxLength={10}
              w={200}
              value={benefit.value}
              onChange={(e) => setBenefit({ ...benefit, value: e.currentTarget.value })}
            />
          )}
          {benefit.kind === 'promos' && (
            <Group align="flex-start" grow>
              <TextInput
                label={t('loyalty.subs.promotionIds')}
                maxLength={500}
                value={benefit.promotions}
                onChange={(e) => setBenefit({ ...benefit, promotions: e.currentTarget.value })}
              />
              <TextInput
                label={t('loyalty.subs.savingsLimit')}
                inputMode="decimal"
                maxLength={20}
                value={benefit.savings}
                onChange={(e) => setBenefit({ ...benefit, savings: e.currentTarget.value })}
              />
              <TextInput
                label={t('loyalty.subs.usageLimit')}
                inputMode="numeric"
                maxLength={10}
                value={benefit.uses}
                onChange={(e) => setBenefit({ ...benefit, uses: e.currentTarget.value })}
              />
            </Group>
          )}
          <Group>
            <Button type="submit" loading={create.isPending}>
              {t('loyalty.subs.createPlan')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

const SUBSCRIBE_FIELDS = ['identifier', 'plan', 'paid_till'] as const;

/** Subscribes a loyalty member, or changes its plan or paid-till day (the same POST). */
export function Subscribe({ shopId, code, onDone }: { readonly shopId: string; readonly code: string; readonly onDone: () => void }) {
  const { t } = useI18n();
  const [form, setForm] = useState({ identifier: '', plan: '', paid_till: '' });
  const subscribe = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/admin/v1/shops/{shop_id}/subscriptions/{code}/members', {
          params: { path: { shop_id: shopId, code } },
          body: { identifier: form.identifier.trim(), plan: form.plan.trim(), paid_till: form.paid_till },
        }),
      ),
    onSuccess: () => {
      setForm({ identifier: '', plan: '', paid_till: '' });
      onDone();
    },
  });
  const failure = failureAt(subscribe.error, SUBSCRIBE_FIELDS, t);
  const at = (f: (typeof SUBSCRIBE_FIELDS)[number]) => (failure.field?.name === f ? failure.field.message : undefined);
  return (
    <Paper withBorder p="md">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          subscribe.mutate();
        }}
        noValidate
      >
        <Stack gap="sm">
          <FormAlert message={failure.form} />
          <Group align="flex-start" grow>
            <TextInput
              label={t('loyalty.subs.identifier')}
              required
              maxLength={255}
              value={form.identifier}
              onChange={(e) => setForm({ ...form, identifier: e.currentTarget.value })}
              error={at('identifier')}
            />
            <TextInput
              label={t('loyalty.subs.plan')}
              required
              maxLength={64}
              value={form.plan}
              onChange={(e) => setForm({ ...form, plan: e.currentTarget.value })}
              error={at('plan')}
            />
            <TextInput
              type="date"
              label={t('loyalty.subs.paidTill')}
              required
              value={form.paid_till}
              onChange={(e) => setForm({ ...form, paid_till: e.currentTarget.value })}
              error={at('paid_till')}
            />
          </Group>
          <Group>
            <Button type="submit" loading={subscribe.isPending}>
              {t('loyalty.subs.subscribe')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
