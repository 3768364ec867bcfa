import { Alert, Anchor, Autocomplete, Badge, Button, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMemo, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { safeHref } from '../catalog/catalog.queries';
import type { MessageKey } from '../i18n/en';
import { useI18n } from '../i18n/i18n';
import { Empty, Loading } from '../ui/states';
import { previewFailure, requestOf, sameRequest, type PreviewField, type PreviewRequest } from './preview';
import { useBlockPreview, useProductSuggestions, type PreviewAnswer, type PreviewItem } from './recommendations.queries';

/** How long typing pauses before the product picker asks for suggestions. */
const SUGGEST_AFTER_MS = 250;

/**
 * A block's preview (GET …/recommendation-blocks/{code}/preview): the products GET
 * /recommend would answer for a product in view and a customer, in order, each with the
 * recommender that put it in. Asked for by "Show"; asked again when the block is saved.
 * A read: every role may use it.
 */
export function PreviewPanel({ shopId, code }: { readonly shopId: string; readonly code: string }) {
  const { t } = useI18n();
  const [item, setItem] = useState('');
  const [customer, setCustomer] = useState('');
  const [request, setRequest] = useState<PreviewRequest | null>(null);
  const preview = useBlockPreview(shopId, code, request);
  const failure = request !== null && preview.isError ? previewFailure(preview.error, request, t) : undefined;
  const noCustomer = request !== null && preview.data?.kind === 'noCustomer';
  const at = (field: PreviewField): string | undefined => {
    if (field === 'customer' && noCustomer && !preview.isFetching)
      return t('recommendations.preview.customerNone', { customer: request.customer });
    return failure !== undefined && 'field' in failure && failure.field === field ? failure.message : undefined;
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = requestOf(item, customer);
    // The same request again is asked anew: the catalog or the customer may have changed since.
    if (sameRequest(request, next)) void preview.refetch();
    else setRequest(next);
  };

  return (
    <Stack gap="sm">
      <Text size="sm" c="gray.7">
        {t('recommendations.preview.hint')}
      </Text>
      <form onSubmit={submit} noValidate aria-label={t('recommendations.preview.form')}>
        <Group align="flex-end" wrap="wrap">
          <ProductPicker shopId={shopId} value={item} onChange={setItem} error={at('item')} />
          <TextInput
            label={t('recommendations.preview.customer')}
            description={t('recommendations.preview.customerHint')}
            maxLength={255}
            value={customer}
            onChange={(e) => setCustomer(e.currentTarget.value)}
            error={at('customer')}
            style={{ flex: 1, minWidth: 220 }}
          />
          <Button type="submit" loading={preview.isFetching}>
            {t('recommendations.preview.show')}
          </Button>
        </Group>
      </form>
      {request === null && (
        <Text size="sm" c="gray.7">
          {t('recommendations.preview.ask')}
        </Text>
      )}
      {request !== null && preview.isPending && <Loading />}
      {failure !== undefined && 'form' in failure && (
        <Alert color="red" role="alert">
          {failure.form}
        </Alert>
      )}
      {preview.data?.kind === 'shown' && !preview.isError && <Answer shopId={shopId} answer={preview.data} busy={preview.isFetching} />}
    </Stack>
  );
}

/**
 * The offer id, typed or picked from the products whose id or name holds what is typed
 * (the catalog's own search, GET …/products?query=). Anything typed is sent as it is.
 */
function ProductPicker({
  shopId,
  value,
  onChange,
  error,
}: {
  readonly shopId: string;
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly error: string | undefined;
}) {
  const { t } = useI18n();
  const [settled] = useDebouncedValue(value.trim(), SUGGEST_AFTER_MS);
  const suggestions = useProductSuggestions(shopId, settled);
  const names = useMemo(() => new Map((suggestions.data?.items ?? []).map((p) => [p.id, p.name])), [suggestions.data]);
  return (
    <Autocomplete
      label={t('recommendations.preview.item')}
      description={t('recommendations.preview.itemHint')}
      maxLength={255}
      value={value}
      onChange={onChange}
      error={error}
      data={[...names.keys()]}
      // The server has matched names as well as ids: its answer is shown as it came.
      filter={({ options }) => options}
      renderOption={({ option }) => (
        <Group gap="xs" wrap="nowrap">
          <Text size="sm" ff="monospace">
            {option.value}
          </Text>
          <Text size="sm">{names.get(option.value) ?? ''}</Text>
        </Group>
      )}
      style={{ flex: 1, minWidth: 220 }}
    />
  );
}

function Answer({
  shopId,
  answer,
  busy,
}: {
  readonly shopId: string;
  readonly answer: Extract<PreviewAnswer, { kind: 'shown' }>;
  readonly busy: boolean;
}) {
  const { t } = useI18n();
  const { preview, customer } = answer;
  return (
    <Stack gap="xs" aria-busy={busy} style={busy ? { opacity: 0.6 } : undefined}>
      <Text size="sm" role="status">
        {t('recommendations.preview.asked', {
          item:
            answer.item === '' ? t('recommendations.preview.askedNoItem') : t('recommendations.preview.askedItem', { item: answer.item }),
          customer:
            customer === null
              ? t('recommendations.preview.askedAnonymous')
              : t('recommendations.preview.askedCustomer', { label: customer.label, id: customer.profileId }),
        })}
      </Text>
      {preview.items.length === 0 ? (
        <Empty>{t('recommendations.preview.empty')}</Empty>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table striped aria-label={t('recommendations.preview.products')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('recommendations.preview.position')}</Table.Th>
                <Table.Th scope="col">{t('recommendations.preview.picture')}</Table.Th>
                <Table.Th scope="col">{t('recommendations.preview.product')}</Table.Th>
                <Table.Th scope="col">{t('recommendations.preview.price')}</Table.Th>
                <Table.Th scope="col">{t('recommendations.preview.recommender')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {preview.items.map((product, index) => (
                <ProductRow key={product.id} shopId={shopId} product={product} position={index + 1} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

function ProductRow({ shopId, product, position }: { readonly shopId: string; readonly product: PreviewItem; readonly position: number }) {
  const { t } = useI18n();
  const picture = safeHref(product.image_url);
  return (
    <Table.Tr>
      <Table.Td>{position}</Table.Td>
      <Table.Td>
        {picture ? (
          // The name beside it says what it shows.
          <img src={picture} alt="" width={48} height={48} loading="lazy" style={{ objectFit: 'contain', display: 'block' }} />
        ) : (
          <Text size="xs" c="gray.7">
            {t('recommendations.preview.noPicture')}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Stack gap={0}>
          {/* The admin catalog has no page per product: its list filtered by the offer id shows this one. */}
          <Anchor component={Link} to={`/shops/${shopId}/products?${new URLSearchParams({ query: product.id }).toString()}`}>
            {product.name ?? t('recommendations.preview.gone')}
          </Anchor>
          <Text size="xs" c="gray.7" ff="monospace">
            {product.id}
          </Text>
        </Stack>
      </Table.Td>
      <Table.Td>{product.price_formatted ?? t('common.none')}</Table.Td>
      <Table.Td>
        <Badge variant="light" color={product.recommender === 'fallback' ? 'gray' : 'blue'} style={{ textTransform: 'none' }}>
          {t(`recommendations.recommender.${product.recommender}` as MessageKey)}
        </Badge>
      </Table.Td>
    </Table.Tr>
  );
}
