import { BASE_URL, call, createShop } from './admin-api.js';
import { expect, expectAccessible, test } from './fixtures.js';
import { PopupsPage } from './pages/popups.page.js';

/** GET /init as the React Native SDK sends it on a first start: shop_id and a null stream, no did. */
async function init(shopId: string, query = ''): Promise<{ did: string; sid: string; popup?: Record<string, unknown> }> {
  const res = await fetch(`${BASE_URL}/init?shop_id=${shopId}&stream=null${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as { did: string; sid: string; popup?: Record<string, unknown> };
}

test('a popup made in the UI refuses a script, previews at its position, reaches /init and counts it shown', {
  tag: '@both-databases',
}, async ({ page, signedIn: _ }) => {
  test.setTimeout(60_000);
  const shop = await createShop(`Popups ${Date.now()}`);
  const popups = new PopupsPage(page);
  await popups.gotoList(shop.shop_id);
  await expect(page.getByText('No popups yet.')).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('link', { name: 'New popup' }).click();
  await page.getByLabel('Name').fill('Spring sale');
  await page.getByLabel('Position').selectOption({ label: 'Bottom' });
  await page.getByLabel('HTML').fill('<div class="popup-title">Spring</div><img src="https://cdn.example/a.png" onerror="alert(1)">');
  await page.getByLabel('Link button').fill('Shop now');
  await page.getByLabel('Link on iOS').fill('myshop://sale');
  await page.getByLabel('Allow notifications button').fill('Notify me');
  await expect(popups.preview()).toHaveAccessibleName('Preview of the popup: Bottom');
  await expect(popups.preview()).toContainText('Notify me');
  await page.getByRole('button', { name: 'Create popup' }).click();
  await expect(page.getByText('Field `html` must not hold an event handler attribute (onerror).')).toBeVisible();
  await expectAccessible(page);

  const html = '<div class="popup-title">Spring</div><p class="popup-1__intro">−20% on everything</p>';
  await page.getByLabel('HTML').fill(html);
  await page.getByRole('button', { name: 'Create popup' }).click();
  await expect(page.getByRole('heading', { name: 'Popup Spring sale', level: 1 })).toBeVisible();
  await expect(popups.figure('Shown')).toContainText('0');

  // The app's first start gets the popup in /init's answer, as the shop wrote it.
  const device = await init(shop.shop_id);
  expect(device.popup).toMatchObject({ position: 'fixed_bottom', html, components: '{}', web_push_system: false });
  expect(JSON.parse(device.popup!.popup_actions as string)).toEqual({
    link: { button_text: 'Shop now', link_ios: 'myshop://sale' },
    system_mobile_push_subscribe: { button_text: 'Notify me' },
  });
  const shown = await fetch(`${BASE_URL}/popup/showed`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ shop_id: shop.shop_id, did: device.did, sid: device.sid, popup: device.popup!.id }),
  });
  expect(await shown.json()).toEqual({ status: 'success' });

  await page.reload();
  await expect(popups.figure('Shown')).toContainText('1');
  await expectAccessible(page);

  // Made inactive in the UI, the next new device gets none.
  await page.getByLabel('Status').selectOption({ label: 'Inactive' });
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  expect((await init(shop.shop_id)).popup).toBeUndefined();
  const saved = await call<{ status: string; shown: number }>('GET', `/admin/v1/shops/${shop.shop_id}/popups/${String(device.popup!.id)}`);
  expect(saved).toMatchObject({ status: 'inactive', shown: 1 });

  await popups.gotoList(shop.shop_id);
  await expect(popups.row('Spring sale')).toContainText('Inactive');
});
