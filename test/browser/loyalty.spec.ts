import { createShop } from './admin-api.js';
import { expect, expectAccessible, test } from './fixtures.js';
import { createMember, createPromotion, createSubscription, estimate, getPromotion } from './loyalty-api.js';
import { LoyaltyPage } from './pages/loyalty.page.js';

test('1,000 promo codes generated in the UI are listed a page at a time, and one takes its discount off in the checkout', {
  tag: '@both-databases',
}, async ({ page, signedIn: _ }) => {
  test.setTimeout(90_000);
  const shop = await createShop(`Promo ${Date.now()}`);
  const loyalty = new LoyaltyPage(page);

  await loyalty.open(shop.shop_id, 'promotions', 'Promotions');
  await expect(page.getByText('No promotions match.')).toBeVisible();
  await expectAccessible(page);
  await loyalty.createPromotion(shop.shop_id, 'Spring ten', '10');
  await expect(page.getByText('This promotion has no promo codes yet.')).toBeVisible();
  await expectAccessible(page);

  await loyalty.generateCodes(1000, 'SPRING-####-????');
  await expect(page.getByText('1000 codes generated.')).toBeVisible();
  await expect(page.getByText('100 codes shown')).toBeVisible();
  await expect(loyalty.codesTable().getByRole('row')).toHaveCount(101);
  await loyalty.loadMore();
  await expect(page.getByText('200 codes shown')).toBeVisible();
  await expectAccessible(page);

  const code = (await loyalty.codesTable().getByRole('row').nth(150).getByRole('cell').first().innerText()).trim();
  expect(code).toMatch(/^SPRING-[2-9]{4}-[A-Z]{4}$/);
  const without = await estimate(shop, []);
  expect(without.payload.saved_by_offers).toBe(0);
  const withCode = await estimate(shop, [code.toLowerCase()]);
  expect(withCode.status).toBe('success');
  expect(withCode.payload.promo_codes).toEqual([code]);
  expect(withCode.payload.saved_by_offers).toBe(20);

  await loyalty.open(shop.shop_id, 'promotions', 'Promotions');
  await expect(page.getByRole('link', { name: 'Spring ten' })).toBeVisible();
  await expectAccessible(page);
});

