import { AppShell, Burger, Group, Menu, NavLink, ScrollArea, Select, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Suspense, type ReactNode } from 'react';
import { Link, Outlet, useLocation, useMatch, useNavigate } from 'react-router';
import { permissionsOf } from '../auth/permissions';
import { useSignOut, type SessionUser } from '../auth/session';
import { LANGUAGES, useI18n } from '../i18n/i18n';
import { useShops } from '../shops/shop.queries';
import { activeOf } from './nav';
import { Loading } from './states';

/** The frame of every signed-in screen: side navigation by section, the shop picker and the user menu. */
export function Shell({ user }: { readonly user: SessionUser }) {
  const { t } = useI18n();
  const [opened, { toggle, close }] = useDisclosure(false);
  const location = useLocation();
  const shopMatch = useMatch('/shops/:shopId/*');
  const shopId = shopMatch?.params.shopId;
  const can = permissionsOf(user);

  // The shop's sections, grouped as the team thinks of them. The link whose path is the
  // longest prefix of the page's is the active one (a member's page keeps "Loyalty members"
  // lit, and "Products" is not lit on "Hidden products").
  const groups: readonly { readonly title: string; readonly links: readonly (readonly [string, string])[] }[] = [
    { title: t('dashboards.nav.group'), links: [['dashboard', t('dashboards.nav.dashboard')]] },
    {
      title: t('nav.group.shop'),
      links: [
        ['settings', t('nav.settings')],
        ['integration', t('nav.integration')],
        ['event-codes', t('nav.eventCodes')],
      ],
    },
    {
      title: t('nav.group.customers'),
      links: [
        ['customers', t('nav.customers')],
        ['segments', t('nav.segments')],
        ['imports', t('nav.imports')],
      ],
    },
    {
      title: t('nav.group.catalog'),
      links: [
        ['feed', t('nav.catalog.feed')],
        ['products', t('nav.catalog.products')],
        ['products/hidden', t('nav.catalog.hidden')],
        ['categories', t('nav.catalog.categories')],
        ['search/no-results', t('nav.catalog.noResults')],
        ['sliders', t('nav.catalog.sliders')],
      ],
    },
    {
      title: t('recommendations.nav.group'),
      links: [
        ['recommendations', t('recommendations.nav.blocks')],
        ['stories', t('stories.nav')],
      ],
    },
    {
      title: t('nps.nav.group'),
      links: [
        ['nps', t('nps.nav.reviews')],
        ['nps/settings', t('nps.nav.settings')],
      ],
    },
    {
      title: t('nav.group.loyalty'),
      links: [
        ['loyalty', t('loyalty.nav.programme')],
        ['loyalty/members', t('loyalty.nav.members')],
        ['promotions', t('loyalty.nav.promotions')],
        ['certificates', t('loyalty.nav.certificates')],
        ['subscriptions', t('loyalty.nav.subscriptions')],
      ],
    },
    {
      // Messaging: each section adds its link here, in the order a marketer works.
      title: t('messaging.nav.group'),
      links: [
        ['transactional', t('transactional.nav')],
        ['chains', t('chains.nav.chains')],
        ['campaigns', t('campaigns.nav.campaigns')],
        ['popups', t('popups.nav')],
        ['messages', t('messaging.nav.log')],
        ['channels', t('messaging.nav.channels')],
        ['webhooks', t('messaging.nav.webhooks')],
      ],
    },
  ];
  const activeSection = shopId === undefined ? undefined : activeOf(location.pathname, `/shops/${shopId}/`, groups);

  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('nav.openMenu')} />
            <Text fw={700} component={Link} to="/shops">
              {t('app.name')}
            </Text>
            <ShopPicker shopId={shopId} />
          </Group>
          <UserMenu user={user} />
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label={t('nav.main')}>
        <AppShell.Section grow component={ScrollArea}>
          {shopId === undefined ? (
            <Text size="sm" c="gray.7" p="sm">
              {t('nav.noShop')}
            </Text>
          ) : (
            groups.map((group) => (
              <div key={group.title}>
                <NavGroupTitle>{group.title}</NavGroupTitle>
                {group.links.map(([section, label]) => (
                  <NavLink
                    key={section}
                    component={Link}
                    to={`/shops/${shopId}/${section}`}
                    label={label}
                    active={activeSection === section}
                    onClick={close}
                  />
                ))}
              </div>
            ))
          )}
          <NavGroupTitle>{t('nav.group.admin')}</NavGroupTitle>
          <NavLink component={Link} to="/shops" label={t('nav.shops')} active={location.pathname === '/shops'} onClick={close} />
          {can.manageUsers && (
            <NavLink
              component={Link}
              to="/users"
              label={t('people.nav.users')}
              active={location.pathname.startsWith('/users')}
              onClick={close}
            />
          )}
          {can.readAudit && (
            <NavLink component={Link} to="/audit" label={t('people.nav.audit')} active={location.pathname === '/audit'} onClick={close} />
          )}
          <NavLink
            component={Link}
            to="/account"
            label={t('people.nav.account')}
            active={location.pathname === '/account'}
            onClick={close}
          />
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main id="main">
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}

function ShopPicker({ shopId }: { readonly shopId: string | undefined }) {
  const { t } = useI18n();
  const shops = useShops();
  const navigate = useNavigate();
  const section = useMatch('/shops/:shopId/:section/*')?.params.section ?? 'settings';
  const data = (shops.data?.shops ?? []).map((shop) => ({ value: shop.shop_id, label: shop.name }));
  return (
    <Select
      aria-label={t('nav.shopPicker')}
      placeholder={t('nav.pickShop')}
      data={data}
      value={shopId ?? null}
      onChange={(value) => {
        if (value) void navigate(`/shops/${value}/${section}`);
      }}
      searchable
      size="xs"
      w={220}
      visibleFrom="xs"
      allowDeselect={false}
    />
  );
}

function UserMenu({ user }: { readonly user: SessionUser }) {
  const { t, language, setLanguage } = useI18n();
  const signOut = useSignOut();
  const navigate = useNavigate();
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <UnstyledButton aria-label={t('nav.userMenu')}>
          <Text size="sm">{user.email}</Text>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('lang.label')}</Menu.Label>
        {LANGUAGES.map((code) => (
          <Menu.Item key={code} onClick={() => setLanguage(code)} aria-current={code === language ? 'true' : undefined} lang={code}>
            {t(`lang.${code}`)}
          </Menu.Item>
        ))}
        <Menu.Divider />
        <Menu.Item component={Link} to="/account">
          {t('people.nav.account')}
        </Menu.Item>
        <Menu.Item
          onClick={() => {
            void signOut().then(() => navigate('/sign-in'));
          }}
        >
          {t('auth.signOut')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

function NavGroupTitle({ children }: { readonly children: ReactNode }) {
  return (
    <Text size="xs" fw={700} tt="uppercase" c="gray.7" px="sm" pt="sm" pb={4}>
      {children}
    </Text>
  );
}
