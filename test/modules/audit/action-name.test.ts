import { describe, expect, it } from 'vitest';
import { actionName, singular } from '../../../src/modules/audit/domain/action-name.js';

/** The audit log's action names, derived from method and route (src/modules/audit/domain/action-name.ts). */

/** The collections the admin API lists with a GET at the same pattern (what the capture asks the router). */
const LISTED = new Set(['/admin/v1/shops', '/admin/v1/shops/:shop_id/mailings/bulk', '/admin/v1/users']);
const listed = (pattern: string) => LISTED.has(pattern);

describe('actionName', () => {
  it.each([
    ['POST', '/admin/v1/shops', 'shop.create'],
    ['PATCH', '/admin/v1/shops/:shop_id', 'shop.update'],
    ['POST', '/admin/v1/shops/:shop_id/secret', 'shop.secret.rotate'],
    ['POST', '/admin/v1/shops/:shop_id/loyalty/members/:identifier/bonuses', 'loyalty.member.bonuses.credit'],
    ['POST', '/admin/v1/shops/:shop_id/loyalty/members/:identifier/bonuses/debit', 'loyalty.member.bonuses.debit'],
    ['POST', '/admin/v1/shops/:shop_id/loyalty/members/:identifier/bonuses/write-off', 'loyalty.member.bonuses.write_off'],
    ['POST', '/admin/v1/shops/:shop_id/loyalty/members', 'loyalty.member.create'],
    ['PUT', '/admin/v1/shops/:shop_id/loyalty', 'loyalty.update'],
    ['PUT', '/admin/v1/shops/:shop_id/loyalty/levels', 'loyalty.levels.update'],
    ['PUT', '/admin/v1/shops/:shop_id/loyalty/event-rewards/:event_code', 'loyalty.event_reward.update'],
    ['DELETE', '/admin/v1/shops/:shop_id/loyalty/event-rewards/:event_code', 'loyalty.event_reward.delete'],
    ['POST', '/admin/v1/shops/:shop_id/custom-events', 'custom_event.create'],
    ['DELETE', '/admin/v1/shops/:shop_id/custom-events/:code', 'custom_event.delete'],
    ['POST', '/admin/v1/shops/:shop_id/custom-properties', 'custom_property.create'],
    ['POST', '/admin/v1/shops/:shop_id/certificate-pools', 'certificate_pool.create'],
    ['POST', '/admin/v1/shops/:shop_id/promotions/:id/promo-codes/generate', 'promotion.promo_codes.generate'],
    ['PATCH', '/admin/v1/shops/:shop_id/subscriptions/:code/plans/:plan', 'subscription.plan.update'],
    ['DELETE', '/admin/v1/shops/:shop_id/subscriptions/:code/members/:identifier', 'subscription.member.delete'],
    ['POST', '/admin/v1/shops/:shop_id/wallet/passes', 'wallet.pass.create'],
    ['POST', '/admin/v1/shops/:shop_id/mailings/bulk', 'mailings.bulk.create'],
    ['POST', '/admin/v1/shops/:shop_id/mailings/transactional/:code/preview', 'mailings.transactional.preview'],
    ['PUT', '/admin/v1/shops/:shop_id/channels/:channel', 'channel.update'],
    ['POST', '/admin/v1/shops/:shop_id/channels/web_push/vapid_keys', 'channel.web_push.vapid_keys.generate'],
    ['POST', '/admin/v1/shops/:shop_id/webhooks/endpoints/:endpoint_id/rotate-secret', 'webhooks.endpoint.rotate_secret'],
    ['POST', '/admin/v1/shops/:shop_id/webhooks/endpoints/:endpoint_id/deliveries/:delivery_id/retry', 'webhooks.endpoint.delivery.retry'],
    ['PUT', '/admin/v1/shops/:shop_id/feed', 'feed.update'],
    ['POST', '/admin/v1/users', 'user.create'],
    ['DELETE', '/admin/v1/users/:id', 'user.delete'],
    ['POST', '/admin/v1/users/:id/tokens', 'user.token.create'],
    ['DELETE', '/admin/v1/users/:id/tokens/:token_id', 'user.token.delete'],
    ['POST', '/admin/v1/session', 'session.sign_in'],
    ['DELETE', '/admin/v1/session', 'session.sign_out'],
    ['POST', '/admin/v1/session/password', 'session.password.change'],
    ['POST', '/admin/v1/invitations/:token', 'invitation.accept'],
  ])('%s %s → %s', (method, pattern, expected) => {
    expect(actionName(method, pattern, listed)).toBe(expected);
  });

  it('names a POST to a singular path the API lists as a creation, and one it does not list as the action itself', () => {
    expect(actionName('POST', '/admin/v1/shops/:shop_id/mailings/bulk', () => true)).toBe('mailings.bulk.create');
    expect(actionName('POST', '/admin/v1/shops/:shop_id/mailings/bulk', () => false)).toBe('mailings.bulk');
  });

  it('ignores a trailing slash and the scope prefix being absent', () => {
    expect(actionName('PATCH', '/admin/v1/shops/:shop_id/')).toBe('shop.update');
    expect(actionName('PATCH', '/shops/:shop_id')).toBe('shop.update');
  });
});

describe('singular', () => {
  it.each([
    ['members', 'member'],
    ['deliveries', 'delivery'],
    ['bonuses', 'bonus'],
    ['passes', 'pass'],
    ['promo-codes', 'promo-code'],
    ['status', 'status'],
    ['bulk', 'bulk'],
    ['loyalty', 'loyalty'],
  ])('%s → %s', (plural, one) => {
    expect(singular(plural)).toBe(one);
  });
});
