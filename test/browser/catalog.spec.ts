import fs from 'node:fs';
import { BASE_URL, createShop } from './admin-api.js';
import { FEED_MAX_BYTES, putSlider, ymlFeed } from './catalog-seed.js';
import { expect, expectAccessible, test } from './fixtures.js';
import { CatalogPage } from './pages/catalog.page.js';

const SCRIPT_NAME = '<img src=x onerror=alert(1)>';

test(
  'a feed uploaded in the UI is imported, its skipped offer explained, and its products found by name and by category',
  { tag: '@both-databases' },
  async ({ page, signedIn: _ }, testInfo) => {
    test.setTimeout(90_000);
    const shop = await createShop(`Catalog ${Date.now()}`);
    const file = testInfo.outputPath('feed.xml');
    fs.writeFileSync(
      file,
      ymlFeed(
        [
          ['10', 'Kitchen'],
          ['11', 'Kettles', '10'],
          ['20', 'Garden'],
        ],
        [
          { id: 'k-1', name: 'Blue kettle', price: '1990.50', category: '11' },
          { id: 'g-1', name: 'Green hose', price: '500', category: '20', available: false },
          { name: 'An offer without an id', price: '10', category: '20' },
        ],
      ),
    );
    const catalog = new CatalogPage(page);
    await catalog.gotoFeed(shop.shop_id);
    await expect(page.getByText('No imports yet.')).toBeVisible();
    await expect(page.getByText('None yet: no feed has been imported')).toBeVisible();
    await expectAccessible(page);

    await catalog.upload(file);
    await expect(page.getByRole('status').filter({ hasText: 'The feed is imported and served' })).toContainText(
      '2 products and 3 categories',
    );
    await expect(catalog.importRows()).toHaveCount(1);
    await expect(catalog.importRows().first()).toContainText('Done');
    await expect(catalog.importRows().first()).toContainText('Upload');
    await catalog
      .importLog()
      .getByRole('button', { name: /1 — show reasons/ })
      .click();
    await expect(page.getByRole('table', { name: 'Skipped entries' })).toContainText('offer has no id');
    await expectAccessible(page);

    await catalog.gotoProducts(shop.shop_id);
    await expect(catalog.productRow('Blue kettle')).toBeVisible();
    await expectAccessible(page);
    await catalog.search({ query: 'kettle' });
    await expect(catalog.productRow('Blue kettle')).toContainText('1,990.50');
    await expect(catalog.productRow('Green hose')).toHaveCount(0);
    await catalog.search({ category: '20' });
    await expect(catalog.productRow('Green hose')).toBeVisible();
    await expect(catalog.productRow('Blue kettle')).toHaveCount(0);
    await catalog.search({ category: '11' });
    const drawer = await catalog.openProduct('Blue kettle');
    await expect(drawer).toContainText('k-1');
    await expect(drawer).toContainText('RUB 1,990.50');
    await expect(drawer).toContainText('https://shop.example/p/k-1');
    await expectAccessible(page);
    await page.keyboard.press('Escape');

    await catalog.gotoCategories(shop.shop_id);
    await expect(catalog.treeItem('Kitchen')).toBeVisible();
    await expect(page.getByText('Kettles')).toHaveCount(0);
    await catalog.expand('Kitchen');
    await expect(catalog.treeItem('Kettles')).toContainText('1 products');
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Products of Kettles' }).click();
    await expect(catalog.productRow('Blue kettle')).toBeVisible();
  },
);

