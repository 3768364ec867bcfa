import { BASE_URL, call, createShop } from './admin-api.js';
import { expect, expectAccessible, test } from './fixtures.js';
import { NpsPage } from './pages/nps.page.js';

test('a channel and a category set up in the UI take a review posted as the SDK posts it, shown with its score', {
  tag: '@both-databases',
}, async ({ page, signedIn: _ }) => {
  test.setTimeout(60_000);
  const shop = await createShop(`NPS ${Date.now()}`);
  const nps = new NpsPage(page);
  await nps.gotoSettings(shop.shop_id);
  await expect(page.getByText('No channels yet.', { exact: false })).toBeVisible();
  await expectAccessible(page);

  // A malformed code is refused at its field.
  await nps.channelForm().getByLabel('Channel code').fill('bad code');
  await nps.channelForm().getByLabel('Channel name').fill('Android app');
  await nps.channelForm().getByRole('button', { name: 'Save channel' }).click();
  await expect(nps.channelForm().getByText('Field `code` must be 1 to 64')).toBeVisible();
  await nps.channelForm().getByLabel('Channel code').fill('android_app');
  await nps.channelForm().getByRole('button', { name: 'Save channel' }).click();
  await expect(page.getByRole('table', { name: 'Channels' }).getByRole('cell', { name: 'Android app', exact: true })).toBeVisible();

  await nps.categoryForm().getByLabel('Category code').fill('delivery');
  await nps.categoryForm().getByLabel('Category name').fill('Delivery');
  await nps.categoryForm().getByLabel('Question after 9–10').fill('What did you like?');
  await nps.categoryForm().getByLabel('Thank-you text after 9–10').fill('Thank you!');
  await nps.categoryForm().getByRole('button', { name: 'Add category' }).click();
  await expect(page.getByRole('table', { name: 'Categories' }).getByRole('cell', { name: 'Delivery', exact: true })).toBeVisible();
  await expectAccessible(page);

  // What the app reads, then two reviews as the React Native SDK sends them: query string, no body.
  const categories = await call<unknown[]>('GET', `/nps/categories?shop_id=${shop.shop_id}`);
  expect(categories).toEqual([
    expect.objectContaining({ code: 'delivery', promoter_question: 'What did you like?', promoter_success: 'Thank you!' }),
  ]);
  // Two customers: one review per customer, channel, category and day counts.
  for (const [rate, comment] of [
    ['10', 'Right on time'],
    ['3', ''],
  ] as const) {
    const device = await call<{ did: string; sid: string }>('GET', `/init?shop_id=${shop.shop_id}`);
    const query = new URLSearchParams({
      shop_id: shop.shop_id,
      rate,
      channel: 'android_app',
      category: 'delivery',
      order_id: '',
      comment,
      did: device.did,
    });
    const res = await fetch(`${BASE_URL}/nps/create?${query.toString()}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(await res.json()).toEqual({ status: 'success' });
  }

  await nps.gotoReviews(shop.shop_id);
  // One promoter and one detractor of two: NPS 0.
  await expect(nps.figures().getByRole('listitem').filter({ hasText: 'Answered' })).toContainText('2');
  await expect(nps.figures().getByRole('listitem').filter({ hasText: 'NPS' })).toHaveText(/NPS\s*0$/);
  await expect(nps.figures().getByRole('listitem').filter({ hasText: 'Promoters' })).toContainText('1');
  await expect(nps.reviews().getByRole('row').filter({ hasText: 'Right on time' })).toContainText('10');
  await expect(nps.reviews().getByRole('row')).toHaveCount(3);
  await page.getByRole('region', { name: 'Score' }).getByText('Show the numbers').click();
  await expect(
    page.getByRole('table', { name: 'Answers and score: the numbers' }).getByRole('row').filter({ hasText: '2' }).first(),
  ).toBeVisible();
  await expectAccessible(page);

  // Only the promoter's review when the rating starts at 9; the score does not move.
  await page.getByRole('combobox', { name: 'Rating from' }).click();
  await page.getByRole('option', { name: '9', exact: true }).click();
  await expect(nps.reviews().getByRole('row')).toHaveCount(2);
  await expect(nps.figures().getByRole('listitem').filter({ hasText: 'Answered' })).toContainText('2');
});
