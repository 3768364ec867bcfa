import { Checkbox, MultiSelect, Select, Stack } from '@mantine/core';
import { useSession } from '../auth/session';
import { mayManageRole } from '../auth/permissions';
import { useI18n } from '../i18n/i18n';
import { useShops } from '../shops/shop.queries';
import { ROLES, type UserRole } from './users.queries';

/** The role (only those the signed-in user may give) and the shops a user is limited to (null: every shop). */
export function RoleShopsFields({
  role,
  shops,
  onRole,
  onShops,
  errors,
}: {
  readonly role: UserRole;
  readonly shops: readonly string[] | null;
  readonly onRole: (role: UserRole) => void;
  readonly onShops: (shops: string[] | null) => void;
  readonly errors: { readonly role?: string; readonly shops?: string };
}) {
  const { t } = useI18n();
  const actor = useSession().data?.user.role;
  const all = useShops();
  const options = ROLES.filter((r) => r === role || mayManageRole(actor, r)).map((r) => ({ value: r, label: t(`role.${r}`) }));
  const shopOptions = (all.data?.shops ?? []).map((shop) => ({ value: shop.shop_id, label: shop.name }));
  return (
    <Stack gap="sm">
      <Select
        label={t('people.role')}
        description={t(`people.roleHint.${role}`)}
        data={options}
        value={role}
        onChange={(value) => value && onRole(value)}
        allowDeselect={false}
        error={errors.role}
      />
      <Checkbox label={t('people.everyShop')} checked={shops === null} onChange={(e) => onShops(e.currentTarget.checked ? null : [])} />
      {shops !== null && (
        <MultiSelect
          label={t('people.limitedTo')}
          placeholder={t('people.pickShops')}
          data={shopOptions}
          value={[...shops]}
          onChange={onShops}
          searchable
          error={errors.shops}
        />
      )}
    </Stack>
  );
}
