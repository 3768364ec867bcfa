import { Badge, Group, Text } from '@mantine/core';
import { useI18n } from '../i18n/i18n';
import { useShops } from '../shops/shop.queries';

/** A user's shops by name (the shops they can open), "every shop" for null. */
export function ShopNames({ shops }: { readonly shops: readonly string[] | null }) {
  const { t } = useI18n();
  const all = useShops();
  if (shops === null) return <Text size="sm">{t('people.allShops')}</Text>;
  if (shops.length === 0) return <Text size="sm">{t('people.noShops')}</Text>;
  const names = new Map((all.data?.shops ?? []).map((shop) => [shop.shop_id, shop.name]));
  return (
    <Group gap={4}>
      {shops.map((id) => (
        <Badge key={id} variant="default" tt="none">
          {names.get(id) ?? id}
        </Badge>
      ))}
    </Group>
  );
}
