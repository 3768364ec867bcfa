import { Button, Group, Paper, Select, Stack, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../api/client';
import { useI18n } from '../i18n/i18n';
import { failureAt } from './form';
import { loyaltyKeys } from './loyalty.queries';
import {
  benefitBodies,
  draftOf,
  emptyBenefit,
  MAX_BENEFITS,
  type Benefit,
  type BenefitBody,
  type BenefitDraft,
  type DraftProblem,
  type PlanBody,
} from './benefits';
import { FormAlert } from './parts';

const PLAN_FIELDS = ['code', 'name', 'period_days', 'benefits'] as const;

/** A new plan with its benefits (docs/subscriptions.md: a plan has at least one). */
export function CreatePlan({ shopId, code }: { readonly shopId: string; readonly code: string }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [plan, setPlan] = useState({ code: '', name: '', period: '30' });
  const [benefits, setBenefits] = useState<readonly BenefitDraft[]>([emptyBenefit()]);
  const [problem, setProblem] = useState<DraftProblem | null>(null);
  const create = useMutation({
    mutationFn: (body: PlanBody) =>
      unwrap(api.POST('/admin/v1/shops/{shop_id}/subscriptions/{code}/plans', { params: { path: { shop_id: shopId, code } }, body })),
    onSuccess: () => {
      setPlan({ code: '', name: '', period: '30' });
      setBenefits([emptyBenefit()]);
      void queryClient.invalidateQueries({ queryKey: [...loyaltyKeys.subscription(shopId, code), 'plans'] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const built = benefitBodies(benefits);
    if ('problem' in built) return setProblem(built.problem);
    setProblem(null);
    create.mutate({
      code: plan.code.trim(),
      name: plan.name.trim(),
      period_days: Number.parseInt(plan.period, 10),
      benefits: built.benefits,
    });
  };
  const failure = failureAt(create.error, PLAN_FIELDS, t);
  const at = (f: (typeof PLAN_FIELDS)[number]) => (failure.field?.name === f ? failure.field.message : undefined);
  return (
    <Paper withBorder p="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <FormAlert message={failure.form ?? at('benefits')} />
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
          <BenefitsEditor drafts={benefits} onChange={setBenefits} problem={problem} />
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

/** A plan's benefits changed in one PATCH (the list is replaced whole). */
export function EditBenefits({
  shopId,
  code,
  plan,
  onDone,
}: {
  readonly shopId: string;
  readonly code: string;
  readonly plan: { readonly code: string; readonly benefits: readonly Benefit[] };
  readonly onDone: () => void;
}) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [benefits, setBenefits] = useState<readonly BenefitDraft[]>(() => plan.benefits.map(draftOf));
  const [problem, setProblem] = useState<DraftProblem | null>(null);
  const save = useMutation({
    mutationFn: (list: BenefitBody[]) =>
      unwrap(
        api.PATCH('/admin/v1/shops/{shop_id}/subscriptions/{code}/plans/{plan}', {
          params: { path: { shop_id: shopId, code, plan: plan.code } },
          body: { benefits: list },
        }),
      ),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: [...loyaltyKeys.subscription(shopId, code), 'plans'] });
      onDone();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const built = benefitBodies(benefits);
    if ('problem' in built) return setProblem(built.problem);
    setProblem(null);
    save.mutate(built.benefits);
  };
  const failure = failureAt(save.error, PLAN_FIELDS, t);
  return (
    <form onSubmit={submit} noValidate aria-label={t('loyalty.subs.editBenefitsOf', { plan: plan.code })}>
      <Stack gap="sm">
        <FormAlert message={failure.form ?? failure.field?.message} />
        <BenefitsEditor drafts={benefits} onChange={setBenefits} problem={problem} />
        <Group>
          <Button type="submit" loading={save.isPending}>
            {t('loyalty.subs.saveBenefits')}
          </Button>
          <Button variant="default" onClick={onDone}>
            {t('people.cancel')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The benefit rows of a plan: each its code, name, kind and value; rows added and removed. */
function BenefitsEditor({
  drafts,
  onChange,
  problem,
}: {
  readonly drafts: readonly BenefitDraft[];
  readonly onChange: (next: readonly BenefitDraft[]) => void;
  readonly problem: DraftProblem | null;
}) {
  const { t } = useI18n();
  const set = (index: number, change: Partial<BenefitDraft>) => onChange(drafts.map((d, i) => (i === index ? { ...d, ...change } : d)));
  const errorAt = (index: number, field: DraftProblem['field']) =>
    problem !== null && problem.index === index && problem.field === field ? t(problem.key) : undefined;
  return (
    <Stack gap="xs">
      {drafts.map((benefit, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id until saved, and only the last is ever added
        <Paper key={index} withBorder p="sm" bg="gray.0" component="fieldset" aria-label={t('loyalty.subs.benefitN', { n: index + 1 })}>
          <Stack gap="xs">
            <Group align="flex-start" grow>
              <TextInput
                label={t('loyalty.subs.benefitCode')}
                required
                maxLength={64}
                value={benefit.code}
                onChange={(e) => set(index, { code: e.currentTarget.value })}
              />
              <TextInput
                label={t('loyalty.subs.benefitName')}
                required
                maxLength={200}
                value={benefit.name}
                onChange={(e) => set(index, { name: e.currentTarget.value })}
              />
              <Select
                label={t('loyalty.subs.benefitKind')}
                data={[
                  { value: 'boolean', label: t('loyalty.subs.kind.boolean') },
                  { value: 'integer', label: t('loyalty.subs.kind.integer') },
                  { value: 'promos', label: t('loyalty.subs.kind.promos') },
                ]}
                value={benefit.kind}
                onChange={(v) => v && set(index, { kind: v, value: v === 'boolean' ? 'true' : '0' })}
                allowDeselect={false}
              />
            </Group>
            <Group align="flex-end">
              {benefit.kind === 'boolean' && (
                <Select
                  label={t('loyalty.subs.benefitValue')}
                  data={[
                    { value: 'true', label: t('loyalty.yes') },
                    { value: 'false', label: t('loyalty.no') },
                  ]}
                  value={benefit.value}
                  onChange={(v) => v && set(index, { value: v })}
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
                  onChange={(e) => set(index, { value: e.currentTarget.value })}
                  error={errorAt(index, 'value')}
                />
              )}
              {benefit.kind === 'promos' && (
                <>
                  <TextInput
                    label={t('loyalty.subs.promotionIds')}
                    maxLength={500}
                    value={benefit.promotions}
                    onChange={(e) => set(index, { promotions: e.currentTarget.value })}
                    error={errorAt(index, 'promotions')}
                  />
                  <TextInput
                    label={t('loyalty.subs.savingsLimit')}
                    inputMode="decimal"
                    maxLength={20}
                    value={benefit.savings}
                    onChange={(e) => set(index, { savings: e.currentTarget.value })}
                    error={errorAt(index, 'savings')}
                  />
                  <TextInput
                    label={t('loyalty.subs.usageLimit')}
                    inputMode="numeric"
                    maxLength={10}
                    value={benefit.uses}
                    onChange={(e) => set(index, { uses: e.currentTarget.value })}
                    error={errorAt(index, 'uses')}
                  />
                </>
              )}
              {drafts.length > 1 && (
                <Button variant="default" color="red" onClick={() => onChange(drafts.filter((_, i) => i !== index))}>
                  {t('loyalty.subs.removeBenefit')}
                </Button>
              )}
            </Group>
          </Stack>
        </Paper>
      ))}
      {drafts.length < MAX_BENEFITS && (
        <Group>
          <Button variant="default" onClick={() => onChange([...drafts, emptyBenefit()])}>
            {t('loyalty.subs.addBenefit')}
          </Button>
        </Group>
      )}
    </Stack>
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
