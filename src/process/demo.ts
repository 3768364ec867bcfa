import { newPromotion } from '../modules/promotions/domain/promotion.js';
import type { Shop } from '../modules/shops/domain/shop.js';
import type { Services } from '../services.js';
import { demoFeedYml } from './demo-catalog.js';
import { seedDemoSubscription } from './demo-subscription.js';

export const DEMO_SHOP_NAME = 'Demo shop';

export interface DemoContext {
  readonly services: Services;
  readonly shop: Shop;
}

/** One module's sample data for the demo shop. */
export interface DemoStep {
  /** What the step adds, for the command's output ("custom event codes"). */
  readonly name: string;
  run(context: DemoContext): Promise<void>;
}

/**
 * The demo shop's sample data, one step per module, run in this order once, right after
 * the demo shop is created. A module with something to show (a catalog feed, sliders,
 * a loyalty programme) appends its step here.
 */
export const DEMO_STEPS: readonly DemoStep[] = [
  {
    name: 'custom event codes',
    async run({ services, shop }) {
      await services.shops.createCustomEvent(shop.shopId, { code: 'newsletter_signup', name: 'Signed up for the newsletter' });
      await services.shops.createCustomEvent(shop.shopId, { code: 'review_left', name: 'Left a product review' });
    },
  },
  {
    name: 'a product catalog',
    async run({ services, shop }) {
      await services.catalog.importFeed({ shopId: shop.shopId, format: 'yml', body: demoFeedYml(), source: 'cli' });
    },
  },
  {
    name: 'a slider',
    async run({ services, shop }) {
      await services.sliders.putSlider(shop.shopId, DEMO_SLIDER_CODE, {
        width: 800,
        height: 300,
        slides: [
          {
            imageUrl: 'https://demo.patron.invalid/banners/sale.jpg',
            url: 'https://demo.patron.invalid/sale',
            content: 'Autumn sale',
            tags: ['sale'],
          },
          {
            imageUrl: 'https://demo.patron.invalid/banners/kitchen.jpg',
            url: 'https://demo.patron.invalid/kitchen',
            content: 'New in the kitchen',
          },
        ],
      });
    },
  },
  {
    name: 'a product collection',
    async run({ services, shop }) {
      await services.collections.putCollection(shop.shopId, DEMO_COLLECTION_ID, {
        name: 'New this season',
        productIds: ['1003', '1101', '2001'],
      });
    },
  },
  {
    name: 'a loyalty programme',
    async run({ services, shop }) {
      await services.loyalty.putSettings(shop.shopId, {
        rewardPercent: 500,
        maxBonusSharePercent: 5_000,
        bonusValue: 100,
        bonusLifetimeDays: 365,
        rewardPendingDays: 0,
      });
      // Two levels by purchases over a year: everyone starts at Silver, 20,000.00 makes Gold.
      await services.loyaltyLevels.putLadder(shop.shopId, {
        windowDays: 365,
        levels: [
          { code: 'silver', name: 'Silver', minTotal: 0, rewardPercent: 500 },
          { code: 'gold', name: 'Gold', minTotal: 2_000_000, rewardPercent: 700 },
        ],
      });
      // A product review (the custom event code above) earns 100.00 bonuses once.
      await services.loyaltyRewards.putRule(shop.shopId, 'review_left', 10_000);
      await services.loyalty.joinMember(shop.shopId, { phone: DEMO_MEMBER_PHONE, email: 'maria@example.org' });
      await services.loyalty.creditManual(shop.shopId, DEMO_MEMBER_PHONE, { amount: 50_000, reason: 'Welcome bonus' });
    },
  },
  {
    name: 'promotions and a promo code',
    async run({ services, shop }) {
      await services.promotions.createPromotion(
        shop.shopId,
        newPromotion({
          name: 'Kitchen week: 10% off the kitchen',
          status: 'active',
          discount: { type: 'percent', value: 1_000 },
          categoryIds: ['21'],
        }),
      );
      // 200.00 off an order of 3,000.00 or more, through the code WELCOME.
      const byCode = await services.promotions.createPromotion(
        shop.shopId,
        newPromotion({
          name: 'Welcome: 200 off',
          status: 'active',
          discount: { type: 'fixed', value: 20_000 },
          minOrderTotal: 300_000,
          byPromoCode: true,
        }),
      );
      await services.promoCodes.createCode(shop.shopId, DEMO_PROMO_CODE, byCode.id, { usageLimit: null });
    },
  },
  {
    name: 'a paid subscription',
    run: (context) => seedDemoSubscription(context, DEMO_MEMBER_PHONE),
  },
  {
    name: 'recommendation blocks',
    async run({ services, shop }) {
      // A product page's block and a home screen's: with no events yet, similar finds the
      // product's neighbours in the catalog and popular follows the feed's order; bought
      // together and the personal lists join in as the shop's events arrive (daily build).
      await services.recommendationBlocks.putBlock(shop.shopId, DEMO_PRODUCT_BLOCK, {
        name: 'Product page',
        title: 'You may also like',
        limit: 6,
        rules: [{ if: { has_item: true }, then: [{ recommender: 'also_bought' }, { recommender: 'similar' }] }, { recommender: 'popular' }],
      });
      await services.recommendationBlocks.putBlock(shop.shopId, 'home', {
        name: 'Home screen',
        title: 'Picked for you',
        limit: 10,
        rules: [{ recommender: 'recently_viewed' }, { recommender: 'interesting' }],
      });
    },
  },
  {
    name: 'a story set and NPS questions',
    async run({ services, shop }) {
      // The home screen's stories (GET /stories/home): a sale with a carousel and a product
      // with the promo code above. Pictures are placeholders on a domain that never answers.
      await services.storySets.putSet(shop.shopId, DEMO_STORY_SET, {
        name: 'Home screen',
        stories: [
          {
            name: 'Kitchen week',
            avatar: 'https://demo.patron.invalid/stories/kitchen.jpg',
            pinned: true,
            slides: [
              {
                type: 'image',
                background: 'https://demo.patron.invalid/stories/kitchen-1.jpg',
                duration: 7,
                elements: [
                  { type: 'header', title: 'Kitchen week' },
                  { type: 'products', item_ids: ['2001', '2002'] },
                ],
              },
              {
                type: 'image',
                background: 'https://demo.patron.invalid/stories/kitchen-2.jpg',
                elements: [{ type: 'product', item_id: '1003', promocode: DEMO_PROMO_CODE }],
              },
            ],
          },
        ],
      });
      // The channels the SDKs name by default (the app's platform) and one question.
      for (const [code, name] of [
        ['ios_app', 'iOS app'],
        ['android_app', 'Android app'],
        ['web', 'Website'],
      ] as const) {
        await services.npsSettings.putChannel(shop.shopId, code, { name });
      }
      await services.npsSettings.putCategory(shop.shopId, DEMO_NPS_CATEGORY, {
        name: 'Delivery',
        detractor_question: 'What went wrong with your delivery?',
        passive_question: 'What would make delivery better?',
        promoter_question: 'What did you like about delivery?',
        promoter_success: 'Thank you!',
      });
    },
  },
  {
    name: 'a transactional mailing',
    async run({ services, shop }) {
      // No channel is configured: where mail goes is the operator's choice (the welcome
      // block shows how to point email at a local SMTP catcher). Until then a /transact
      // answers its code and the delivery log says the channel is not configured.
      await services.mailings.putMailing(shop.shopId, DEMO_MAILING_CODE, {
        name: 'Order placed',
        templates: {
          email: {
            subject: 'Order {{ order_id }} is placed',
            html:
              '<mjml><mj-body><mj-section><mj-column>' +
              '<mj-text>Hello {{ profile.first_name | default: "there" }},</mj-text>' +
              '<mj-text>thank you for order {{ order_id }}. To pay: {{ total }}.</mj-text>' +
              '</mj-column></mj-section></mj-body></mjml>',
            text: 'Hello {{ profile.first_name | default: "there" }},\nthank you for order {{ order_id }}. To pay: {{ total }}.',
          },
          sms: { body: 'Order {{ order_id }} is placed. To pay: {{ total }}.' },
        },
      });
    },
  },
];