test('a feed over the server limit is refused in words and the served catalog stays', async ({ page, signedIn: _ }, testInfo) => {
  const shop = await createShop(`Too large ${Date.now()}`);
  const small = testInfo.outputPath('small.xml');
  fs.writeFileSync(small, ymlFeed([['1', 'All']], [{ id: 'a-1', name: 'Kept product', price: '100', category: '1' }]));
  const catalog = new CatalogPage(page);
  await catalog.gotoFeed(shop.shop_id);
  await catalog.upload(small);
  await expect(catalog.importRows().first()).toContainText('Done');

  expect(FEED_MAX_BYTES).toBeGreaterThan(0);
  const large = testInfo.outputPath('large.xml');
  const head = '<?xml version="1.0" encoding="UTF-8"?><yml_catalog><shop><offers>';
  const tail = '</offers></shop></yml_catalog>';
  const fill = '<!--' + 'x'.repeat(FEED_MAX_BYTES + 64 * 1024 - head.length - tail.length - 7) + '-->';
  fs.writeFileSync(large, head + fill + tail);
  expect(fs.statSync(large).size).toBeGreaterThan(FEED_MAX_BYTES);
  await catalog.upload(large);
  await expect(catalog.refusal()).toContainText('is larger than this server accepts for a feed');
  await expect(catalog.refusal()).toContainText('The catalog served before stays as it was.');
  await expectAccessible(page);
  await page.reload();
  await expect(catalog.importRows()).toHaveCount(1);

  await catalog.gotoProducts(shop.shop_id);
  await expect(catalog.productRow('Kept product')).toBeVisible();
});

test('a script in a product name is shown as text and never runs', async ({ page, signedIn: _ }, testInfo) => {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const shop = await createShop(`Script ${Date.now()}`);
  const file = testInfo.outputPath('script.xml');
  fs.writeFileSync(file, ymlFeed([['1', 'All']], [{ id: 'x-1', name: SCRIPT_NAME, price: '1', category: '1' }]));
  const catalog = new CatalogPage(page);
  await catalog.gotoFeed(shop.shop_id);
  await catalog.upload(file);
  await expect(catalog.importRows().first()).toContainText('Done');

  await catalog.gotoProducts(shop.shop_id);
  await expect(catalog.productRow('x-1')).toContainText(SCRIPT_NAME);
  const drawer = await catalog.openProduct(SCRIPT_NAME);
  await expect(drawer).toContainText(SCRIPT_NAME);
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
  expect(dialogs).toEqual([]);
});

