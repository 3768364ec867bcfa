import { Anchor, Badge, Group, Table } from '@mantine/core';
import { Link } from 'react-router';
import { usePermissions } from '../auth/permissions';
import { useI18n } from '../i18n/i18n';
import { Page } from '../ui/page';
import { Empty, Failure, Loading } from '../ui/states';
import { formatAt } from './dates';
import { InviteUser } from './invite-user';
import { ShopNames } from './shop-names';
import { useUsers } from './users.queries';

/**
 * The team: every user with their role, shops and state. GET /admin/v1/users answers them all
 * at once (a team is tens of people, not thousands: the API has no paging). A user limited to
 * some shops sees only themself there, and no invitation button.
 */
export function UsersListScreen() {
  const { t, language } = useI18n();
  const can = usePermissions();
  const users = useUsers();
  return (
    <Page title={t('people.users.title')} hint={t('people.users.hint')}>
      {can.manageUsers && <InviteUser />}
      {users.isPending && <Loading />}
      {users.isError && <Failure error={users.error} onRetry={() => void users.refetch()} />}
      {users.data && users.data.items.length === 0 && <Empty>{t('people.users.empty')}</Empty>}
      {users.data && users.data.items.length > 0 && (
        <Table.ScrollContainer minWidth={720}>
          <Table striped highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('people.email')}</Table.Th>
                <Table.Th scope="col">{t('people.role')}</Table.Th>
                <Table.Th scope="col">{t('people.shops')}</Table.Th>
                <Table.Th scope="col">{t('people.state')}</Table.Th>
                <Table.Th scope="col">{t('people.lastSignIn')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {users.data.items.map((user) => (
                <Table.Tr key={user.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/users/${user.id}`}>
                      {user.email}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{t(`role.${user.role}`)}</Table.Td>
                  <Table.Td>
                    <ShopNames shops={user.shops} />
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {user.status === 'invited' && (
                        <Badge variant="dot" color="orange">
                          {t('people.status.invited')}
                        </Badge>
                      )}
                      {user.disabled && (
                        <Badge variant="dot" color="gray">
                          {t('people.status.disabled')}
                        </Badge>
                      )}
                      {user.status === 'active' && !user.disabled && (
                        <Badge variant="dot" color="green">
                          {t('people.status.active')}
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>{user.last_sign_in_at ? formatAt(user.last_sign_in_at, null, language) : t('people.never')}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Page>
  );
}
