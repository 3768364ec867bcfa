import { describe, expect, it } from 'vitest';
import { mayAccess, type AccessActor, type AccessRequest, type AdminRole } from '../../../src/modules/admin-users/index.js';

const user = (role: AdminRole, shops: string[] | null = null, userId = 1): AccessActor => ({ kind: 'user', userId, role, shops });
const ask = (method: string, route: string, extra: Partial<AccessRequest> = {}): AccessRequest => ({ method, route, ...extra });

const SHOP = 'a'.repeat(30);
const OTHER = 'b'.repeat(30);
const self = { id: 1, role: 'analyst' as const };
const anOwner = { id: 2, role: 'owner' as const };
const anAnalyst = { id: 3, role: 'analyst' as const };

/** [actor, request, allowed] */
const TABLE: ReadonlyArray<[string, AccessActor, AccessRequest, boolean]> = [
  ['superuser rotates a secret', { kind: 'superuser' }, ask('POST', '/shops/:shop_id/secret', { shopId: SHOP }), true],
  ['owner creates an owner', user('owner'), ask('POST', '/users', { requestedRole: 'owner' }), true],
  ['admin creates an admin', user('admin'), ask('POST', '/users', { requestedRole: 'admin' }), true],
  ['admin creates an owner', user('admin'), ask('POST', '/users', { requestedRole: 'owner' }), false],
  ['admin promotes an analyst to owner', user('admin'), ask('PATCH', '/users/:id', { target: anAnalyst, requestedRole: 'owner' }), false],
  ['admin changes an owner', user('admin'), ask('PATCH', '/users/:id', { target: anOwner }), false],
  ['admin removes an owner', user('admin'), ask('DELETE', '/users/:id', { target: anOwner }), false],
  ['admin resets an owner', user('admin'), ask('POST', '/users/:id/invitation', { target: anOwner }), false],
  ['admin makes an owner a token', user('admin'), ask('POST', '/users/:id/tokens', { target: anOwner }), false],
  ['admin removes an analyst', user('admin'), ask('DELETE', '/users/:id', { target: anAnalyst }), true],
  ['admin rotates a secret', user('admin'), ask('POST', '/shops/:shop_id/secret', { shopId: SHOP }), true],
  ['marketer rotates a secret', user('marketer'), ask('POST', '/shops/:shop_id/secret', { shopId: SHOP }), false],
  ['marketer creates a shop', user('marketer'), ask('POST', '/shops'), false],
  ['marketer changes a shop', user('marketer'), ask('PATCH', '/shops/:shop_id', { shopId: SHOP }), false],
  ['marketer sets a channel', user('marketer'), ask('PUT', '/shops/:shop_id/channels/:channel', { shopId: SHOP }), false],
  ['marketer makes VAPID keys', user('marketer'), ask('POST', '/shops/:shop_id/channels/web_push/vapid_keys', { shopId: SHOP }), false],
  ['marketer test-sends on a channel', user('marketer'), ask('POST', '/shops/:shop_id/channels/:channel/test', { shopId: SHOP }), true],
  ['analyst test-sends on a channel', user('analyst'), ask('POST', '/shops/:shop_id/channels/:channel/test', { shopId: SHOP }), false],
  ["analyst reads the channels' health", user('analyst'), ask('GET', '/shops/:shop_id/channels', { shopId: SHOP }), true],
  [
    "shop-limited analyst reads another shop's channels",
    user('analyst', [SHOP]),
    ask('GET', '/shops/:shop_id/channels', { shopId: OTHER }),
    false,
  ],
  ['marketer creates a promotion', user('marketer'), ask('POST', '/shops/:shop_id/promotions', { shopId: SHOP }), true],
  ['marketer creates a campaign', user('marketer'), ask('POST', '/shops/:shop_id/mailings/bulk', { shopId: SHOP }), true],
  ['marketer counts a reachable audience', user('marketer'), ask('GET', '/shops/:shop_id/mailings/bulk/audience', { shopId: SHOP }), true],
  ['analyst counts a reachable audience', user('analyst'), ask('GET', '/shops/:shop_id/mailings/bulk/audience', { shopId: SHOP }), true],
  ["analyst reads a campaign's results", user('analyst'), ask('GET', '/shops/:shop_id/mailings/bulk/:id', { shopId: SHOP }), true],
  ['analyst creates a campaign', user('analyst'), ask('POST', '/shops/:shop_id/mailings/bulk', { shopId: SHOP }), false],
  ['marketer creates a user', user('marketer'), ask('POST', '/users', { requestedRole: 'analyst' }), false],
  ['marketer lists users', user('marketer'), ask('GET', '/users'), true],
  ["marketer lists another's tokens", user('marketer'), ask('GET', '/users/:id/tokens', { target: anAnalyst }), false],
  ['marketer makes their own token', user('marketer'), ask('POST', '/users/:id/tokens', { target: { ...self, role: 'marketer' } }), true],
  ['marketer previews a template', user('marketer'), ask('POST', '/shops/:shop_id/templates/preview', { shopId: SHOP }), true],
  ['marketer sends a test of a template', user('marketer'), ask('POST', '/shops/:shop_id/templates/test', { shopId: SHOP }), true],
  ['analyst sends a test of a template', user('analyst'), ask('POST', '/shops/:shop_id/templates/test', { shopId: SHOP }), false],
  ["analyst reads a chain's statistics", user('analyst'), ask('GET', '/shops/:shop_id/chains/:code/stats', { shopId: SHOP }), true],
  [
    "shop-limited marketer previews another shop's template",
    user('marketer', [SHOP]),
    ask('POST', '/shops/:shop_id/templates/preview', { shopId: OTHER }),
    false,
  ],
  ['analyst reads a shop', user('analyst'), ask('GET', '/shops/:shop_id', { shopId: SHOP }), true],
  ['analyst reads a dashboard', user('analyst'), ask('GET', '/shops/:shop_id/dashboard', { shopId: SHOP }), true],
  [
    "analyst downloads a funnel's CSV",
    user('analyst'),
    ask('GET', '/shops/:shop_id/dashboard/funnels/:type/:id.csv', { shopId: SHOP }),
    true,
  ],
  [
    "shop-limited analyst reads another shop's dashboard",
    user('analyst', [SHOP]),
    ask('GET', '/shops/:shop_id/dashboard', { shopId: OTHER }),
    false,
  ],
  ['analyst changes a loyalty programme', user('analyst'), ask('PUT', '/shops/:shop_id/loyalty', { shopId: SHOP }), false],
  ['analyst changes a shop', user('analyst'), ask('PATCH', '/shops/:shop_id', { shopId: SHOP }), false],
  ['analyst changes their password', user('analyst'), ask('POST', '/session/password'), true],
  ['analyst signs out', user('analyst'), ask('DELETE', '/session'), true],
  ['analyst lists their sessions', user('analyst'), ask('GET', '/session/sessions'), true],
  ['shop-limited analyst signs a session out', user('analyst', [SHOP]), ask('DELETE', '/session/sessions/:id'), true],
  ['analyst deletes their own token', user('analyst'), ask('DELETE', '/users/:id/tokens/:token_id', { target: self }), true],
  ['analyst changes their own role', user('analyst'), ask('PATCH', '/users/:id', { target: self, requestedRole: 'owner' }), false],
  ['shop-limited owner on its shop', user('owner', [SHOP]), ask('PATCH', '/shops/:shop_id', { shopId: SHOP }), true],
  ['shop-limited owner on another shop', user('owner', [SHOP]), ask('GET', '/shops/:shop_id', { shopId: OTHER }), false],
  ['shop-limited owner lists shops', user('owner', [SHOP]), ask('GET', '/shops'), true],
  ['shop-limited owner creates a shop', user('owner', [SHOP]), ask('POST', '/shops'), false],
  ['shop-limited owner creates a user', user('owner', [SHOP]), ask('POST', '/users', { requestedRole: 'analyst' }), false],
  ['shop-limited owner lists users', user('owner', [SHOP]), ask('GET', '/users'), false],
  ['shop-limited analyst reads itself', user('analyst', [SHOP]), ask('GET', '/users/:id', { target: self }), true],
  ['shop-limited user on a route with no shop', user('owner', [SHOP]), ask('GET', '/audit'), false],
];

describe('the access policy', () => {
  it.each(TABLE)('%s', (_label, actor, request, allowed) => {
    expect(mayAccess(actor, request)).toBe(allowed);
  });
});
