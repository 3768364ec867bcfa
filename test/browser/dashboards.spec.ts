import { type SeededDashboard, seedDashboard } from './dashboards-seed.js';
import { expect, expectAccessible, test } from './fixtures.js';
import { DashboardsPage } from './pages/dashboards.page.js';

let seeded: SeededDashboard;

test.beforeAll(async () => {
  test.setTimeout(60_000);
  seeded = await seedDashboard();
});

test("the overview shows the shop's order, email and attributed revenue, switches its period and downloads its CSV", async ({
  page,
  signedIn: _,
}) => {
  const shopId = seeded.shop.shop_id;
  const dashboards = new DashboardsPage(page);
  await dashboards.gotoOverview(shopId);
  await expect(dashboards.card('Revenue')).toContainText(/RUB\s1,500\.00/);
  await expect(dashboards.card('Orders')).toContainText('1');
  await expect(dashboards.card('Most customers active in a day')).toContainText('1');
  await expect(dashboards.card('Messages sent')).toContainText(/1\s*Opened 100% · clicked 100%/);
  await expect(dashboards.card('Revenue from messages')).toContainText(/RUB\s1,500\.00/);
  await expect(dashboards.chart('Messages sent by channel').getByRole('table', { name: /open and click rates/ })).toContainText(
    /Email\s*1\s*1\s*1\s*100%\s*100%/,
  );
  await expect(dashboards.chart('Tracked orders and revenue').getByRole('img')).toHaveAttribute('aria-label', /Orders: 1 in all/);
  await expect(dashboards.chart('New loyalty members')).toContainText('No one joined the loyalty programme in this period.');
  await expectAccessible(page);

  // A year and a day is refused in words before the server is asked; a past month is empty.
  await dashboards.customPeriod('2024-01-01', '2025-01-01');
  await expect(page.getByText(/A period is at most 366 days, and this one has 367/)).toBeVisible();
  await dashboards.customPeriod('2025-01-01', '2025-01-31');
  await expect(page.getByRole('heading', { name: 'January 1, 2025 – January 31, 2025' })).toBeVisible();
  await expect(dashboards.chart('Events per day by type')).toContainText('No events in this period.');
  await expect(dashboards.card('Revenue')).toContainText(/RUB\s0\.00/);
  await expectAccessible(page);

  await dashboards.preset(7);
  await expect(dashboards.card('Revenue')).toContainText(/RUB\s1,500\.00/);
  const csv = await dashboards.download(/^Download CSV: Tracked orders and revenue/);
  expect(csv.name).toMatch(/^dashboard-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
  const [header, ...rows] = csv.text.trim().split(/\r?\n/);
  expect(header).toContain('events.purchase');
  expect(header).toContain('email.sent');
  expect(rows).toHaveLength(8);
  const columns = header?.split(',') ?? [];
  const total = Object.fromEntries((rows[7]?.split(',') ?? []).map((cell, i) => [columns[i], cell]));
  expect(total).toMatchObject({ date: 'total', orders: '1', revenue: '1500', 'email.sent': '1', attributed_revenue: '1500' });
});

test("a mailing's funnel shows its steps and revenue, and downloads as CSV", async ({ page, signedIn: _ }) => {
  const dashboards = new DashboardsPage(page);
  await dashboards.gotoFunnel(seeded.shop.shop_id, 'transactional', seeded.mailingId);
  await expect(
    page.getByRole('img', { name: /Sent 1, Delivered 1, Opened 1, Clicked 1, Purchased 1; revenue RUB\s1,500\.00/ }),
  ).toBeVisible();
  await expect(page.getByRole('table', { name: 'Steps by channel' })).toContainText(/Email\s*1\s*1\s*1\s*1/);
  await page.getByText('Show the numbers').click();
  await expect(page.getByRole('table', { name: 'Funnel: the numbers' })).toContainText(/Purchased\s*1\s*100%/);
  await expectAccessible(page);
  const csv = await dashboards.download('Download CSV: Funnel');
  expect(csv.name).toBe(`funnel-transactional-${seeded.mailingId}.csv`);
  expect(csv.text.trim().split(/\r?\n/)).toEqual([
    'channel,sent,delivered,opened,clicked,purchased,revenue',
    'email,1,1,1,1,,',
    'total,1,1,1,1,1,1500',
  ]);
});
