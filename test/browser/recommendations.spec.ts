import { BASE_URL, call, createShop } from './admin-api.js';
import { putFeed, ymlFeed } from './catalog-seed.js';
import { expect, expectAccessible, test } from './fixtures.js';
import { RecommendationsPage } from './pages/recommendations.page.js';

/** POST /push as the React Native SDK's track() sends it: JSON with the device and session beside the fields. */
async function track(shopId: string, device: { did: string; sid: string }, fields: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${BASE_URL}/push`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ shop_id: shopId, stream: null, ...fields, did: device.did, seance: device.sid, sid: device.sid }),
  });
  expect(await res.json()).toEqual({ status: 'success' });
}

test('a block made in the UI refuses a rule at its place, then shows the figures of recone events sent through /push', {
  tag: '@both-databases',
}, async ({ page, signedIn: _ }) => {
  test.setTimeout(60_000);
  const shop = await createShop(`Recommendations ${Date.now()}`);
  const recommendations = new RecommendationsPage(page);
  await recommendations.gotoBlocks(shop.shop_id);
  await expect(page.getByText('No blocks yet.')).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Last built' })).toContainText('Not built yet');
  await expectAccessible(page);

  // The models: rebuilt on request, the status polled until the build is done.
  await page.getByRole('button', { name: 'Rebuild now' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Last built' })).toContainText('Built', { timeout: 15_000 });

  // A new block whose second rule names a category but no id: the server's 422 is shown at that field.
  await page.getByRole('link', { name: 'New block' }).click();
  await page.getByLabel('Code').fill('home');
  await page.getByLabel('Title').fill('For you');
  await recommendations.pickRecommender('1', 'Bought together');
  await page.getByRole('button', { name: 'Add condition', exact: true }).click();
  await recommendations.pickCondition('2', 'the product is in a category');
  await recommendations.pickRecommender('2.then.1', 'Similar to the product');
  await page.getByRole('button', { name: 'Create block' }).click();
  await expect(recommendations.rule('2').getByText('Field `rules[1].if.item_in_category` must be a category id')).toBeVisible();
  await expectAccessible(page);

  await recommendations.rule('2').getByLabel('Category id').fill('7');
  await page.getByRole('button', { name: 'Create block' }).click();
  await expect(page.getByRole('heading', { name: 'For you (home)', level: 1 })).toBeVisible();
  const block = await call<{ id: number; rules: unknown[] }>('GET', `/admin/v1/shops/${shop.shop_id}/recommendation-blocks/home`);
  expect(block.rules).toEqual([{ recommender: 'also_bought' }, { if: { item_in_category: '7' }, then: [{ recommender: 'similar' }] }]);
  await expect(page.getByRole('region', { name: 'Preview' })).toBeVisible();
  await expect(page.getByText('Nothing counted for this block in the period.')).toBeVisible();

  // The app shows the block twice, the customer clicks it, views and carts a product from it and buys it.
  const device = await call<{ did: string; sid: string }>('GET', `/init?shop_id=${shop.shop_id}`);
  await track(shop.shop_id, device, { event: 'recone_view', campaign: block.id, inventory: ['k-1', 'k-2'], position: 0 });
  await track(shop.shop_id, device, { event: 'recone_view', campaign: block.id, inventory: ['k-1', 'k-2'], position: 0 });
  await track(shop.shop_id, device, { event: 'recone_click', campaign: block.id, inventory: ['k-1'], position: 0 });
  const fromBlock = { recommended_by: 'dynamic', recommended_code: 'home' };
  await track(shop.shop_id, device, { event: 'view', items: [{ id: 'k-1' }], ...fromBlock });
  await track(shop.shop_id, device, { event: 'cart', items: [{ id: 'k-1', amount: 2, price: 750 }], ...fromBlock });
  await track(shop.shop_id, device, { event: 'purchase', order_id: 'B-1', items: [{ id: 'k-1', amount: 2, price: 750 }] });

  await recommendations.gotoBlock(shop.shop_id, 'home', '?days=7');
  await expect(recommendations.card('Impressions')).toContainText('2');
  await expect(recommendations.card('Clicks')).toContainText('1');
  await expect(recommendations.card('Click rate')).toContainText('50%');
  await expect(recommendations.card('Added to cart')).toContainText('1');
  await expect(recommendations.card('Orders')).toContainText('1');
  await expect(recommendations.card('Revenue')).toContainText(/RUB\s1,500\.00/);
  await expect(page.getByRole('region', { name: 'By day' }).getByRole('img')).toHaveAttribute('aria-label', /Impressions: 2 in all/);
  await expectAccessible(page);
  const csv = await recommendations.download(/^Download CSV: By day/);
  expect(csv.name).toMatch(/^recommendations-home-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = csv.text.trim().split(/\r?\n/);
  expect(lines[0]).toBe('date,impressions,clicks,ctr,views,carts,orders,revenue');
  expect(lines.at(-1)).toBe('total,2,1,0.5,1,1,1,1500');

  // The rules edited on the block's page: the condition first, then saved.
  await page.getByRole('button', { name: 'Move rule 2 up' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  const saved = await call<{ rules: unknown[] }>('GET', `/admin/v1/shops/${shop.shop_id}/recommendation-blocks/home`);
  expect(saved.rules).toEqual([{ if: { item_in_category: '7' }, then: [{ recommender: 'similar' }] }, { recommender: 'also_bought' }]);

  // Deleted behind the browser's confirmation, with its figures.
  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('button', { name: 'Delete block home' }).click();
  await expect(page.getByRole('heading', { name: 'Recommendation blocks', level: 1 })).toBeVisible();
  await expect(page.getByText('No blocks yet.')).toBeVisible();
});

test('the preview shows a block’s products for a product and a customer with their recommenders, and follows saved rules', {
  tag: '@both-databases',
}, async ({ page, signedIn: _ }) => {
  const shop = await createShop(`Preview ${Date.now()}`);
  const path = `/admin/v1/shops/${shop.shop_id}/recommendation-blocks/pdp`;
  await call('PUT', path, { title: 'You may like', limit: 3, rules: [{ recommender: 'recently_viewed' }, { recommender: 'similar' }] });
  const recommendations = new RecommendationsPage(page);
  const preview = recommendations.preview();
  await recommendations.gotoBlock(shop.shop_id, 'pdp');

  // A shop without products: the block answers nothing.
  await recommendations.showPreview('');
  await expect(preview.getByText('This block answers nothing for this product and customer.')).toBeVisible();

  // Three shoes and a hat; the customer's device has viewed the hat.
  await putFeed(
    shop.shop_id,
    ymlFeed(
      [
        ['1', 'Shoes'],
        ['2', 'Hats'],
      ],
      [
        { id: 's-1', name: 'Trail runner', price: '100', category: '1' },
        { id: 's-2', name: 'Road runner', price: '105', category: '1' },
        { id: 's-3', name: 'Track runner', price: '300', category: '1' },
        { id: 'h-1', name: 'Wool hat', price: '50', category: '2' },
      ],
    ),
  );
  const device = await call<{ did: string; sid: string }>('GET', `/init?shop_id=${shop.shop_id}`);
  await track(shop.shop_id, device, { event: 'view', items: [{ id: 'h-1' }] });

  // The product picked by a part of its name; no customer: the shoes like it, nearest price first.
  await recommendations.pickPreviewProduct('trail', /s-1\s*Trail runner/);
  await recommendations.showPreview('');
  await expect(preview.getByRole('status').filter({ hasText: 'Product s-1; an anonymous visitor.' })).toBeVisible();
  await expect(recommendations.previewRows()).toHaveText([
    /^1.*Road runner\s*s-2.*Similar to the product$/,
    /^2.*Track runner\s*s-3.*Similar to the product$/,
  ]);
  await expect(preview.getByRole('link', { name: 'Road runner' })).toHaveAttribute(
    'href',
    `/admin/shops/${shop.shop_id}/products?query=s-2`,
  );
  await expectAccessible(page);

  // A customer id nobody has is refused at the customer; the device's customer gets the hat first.
  await recommendations.showPreview('999999999');
  await expect(preview.getByText('There is no customer 999999999.')).toBeVisible();
  await recommendations.showPreview(device.did);
  await expect(recommendations.previewRows()).toHaveText([
    /^1.*Wool hat\s*h-1.*Recently viewed$/,
    /^2.*Road runner.*Similar to the product$/,
    /^3.*Track runner.*Similar to the product$/,
  ]);

  // The similar rule removed and the block saved: the preview asks again by itself.
  await recommendations.rule('2').getByRole('button', { name: 'Remove rule 2' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  await expect(recommendations.previewRows()).toHaveText([/^1.*Wool hat\s*h-1.*Recently viewed$/]);
});