/** The demo's transactional mailing (email and SMS), sent by the welcome block's /transact line. */
export const DEMO_MAILING_CODE = 'order_placed';
export const DEMO_PROMO_CODE = 'WELCOME';
export const DEMO_SLIDER_CODE = 'main_banner';
/** The demo programme's member (normalised phone), with 500.00 bonuses. */
export const DEMO_MEMBER_PHONE = '79001234567';
export const DEMO_COLLECTION_ID = 'new_in';
/** The demo's story set and NPS category, asked for by the welcome block's /stories and /nps/create lines. */
export const DEMO_STORY_SET = 'home';
export const DEMO_NPS_CATEGORY = 'delivery';
/** The demo's product-page recommendation block, asked for by the welcome block's /recommend line. */
export const DEMO_PRODUCT_BLOCK = 'product_page';

export type DemoOutcome =
  | { readonly kind: 'created'; readonly shop: Shop; readonly secret: string; readonly steps: readonly string[] }
  | { readonly kind: 'exists'; readonly shop: Shop };

/** Creates the demo shop and its sample data, unless a shop with the demo name exists. */
export async function seedDemo(services: Services, steps: readonly DemoStep[] = DEMO_STEPS): Promise<DemoOutcome> {
  const existing = (await services.shops.listShops()).find((shop) => shop.name === DEMO_SHOP_NAME);
  if (existing) return { kind: 'exists', shop: existing };
  const { shop, secret } = await services.shops.createShop({ name: DEMO_SHOP_NAME });
  for (const step of steps) await step.run({ services, shop });
  return { kind: 'created', shop, secret, steps: steps.map((s) => s.name) };
}
