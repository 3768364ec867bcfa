import { ActionIcon, Button, Group, Paper, Stack, Table, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../api/client';
import type { ShopLocale } from '../i18n/format';
import { useI18n } from '../i18n/i18n';
import { Empty, Failure, Loading } from '../ui/states';
import { failureAt } from './form';
import { loyaltyKeys, type Ladder } from './loyalty.queries';
import { parseUnits } from './money';
import { FormAlert, Saved } from './parts';

interface Row {
  readonly code: string;
  readonly name: string;
  readonly min_total: string;
  readonly reward_percent: string;
}

/** The levels of the programme, edited as a whole (PUT replaces the ladder; every member's level is recomputed). */
export function Levels({ shopId, shop }: { readonly shopId: string; readonly shop: ShopLocale }) {
  const { t } = useI18n();
  const ladder = useQuery({
    queryKey: loyaltyKeys.levels(shopId),
    queryFn: () => unwrap(api.GET('/admin/v1/shops/{shop_id}/loyalty/levels', { params: { path: { shop_id: shopId } } })),
  });
  return (
    <Stack gap="sm">
      <Title order={2} size="h3">
        {t('loyalty.levels.title')}
      </Title>
      {ladder.isPending && <Loading />}
      {ladder.isError && <Failure error={ladder.error} onRetry={() => void ladder.refetch()} />}
      {ladder.data && <LevelsForm shopId={shopId} shop={shop} ladder={ladder.data} />}
    </Stack>
  );
}

function LevelsForm({ shopId, shop, ladder }: { readonly shopId: string; readonly shop: ShopLocale; readonly ladder: Ladder }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [windowDays, setWindowDays] = useState(String(ladder.window_days));
  const [rows, setRows] = useState<Row[]>(
    ladder.levels.map((l) => ({ code: l.code, name: l.name, min_total: String(l.min_total), reward_percent: String(l.reward_percent) })),
  );
  const [local, setLocal] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const save = useMutation({
    mutationFn: (body: Ladder) =>
      unwrap(api.PUT('/admin/v1/shops/{shop_id}/loyalty/levels', { params: { path: { shop_id: shopId } }, body })),
    onSuccess: (answer) => {
      queryClient.setQueryData(loyaltyKeys.levels(shopId), answer);
      setSaved(true);
    },
  });
  const set = (index: number, field: keyof Row, value: string) =>
    setRows((all) => all.map((r, i) => (i === index ? { ...r, [field]: value } : r)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    setLocal(null);
    const levels = [];
    for (const r of rows) {
      const min = parseUnits(r.min_total);
      const percent = parseUnits(r.reward_percent);
      if (min === null || percent === null) return setLocal(t('loyalty.levels.invalid', { code: r.code || '?' }));
      levels.push({ code: r.code.trim(), name: r.name.trim(), min_total: min, reward_percent: percent });
    }
    save.mutate({ window_days: Number.parseInt(windowDays, 10), levels });
  };
  const failure = failureAt(save.error, ['levels', 'window_days'] as const, t);
  return (
    <Paper withBorder p="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <FormAlert message={local ?? failure.form ?? (failure.field?.name === 'levels' ? failure.field.message : undefined)} />
          <Saved shown={saved && !save.isPending}>{t('loyalty.saved')}</Saved>
          <TextInput
            label={t('loyalty.levels.window')}
            inputMode="numeric"
            maxLength={5}
            w={240}
            value={windowDays}
            onChange={(e) => setWindowDays(e.currentTarget.value)}
            error={failure.field?.name === 'window_days' ? failure.field.message : undefined}
          />
          {rows.length === 0 && <Empty>{t('loyalty.levels.empty')}</Empty>}
          {rows.length > 0 && (
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('loyalty.levels.code')}</Table.Th>
                  <Table.Th scope="col">{t('loyalty.levels.name')}</Table.Th>
                  <Table.Th scope="col">{t('loyalty.levels.minTotal', { currency: shop.currency })}</Table.Th>
                  <Table.Th scope="col">{t('loyalty.levels.reward')}</Table.Th>
                  <Table.Th scope="col">
                    <VisuallyHidden>{t('loyalty.levels.remove')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((r, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place; their codes change as typed
                  <Table.Tr key={i}>
                    <Table.Td>
                      <TextInput
                        aria-label={t('loyalty.levels.codeOf', { n: i + 1 })}
                        maxLength={32}
                        value={r.code}
                        onChange={(e) => set(i, 'code', e.currentTarget.value)}
                      />
                    </Table.Td>
                    <Table.Td>
                      <TextInput
                        aria-label={t('loyalty.levels.nameOf', { n: i + 1 })}
                        maxLength={100}
                        value={r.name}
                        onChange={(e) => set(i, 'name', e.currentTarget.value)}
                      />
                    </Table.Td>
                    <Table.Td>
                      <TextInput
                        aria-label={t('loyalty.levels.minTotalOf', { n: i + 1 })}
                        inputMode="decimal"
                        maxLength={20}
                        value={r.min_total}
                        onChange={(e) => set(i, 'min_total', e.currentTarget.value)}
                      />
                    </Table.Td>
                    <Table.Td>
                      <TextInput
                        aria-label={t('loyalty.levels.rewardOf', { n: i + 1 })}
                        inputMode="decimal"
                        maxLength={6}
                        value={r.reward_percent}
                        onChange={(e) => set(i, 'reward_percent', e.currentTarget.value)}
                      />
                    </Table.Td>
                    <Table.Td>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t('loyalty.levels.removeOf', { n: i + 1 })}
                        onClick={() => setRows((all) => all.filter((_, j) => j !== i))}
                      >
                        ×
                      </ActionIcon>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          <Group>
            <Button variant="default" onClick={() => setRows((all) => [...all, { code: '', name: '', min_total: '', reward_percent: '' }])}>
              {t('loyalty.levels.add')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('loyalty.levels.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
