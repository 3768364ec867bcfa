import { Button, Group, Paper, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import type { MessageKey } from '../i18n/en';
import { useI18n } from '../i18n/i18n';
import { checkPeriod, MAX_PERIOD_DAYS, PRESETS, type Choice, type Period, type PeriodProblem } from './period';

const PROBLEM_KEYS: Readonly<Record<PeriodProblem['kind'], MessageKey>> = {
  missing: 'dashboards.period.missing',
  invalid: 'dashboards.period.invalid',
  order: 'dashboards.period.order',
  tooLong: 'dashboards.period.tooLong',
};

/**
 * The period: the last 7, 30 or 90 days up to today in the shop's zone, or two days typed
 * in (both included, at most 366 days; a longer period is refused here, in words, before
 * the server is asked). `failure` is the server's refusal of a period, shown at its field.
 */
export function PeriodPicker({
  choice,
  period,
  timezone,
  problem,
  failure,
  onChoose,
}: {
  readonly choice: Choice;
  readonly period: Period | undefined;
  readonly timezone: string;
  /** What is wrong with a custom period read from the address. */
  readonly problem: PeriodProblem | undefined;
  readonly failure: { readonly field: 'from' | 'to'; readonly message: string } | undefined;
  readonly onChoose: (choice: Choice) => void;
}) {
  const { t } = useI18n();
  const [custom, setCustom] = useState(choice.kind === 'custom');
  const [from, setFrom] = useState(choice.kind === 'custom' ? choice.from : (period?.from ?? ''));
  const [to, setTo] = useState(choice.kind === 'custom' ? choice.to : (period?.to ?? ''));
  const [local, setLocal] = useState<PeriodProblem | null>(null);
  const shown = local ?? problem ?? null;
  const at = (field: 'from' | 'to') => {
    if (shown?.field === field) return t(PROBLEM_KEYS[shown.kind], { days: 'days' in shown ? shown.days : 0, max: MAX_PERIOD_DAYS });
    return failure?.field === field ? failure.message : undefined;
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = checkPeriod(from.trim(), to.trim());
    setLocal(found);
    if (!found) onChoose({ kind: 'custom', from: from.trim(), to: to.trim() });
  };

  const segment = custom ? 'custom' : choice.kind === 'preset' ? String(choice.days) : 'custom';
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <SegmentedControl
          aria-label={t('dashboards.period.label')}
          value={segment}
          onChange={(value) => {
            if (value === 'custom') {
              setCustom(true);
              if (period) {
                setFrom(period.from);
                setTo(period.to);
              }
              return;
            }
            setCustom(false);
            setLocal(null);
            onChoose({ kind: 'preset', days: Number(value) as (typeof PRESETS)[number] });
          }}
          data={[
            ...PRESETS.map((days) => ({ value: String(days), label: t('dashboards.period.last', { days }) })),
            { value: 'custom', label: t('dashboards.period.custom') },
          ]}
          style={{ alignSelf: 'flex-start' }}
        />
        {custom && (
          <form onSubmit={submit} noValidate>
            <Group align="flex-start">
              <TextInput
                type="date"
                label={t('dashboards.period.from')}
                value={from}
                onChange={(e) => setFrom(e.currentTarget.value)}
                error={at('from')}
                required
              />
              <TextInput
                type="date"
                label={t('dashboards.period.to')}
                value={to}
                onChange={(e) => setTo(e.currentTarget.value)}
                error={at('to')}
                required
              />
              <Button type="submit" mt={25}>
                {t('dashboards.period.show')}
              </Button>
            </Group>
          </form>
        )}
        <Text size="sm" c="gray.7">
          {t('dashboards.period.zone', { zone: timezone, max: MAX_PERIOD_DAYS })}
        </Text>
      </Stack>
    </Paper>
  );
}
