import { Button, Checkbox, Fieldset, Group, Paper, SegmentedControl, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { api, unwrap } from '../api/client';
import type { ShopLocale } from '../i18n/format';
import { useI18n } from '../i18n/i18n';
import { failureAt } from './form';
import { loyaltyKeys, type Promotion } from './loyalty.queries';
import { isoToLocal, localToIso, parseUnits } from './money';
import { FormAlert, Saved } from './parts';
import { listOf, percentOf, specialPricesOf, specialPricesText, timeOfDayOf } from './promotion-conditions';
import { statusOptions, type PromotionStatus } from './promotions.screen';

const FIELDS = [
  'name',
  'status',
  'discount',
  'starts_at',
  'ends_at',
  'priority',
  'min_order_total',
  'product_ids',
  'category_ids',
  'streams',
  'payment_types',
  'locations',
  'member_levels',
  'time_of_day',
  'bonus_reward_percent',
  'special_prices',
] as const;
type Field = (typeof FIELDS)[number];

const list = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter((s) => s !== '');

/**
 * A promotion whole: a percent or fixed discount, automatic or by promo code, on everything
 * or on some products or categories, with dates in the shop's time zone and a minimum order,
 * and the further conditions of promotion-conditions.ts. Amounts are currency units, as the
 * API takes them (docs/promotions.md).
 */
export function PromotionForm({
  shopId,
  shop,
  promotion,
}: {
  readonly shopId: string;
  readonly shop: ShopLocale;
  readonly promotion?: Promotion;
}) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState(promotion?.name ?? '');
  const [status, setStatus] = useState<PromotionStatus>(promotion?.status ?? 'draft');
  const [kind, setKind] = useState<'percent' | 'fixed'>(promotion?.discount.type ?? 'percent');
  const [value, setValue] = useState(promotion ? String(promotion.discount.value) : '');
  const [startsAt, setStartsAt] = useState(promotion?.starts_at ? isoToLocal(promotion.starts_at, shop.timezone) : '');
  const [endsAt, setEndsAt] = useState(promotion?.ends_at ? isoToLocal(promotion.ends_at, shop.timezone) : '');
  const [byCode, setByCode] = useState(promotion?.by_promo_code ?? false);
  const [minTotal, setMinTotal] = useState(promotion?.min_order_total == null ? '' : String(promotion.min_order_total));
  const [products, setProducts] = useState(promotion?.product_ids.join(', ') ?? '');
  const [categories, setCategories] = useState(promotion?.category_ids.join(', ') ?? '');
  const [priority, setPriority] = useState(String(promotion?.priority ?? 0));
  const [streams, setStreams] = useState(promotion?.streams.join(', ') ?? '');
  const [paymentTypes, setPaymentTypes] = useState(promotion?.payment_types.join(', ') ?? '');
  const [locations, setLocations] = useState(promotion?.locations.join(', ') ?? '');
  const [levels, setLevels] = useState(promotion?.member_levels.join(', ') ?? '');
  const [firstOrder, setFirstOrder] = useState(promotion?.first_order_only ?? false);
  const [fromTime, setFromTime] = useState(promotion?.time_of_day?.from ?? '');
  const [toTime, setToTime] = useState(promotion?.time_of_day?.to ?? '');
  const [bonusPercent, setBonusPercent] = useState(promotion?.bonus_reward_percent ? String(promotion.bonus_reward_percent) : '');
  const [specialPrices, setSpecialPrices] = useState(specialPricesText(promotion?.special_prices ?? {}));
  const [local, setLocal] = useState<{ field: Field; message: string } | null>(null);
  const [saved, setSaved] = useState(false);

  const save = useMutation({
    mutationFn: async (body: Record<string, unknown>) => {
      if (promotion) {
        return unwrap(
          api.PATCH('/admin/v1/shops/{shop_id}/promotions/{id}', {
            params: { path: { shop_id: shopId, id: String(promotion.id) } },
            body: body as never,
          }),
        ).then((p) => p.id);
      }
      return unwrap(api.POST('/admin/v1/shops/{shop_id}/promotions', { params: { path: { shop_id: shopId } }, body: body as never })).then(
        (p) => p.id,
      );
    },
    onSuccess: (id) => {
      void queryClient.invalidateQueries({ queryKey: loyaltyKeys.promotions(shopId) });
      if (promotion) setSaved(true);
      else void navigate(`/shops/${shopId}/promotions/${id}`);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    setLocal(null);
    const amount = parseUnits(value);
    if (amount === null) return setLocal({ field: 'discount', message: t('loyalty.amountInvalid') });
    const min = minTotal.trim() === '' ? null : parseUnits(minTotal);
    if (min === null && minTotal.trim() !== '') return setLocal({ field: 'min_order_total', message: t('loyalty.amountInvalid') });
    const window = timeOfDayOf(fromTime, toTime);
    if (window === undefined) return setLocal({ field: 'time_of_day', message: t('loyalty.promo.timeOfDayInvalid') });
    const bonus = percentOf(bonusPercent);
    if (bonus === undefined) return setLocal({ field: 'bonus_reward_percent', message: t('loyalty.promo.percentInvalid') });
    const special = specialPricesOf(specialPrices);
    if ('badLine' in special)
      return setLocal({ field: 'special_prices', message: t('loyalty.promo.specialPriceInvalid', { line: special.badLine }) });
    const starts = startsAt === '' ? null : localToIso(startsAt, shop.timezone);
    const ends = endsAt === '' ? null : localToIso(endsAt, shop.timezone);
    const body: Record<string, unknown> = {
      name: name.trim(),
      status,
      discount: { type: kind, value: amount },
      by_promo_code: byCode,
      priority: Number.parseInt(priority, 10) || 0,
      product_ids: list(products),
      category_ids: list(categories),
      streams: listOf(streams),
      payment_types: listOf(paymentTypes),
      locations: listOf(locations),
      member_levels: listOf(levels),
      first_order_only: firstOrder,
      bonus_reward_percent: bonus,
      special_prices: special.prices,
    };
    // A PATCH clears with null; a create leaves the field out.
    if (promotion || starts !== null) body.starts_at = starts;
    if (promotion || ends !== null) body.ends_at = ends;
    if (promotion || min !== null) body.min_order_total = min;
    if (promotion || window !== null) body.time_of_day = window;
    save.mutate(body);
  };

  const failure = failureAt(save.error, FIELDS, t);
  const at = (field: Field) => (local?.field === field ? local.message : failure.field?.name === field ? failure.field.message : undefined);
  return (
    <Paper withBorder p="md">
      <form onSubmit={submit} noValidate>
        <Stack maw={640}>
          <FormAlert message={failure.form} />
          <Saved shown={saved && !save.isPending}>{t('loyalty.saved')}</Saved>
          <TextInput
            label={t('loyalty.promo.name')}
            required
            maxLength={255}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={at('name')}
          />
          <Select
            label={t('loyalty.promo.status')}
            data={statusOptions(t)}
            value={status}
            onChange={(v) => v && setStatus(v)}
            allowDeselect={false}
            error={at('status')}
          />
          <Group align="flex-end" grow>
            <Stack gap={4}>
              <SegmentedControl
                aria-label={t('loyalty.promo.discountType')}
                value={kind}
                onChange={(v) => setKind(v)}
                data={[
                  { value: 'percent', label: t('loyalty.promo.percent') },
                  { value: 'fixed', label: t('loyalty.promo.fixed', { currency: shop.currency }) },
                ]}
              />
            </Stack>
            <TextInput
              label={kind === 'percent' ? t('loyalty.promo.percentValue') : t('loyalty.promo.fixedValue', { currency: shop.currency })}
              required
              inputMode="decimal"
              maxLength={20}
              value={value}
              onChange={(e) => setValue(e.currentTarget.value)}
              error={at('discount')}
            />
          </Group>
          <Checkbox label={t('loyalty.promo.byCodeLong')} checked={byCode} onChange={(e) => setByCode(e.currentTarget.checked)} />
          <Group grow align="flex-start">
            <TextInput
              type="datetime-local"
              label={t('loyalty.promo.startsAt', { zone: shop.timezone })}
              value={startsAt}
              onChange={(e) => setStartsAt(e.currentTarget.value)}
              error={at('starts_at')}
            />
            <TextInput
              type="datetime-local"
              label={t('loyalty.promo.endsAt', { zone: shop.timezone })}
              value={endsAt}
              onChange={(e) => setEndsAt(e.currentTarget.value)}
              error={at('ends_at')}
            />
          </Group>
          <Group grow align="flex-start">
            <TextInput
              label={t('loyalty.promo.minTotal', { currency: shop.currency })}
              inputMode="decimal"
              maxLength={20}
              value={minTotal}
              onChange={(e) => setMinTotal(e.currentTarget.value)}
              error={at('min_order_total')}
            />
            <TextInput
              label={t('loyalty.promo.priority')}
              inputMode="numeric"
              maxLength={8}
              value={priority}
              onChange={(e) => setPriority(e.currentTarget.value)}
              error={at('priority')}
            />
          </Group>
          <Textarea
            label={t('loyalty.promo.products')}
            description={t('loyalty.promo.idsHint')}
            autosize
            maxRows={6}
            value={products}
            onChange={(e) => setProducts(e.currentTarget.value)}
            error={at('product_ids')}
          />
          <Textarea
            label={t('loyalty.promo.categories')}
            description={t('loyalty.promo.idsHint')}
            autosize
            maxRows={6}
            value={categories}
            onChange={(e) => setCategories(e.currentTarget.value)}
            error={at('category_ids')}
          />
          <Fieldset legend={t('loyalty.promo.conditions')}>
            <Stack gap="sm">
              <Checkbox
                label={t('loyalty.promo.firstOrder')}
                checked={firstOrder}
                onChange={(e) => setFirstOrder(e.currentTarget.checked)}
              />
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                {(
                  [
                    ['streams', t('loyalty.promo.streams'), streams, setStreams],
                    ['payment_types', t('loyalty.promo.paymentTypes'), paymentTypes, setPaymentTypes],
                    ['locations', t('loyalty.promo.locations'), locations, setLocations],
                    ['member_levels', t('loyalty.promo.levels'), levels, setLevels],
                  ] as const
                ).map(([field, label, text, setText]) => (
                  <TextInput
                    key={field}
                    label={label}
                    description={t('loyalty.promo.listHint')}
                    maxLength={4000}
                    value={text}
                    onChange={(e) => setText(e.currentTarget.value)}
                    error={at(field)}
                  />
                ))}
              </SimpleGrid>
              <Group grow align="flex-start">
                <TextInput
                  type="time"
                  label={t('loyalty.promo.fromTime', { zone: shop.timezone })}
                  value={fromTime}
                  onChange={(e) => setFromTime(e.currentTarget.value)}
                  error={at('time_of_day')}
                />
                <TextInput
                  type="time"
                  label={t('loyalty.promo.toTime', { zone: shop.timezone })}
                  description={t('loyalty.promo.timeHint')}
                  value={toTime}
                  onChange={(e) => setToTime(e.currentTarget.value)}
                />
              </Group>
              <TextInput
                label={t('loyalty.promo.bonusPercent')}
                inputMode="decimal"
                maxLength={6}
                value={bonusPercent}
                onChange={(e) => setBonusPercent(e.currentTarget.value)}
                error={at('bonus_reward_percent')}
              />
              <Textarea
                label={t('loyalty.promo.specialPrices', { currency: shop.currency })}
                description={t('loyalty.promo.specialPricesHint')}
                autosize
                minRows={2}
                maxRows={10}
                value={specialPrices}
                onChange={(e) => setSpecialPrices(e.currentTarget.value)}
                error={at('special_prices')}
              />
            </Stack>
          </Fieldset>
          <Group>
            <Button type="submit" loading={save.isPending}>
              {promotion ? t('loyalty.save') : t('loyalty.promo.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