test('a member credited 100 with a reason shows the balance and the ledger line, in roubles in both languages', async ({
  page,
  signedIn: _,
}) => {
  test.setTimeout(90_000);
  const shop = await createShop(`Bonuses ${Date.now()}`);
  const identifier = await createMember(shop.shop_id, '+7 900 123-45-67');
  const loyalty = new LoyaltyPage(page);

  await loyalty.open(shop.shop_id, 'loyalty/members', 'Loyalty members');
  await expect(page.getByRole('link', { name: identifier })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('link', { name: identifier }).click();
  await expect(page.getByRole('heading', { name: `Member ${identifier}`, level: 1 })).toBeVisible();
  await expect(page.getByText('No transactions yet.')).toBeVisible();
  await expectAccessible(page);

  await loyalty.adjust('Credit', '', 'Apology for a late parcel');
  await expect(page.getByText(/Enter an amount/)).toBeVisible();
  await loyalty.adjust('Credit', '100', '');
  await expect(page.getByText(/Say why/)).toBeVisible();
  await loyalty.adjust('Credit', '100', 'Apology for a late parcel');
  await expect(page.getByText(/The balance is now RUB\s100\.00/)).toBeVisible();
  await expect(loyalty.ledger().getByRole('row').nth(1)).toContainText('Manual credit');
  await expect(loyalty.ledger().getByRole('row').nth(1)).toContainText(/RUB\s100\.00/);
  await expect(loyalty.ledger().getByRole('row').nth(1)).toContainText('Apology for a late parcel');

  await loyalty.adjust('Debit', '500', 'Too much');
  await expect(page.getByRole('alert')).toBeVisible();

  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Русский' }).click();
  await expect(page.getByRole('heading', { name: `Участник ${identifier}`, level: 1 })).toBeVisible();
  await expect(page.getByText('Баланс', { exact: true }).locator('..')).toContainText(/100,00\s₽/);
  await expect(page.getByRole('table', { name: 'Операции' }).getByRole('row').nth(1)).toContainText(/100,00\s₽/);
  await expectAccessible(page);
});

test('the programme, subscriptions and certificates screens work and pass axe; the codes download as CSV', async ({
  page,
  signedIn: _,
}) => {
  test.setTimeout(90_000);
  const shop = await createShop(`Programme ${Date.now()}`);
  const promotionId = await createPromotion(shop.shop_id, 'Seeded');
  await createSubscription(shop.shop_id, 'plus');
  const loyalty = new LoyaltyPage(page);

  await loyalty.open(shop.shop_id, 'loyalty', 'Loyalty programme');
  await expect(page.getByText('Outstanding bonuses')).toBeVisible();
  await page.getByRole('textbox', { name: /^Reward, percent of a confirmed order/ }).fill('5');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Saved.')).toBeVisible();
  await page.getByRole('button', { name: 'Add a level' }).click();
  await page.getByRole('textbox', { name: 'Code of level 1' }).fill('silver');
  await page.getByRole('textbox', { name: 'Name of level 1' }).fill('Silver');
  await page.getByRole('textbox', { name: 'Purchases from, level 1' }).fill('10000');
  await page.getByRole('textbox', { name: 'Reward percent, level 1' }).fill('7.5');
  await page.getByRole('button', { name: 'Save the levels' }).click();
  await expect(page.getByText('Saved.').nth(1)).toBeVisible();
  await expectAccessible(page);

  await loyalty.open(shop.shop_id, 'subscriptions', 'Paid subscriptions');
  await page.getByRole('link', { name: 'plus' }).click();
  await expect(page.getByRole('heading', { name: 'Subscription: Plan plus', level: 1 })).toBeVisible();
  await expect(page.getByText('No plans yet.')).toBeVisible();
  await expectAccessible(page);
  // A plan made with two benefits, then its benefits changed in place.
  await page.getByRole('textbox', { name: /^Plan code/ }).fill('monthly');
  await page.getByRole('textbox', { name: /^Plan name/ }).fill('Monthly');
  const first = page.getByRole('group', { name: 'Benefit 1' });
  await first.getByRole('textbox', { name: /^Benefit code/ }).fill('free_delivery');
  await first.getByRole('textbox', { name: /^Benefit name/ }).fill('Free delivery');
  await page.getByRole('button', { name: 'Add a benefit' }).click();
  const second = page.getByRole('group', { name: 'Benefit 2' });
  await second.getByRole('textbox', { name: /^Benefit code/ }).fill('sale');
  await second.getByRole('textbox', { name: /^Benefit name/ }).fill('Members sale');
  await second.getByRole('combobox', { name: 'Benefit kind' }).click();
  await page.getByRole('option', { name: 'Promotions with limits' }).click();
  await second.getByRole('textbox', { name: 'Promotion IDs' }).fill(`${promotionId}, x`);
  await second.getByRole('textbox', { name: /^Discount limit/ }).fill('300');
  await page.getByRole('button', { name: 'Create the plan' }).click();
  await expect(second.getByText('Promotion ids, as whole numbers separated by commas.')).toBeVisible();
  await second.getByRole('textbox', { name: 'Promotion IDs' }).fill(String(promotionId));
  await page.getByRole('button', { name: 'Create the plan' }).click();
  const plansTable = page.getByRole('table', { name: 'Plans' });
  await expect(plansTable.getByRole('row', { name: /monthly/ })).toContainText('Free delivery: Yes');
  await expect(plansTable.getByRole('row', { name: /monthly/ })).toContainText(`Members sale: promotions ${promotionId}`);
  await page.getByRole('button', { name: 'Benefits of the plan monthly' }).click();
  const editor = page.getByRole('form', { name: 'Benefits of the plan monthly' });
  await editor.getByRole('group', { name: 'Benefit 2' }).getByRole('button', { name: 'Remove' }).click();
  await editor.getByRole('group', { name: 'Benefit 1' }).getByRole('combobox', { name: 'Benefit kind' }).click();
  await page.getByRole('option', { name: 'A number' }).click();
  await editor.getByRole('group', { name: 'Benefit 1' }).getByRole('textbox', { name: 'Value' }).fill('3');
  await editor.getByRole('button', { name: 'Save the benefits' }).click();
  await expect(plansTable.getByRole('row', { name: /monthly/ })).toContainText('Free delivery: 3');
  await expect(plansTable.getByRole('row', { name: /monthly/ })).not.toContainText('Members sale');
  await expectAccessible(page);

  await loyalty.open(shop.shop_id, 'certificates', 'Gift certificates');
  await expect(page.getByText('No certificates match.')).toBeVisible();
  await page.getByRole('textbox', { name: /^Code/ }).nth(1).fill('GIFT-1');
  await page.getByRole('textbox', { name: /^Face value/ }).fill('500');
  await page.getByRole('button', { name: 'Issue', exact: true }).click();
  await expect(page.getByText('Certificate GIFT-1 issued.')).toBeVisible();
  await page.getByRole('textbox', { name: /^Code/ }).first().fill('gift-1');
  await page.getByRole('button', { name: 'Find' }).click();
  await expect(page.getByText(/RUB\s500\.00/).first()).toBeVisible();
  await expect(page.getByRole('table', { name: 'Certificates' })).toContainText('GIFT-1');
  await expectAccessible(page);

  await loyalty.open(shop.shop_id, `promotions/${promotionId}`, 'Promotion: Seeded');
  await page.getByRole('textbox', { name: /^Name/ }).fill('Seeded, renamed');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Saved.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Promotion: Seeded, renamed', level: 1 })).toBeVisible();
  await expectAccessible(page);
  // The CSV export downloads the promotion's codes under their own file name.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download all codes (CSV)' }).click();
  expect((await download).suggestedFilename()).toBe(`promotion-${promotionId}-promo-codes.csv`);
});

test("a promotion's further conditions are set in the form, kept by the API and shown again; a half-given time window is refused at its field", async ({
  page,
  signedIn: _,
}) => {
  test.setTimeout(60_000);
  const shop = await createShop(`Conditions ${Date.now()}`);
  const loyalty = new LoyaltyPage(page);
  await loyalty.open(shop.shop_id, 'promotions/new', 'New promotion');
  await page.getByRole('textbox', { name: /^Name/ }).fill('Night owls');
  await page.getByRole('textbox', { name: /^Percent off/ }).fill('15');
  const conditions = page.getByRole('group', { name: 'More conditions (optional)' });
  await conditions.getByRole('checkbox', { name: 'Only on the customer’s first order' }).check();
  await conditions.getByRole('textbox', { name: 'Only orders from these streams' }).fill('ios, android');
  await conditions.getByRole('textbox', { name: 'Only members of these loyalty levels' }).fill('gold');
  await conditions.getByLabel('Daily from (Europe/Moscow)').fill('22:00');
  await conditions.getByRole('textbox', { name: 'Extra bonuses, % of the matching lines' }).fill('5');
  await conditions.getByRole('textbox', { name: 'Special prices (RUB)' }).fill('sku-1 = 990\nsku-2 = 1 500,50');
  await page.getByRole('button', { name: 'Create the promotion' }).click();
  await expect(page.getByText('Give both times as HH:MM, different from each other, or leave both empty.')).toBeVisible();
  await expectAccessible(page);
  await conditions.getByLabel('Daily until (Europe/Moscow)').fill('06:00');
  await page.getByRole('button', { name: 'Create the promotion' }).click();
  await expect(page.getByRole('heading', { name: 'Promotion: Night owls', level: 1 })).toBeVisible();

  const id = Number(/promotions\/(\d+)/.exec(page.url())?.[1]);
  expect(await getPromotion(shop.shop_id, id)).toMatchObject({
    first_order_only: true,
    streams: ['ios', 'android'],
    member_levels: ['gold'],
    time_of_day: { from: '22:00', to: '06:00' },
    bonus_reward_percent: 5,
    special_prices: { 'sku-1': 990, 'sku-2': 1500.5 },
  });
  await loyalty.open(shop.shop_id, 'promotions', 'Promotions');
  await page.getByRole('link', { name: 'Night owls' }).click();
  const kept = page.getByRole('group', { name: 'More conditions (optional)' });
  await expect(kept.getByRole('textbox', { name: 'Only orders from these streams' })).toHaveValue('ios, android');
  await expect(kept.getByRole('textbox', { name: 'Special prices (RUB)' })).toHaveValue('sku-1 = 990\nsku-2 = 1500.5');
  await expect(kept.getByRole('checkbox', { name: 'Only on the customer’s first order' })).toBeChecked();
});