test('hidden products say why, with the picture error; searches without results and sliders show what the API holds', async ({
  page,
  signedIn: _,
}, testInfo) => {
  test.setTimeout(60_000);
  const shop = await createShop(`Hidden ${Date.now()}`);
  const file = testInfo.outputPath('hidden.xml');
  fs.writeFileSync(
    file,
    ymlFeed(
      [['1', 'All']],
      [
        { id: 'h-1', name: 'Shown lamp', price: '100', category: '1' },
        { id: 'h-2', name: 'Lamp without a price or picture', category: '1' },
        // A private address: the picture download is refused, and the reason is stored.
        { id: 'h-3', name: 'Lamp with a broken picture', category: '1', picture: 'http://127.0.0.1:9/lamp.jpg' },
      ],
    ),
  );
  const catalog = new CatalogPage(page);
  await catalog.gotoFeed(shop.shop_id);
  await catalog.upload(file);
  await expect(catalog.importRows().first()).toContainText('Done');

  await catalog.gotoHidden(shop.shop_id);
  const label = 'Hidden products';
  await expect(catalog.productRow('h-2', label)).toContainText('No price');
  await expect(catalog.productRow('h-2', label)).toContainText('No picture in the feed');
  await expect(catalog.productRow('Shown lamp', label)).toHaveCount(0);
  await expect(async () => {
    await page.reload();
    await expect(catalog.productRow('h-3', label)).toContainText('Picture not downloaded:', { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await expectAccessible(page);

  await catalog.gotoNoResults(shop.shop_id);
  await expect(page.getByText('Every search of the last two weeks found something.')).toBeVisible();
  await expectAccessible(page);

  await catalog.gotoSliders(shop.shop_id);
  await expect(page.getByText('No sliders yet.')).toBeVisible();
  await putSlider(shop.shop_id, 'home', {
    width: 600,
    height: 300,
    slides: [{ image_url: 'https://cdn.example/a.jpg', url: 'https://shop.example/sale', content: 'Summer sale', tags: ['sale'] }],
  });
  await page.reload();
  await page.getByRole('link', { name: 'home' }).click();
  await expect(page.getByRole('heading', { name: 'Slider home', level: 1 })).toBeVisible();
  await expect(page.getByText('Summer sale', { exact: true })).toBeVisible();
  await expect(page.getByText('600 × 300 px')).toBeVisible();
  await expectAccessible(page);
});

test('a slider made and edited in the UI is what GET /slider answers; an app link with javascript: is refused at its field', async ({
  page,
  signedIn: _,
}) => {
  const shop = await createShop(`Sliders ${Date.now()}`);
  const catalog = new CatalogPage(page);
  await catalog.gotoSliders(shop.shop_id);
  const create = page.getByRole('form', { name: 'New slider' });
  await create.getByLabel('Code').fill('home');
  await create.getByLabel('Width, px').fill('0');
  await create.getByLabel('Height, px').fill('300');
  await create.getByRole('button', { name: 'Create slider' }).click();
  await expect(create.getByText('A whole number of pixels from 1 to 10,000.')).toBeVisible();
  await create.getByLabel('Width, px').fill('800');
  await create.getByRole('button', { name: 'Create slider' }).click();
  await expect(page.getByRole('heading', { name: 'Slider home', level: 1 })).toBeVisible();
  await expect(page.getByText('This slider has no slides.')).toBeVisible();

  await page.getByRole('button', { name: 'Edit slider' }).click();
  const form = page.getByRole('form', { name: 'Slider home: size and slides' });
  for (const [n, name] of [
    [1, 'Summer sale'],
    [2, 'New arrivals'],
  ] as const) {
    await form.getByRole('button', { name: 'Add slide' }).click();
    const slide = form.getByRole('group', { name: `Slide ${n}` });
    await slide.getByRole('textbox', { name: /^Picture/ }).fill(`https://cdn.example/${n}.jpg`);
    await slide.getByLabel('Leads to').fill(`https://shop.example/${n}`);
    await slide.getByLabel('Content (the picture’s text)').fill(name);
    await slide.getByLabel('Tags', { exact: true }).fill('sale, men');
  }
  // The second slide first; then an app link the server refuses, shown under that input.
  await form.getByRole('button', { name: 'Move slide 2 up' }).click();
  await expect(form.getByRole('group', { name: 'Slide 1' }).getByLabel('Content (the picture’s text)')).toHaveValue('New arrivals');
  const second = form.getByRole('group', { name: 'Slide 2' });
  await second.getByLabel('iOS app link').fill('javascript:alert(1)');
  await form.getByRole('button', { name: 'Save slider' }).click();
  await expect(second.getByText(/deeplink_ios/)).toBeVisible();
  await expectAccessible(page);
  await second.getByLabel('iOS app link').fill('myshop://summer');
  await form.getByRole('button', { name: 'Save slider' }).click();
  await expect(page.getByRole('button', { name: 'Edit slider' })).toBeVisible();
  await expect(page.getByText('800 × 300 px')).toBeVisible();

  const query = new URLSearchParams({ shop_id: shop.shop_id, code: 'home', did: 'browser-test-device', tags: 'men' });
  const answer = (await (await fetch(`${BASE_URL}/slider?${query.toString()}`)).json()) as {
    payload: { properties: unknown; slides: { image_url: string; content: string; deeplink_ios: string }[] };
  };
  expect(answer.payload.properties).toEqual({ code: 'home', width: 800, height: 300 });
  expect(answer.payload.slides.map((s) => [s.content, s.image_url, s.deeplink_ios])).toEqual([
    ['New arrivals', 'https://cdn.example/2.jpg', ''],
    ['Summer sale', 'https://cdn.example/1.jpg', 'myshop://summer'],
  ]);

  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('button', { name: 'Delete slider home' }).click();
  await expect(page.getByText('No sliders yet.')).toBeVisible();
});
