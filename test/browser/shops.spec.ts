import { createShop, secretWorks } from './admin-api.js';
import { expect, expectAccessible, test } from './fixtures.js';
import { ShopsPage } from './pages/shops.page.js';

test('the shops list shows script in a shop name as text, never running it', async ({ page, signedIn: _ }) => {
  const name = `<img src=x onerror="window.__patronXss=1"><script>window.__patronXss=2</script> Shop ${Date.now()}`;
  await createShop(name);
  const shops = new ShopsPage(page);
  await shops.gotoList();
  await expect(shops.linkTo(name)).toBeVisible();
  expect(await page.evaluate('window.__patronXss')).toBeUndefined();
  await expectAccessible(page);
});

test('rotating the secret asks first, then shows the new secret once; only the new one works', async ({ page, signedIn: _ }) => {
  const shop = await createShop(`Rotation ${Date.now()}`);
  const shops = new ShopsPage(page);
  await shops.gotoSettings(shop.shop_id);
  await expectAccessible(page);

  await shops.openRotation();
  await expectAccessible(page);
  await shops.cancelRotation();
  expect(await secretWorks(shop.shop_id, shop.shop_secret)).toBe(true);

  await shops.openRotation();
  const secret = await shops.confirmRotation();
  expect(secret).not.toBe(shop.shop_secret);
  expect(await secretWorks(shop.shop_id, secret)).toBe(true);
  expect(await secretWorks(shop.shop_id, shop.shop_secret)).toBe(false);
  await expect(page.getByText(secret)).toHaveCount(0);
});

test('a deep link to a shop page survives a reload', async ({ page, signedIn: _ }) => {
  const shop = await createShop(`Deep link ${Date.now()}`);
  const shops = new ShopsPage(page);
  await shops.gotoIntegration(shop.shop_id);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Integration', level: 1 })).toBeVisible();
  await expect(page.getByTestId('shop-id')).toHaveText(shop.shop_id);
  await expectAccessible(page);
});
