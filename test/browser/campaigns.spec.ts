import { seedCampaignShop, type SeededCampaignShop } from './campaigns-seed.js';
import { expect, expectAccessible, test } from './fixtures.js';
import { CampaignsPage } from './pages/campaigns.page.js';

const MEMBERS = 1000;
let seeded: SeededCampaignShop;

test.beforeAll(async () => {
  test.setTimeout(60_000);
  seeded = await seedCampaignShop(MEMBERS);
});

test.afterAll(async () => {
  await seeded?.smtp.close();
});

test("a campaign to a segment of 1,000: refused for an empty segment, the live reachable count, the progress bar to its end, and the delivered count equal to the SMTP peer's", {
  tag: '@both-databases',
}, async ({ page, signedIn: _ }) => {
  // 40-55 s on SQLite and 50-72 s on PostgreSQL on a two-core machine busy with other
  // builds, most of it the 1,000 deliveries; the margin keeps a slow run from failing for
  // time alone.
  test.setTimeout(120_000);
  const campaigns = new CampaignsPage(page);
  await campaigns.gotoList(seeded.shop.shop_id);
  await expect(page.getByText('No campaigns yet.')).toBeVisible();
  await expect(campaigns.navLink()).toHaveAttribute('href', `/admin/shops/${seeded.shop.shop_id}/campaigns`);
  await expectAccessible(page);

  await campaigns.startNew();
  await expect(campaigns.audience()).toContainText('Pick a segment to see how many customers it reaches.');
  await campaigns.name('Winter sale');
  await campaigns.email(
    'Winter sale, {{ profile.first_name }}',
    '<p>Hello {{ profile.first_name }}, <a href="https://shop.example/sale">the sale</a> is on.</p>',
  );

  // A segment of nobody: the count says so, and the server's refusal is shown at the segments.
  await campaigns.pickSegment(seeded.emptySegment.name);
  await expect(campaigns.audience()).toContainText('0 of 0 members can be reached.');
  await campaigns.sendNow();
  await expect(page.getByText(`Segment ${seeded.emptySegment.id} has no members.`)).toBeVisible();
  await expect(campaigns.segments()).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page);

  await campaigns.dropLastSegment();
  await campaigns.pickSegment(seeded.segment.name);
  await expect(campaigns.audience()).toContainText('1,000 of 1,000 members can be reached.');
  await expect(campaigns.reach('Email')).toContainText(/1,000\s*0\s*0\s*0\s*1,000/);
  await expectAccessible(page);

  await campaigns.sendNow();
  await expect(page.getByRole('heading', { name: 'Winter sale', level: 1 })).toBeVisible();
  await expect(campaigns.progressBar()).toHaveAttribute('aria-valuenow', '100', { timeout: 70_000 });
  await expect(campaigns.progress()).toContainText('1,000 of 1,000 customers dealt with (100%). Finished.');
  await expect(page.getByText('Done', { exact: true })).toBeVisible();
  // Done means no delivery is queued: every mail has reached the peer.
  expect(seeded.smtp.received).toHaveLength(MEMBERS);
  expect(await campaigns.result('Total', 'Delivered')).toBe('1,000');
  expect(await campaigns.result('Total', 'Messaged')).toBe('1,000');
  expect(await campaigns.result('Total', 'Revenue')).toMatch(/RUB\s0\.00/);
  await expectAccessible(page);

  await page.getByRole('link', { name: '← All campaigns' }).click();
  await expect(page.getByRole('table', { name: 'Campaigns' }).getByRole('row', { name: /Winter sale/ })).toContainText(
    /Done.*1,000\s*1,000\s*0\s*0/,
  );
});

test('an A/B split whose shares do not add up to 100 is refused under the split, and nothing is sent', { tag: '@both-databases' }, async ({
  page,
  signedIn: _,
}) => {
  test.setTimeout(60_000);
  const campaigns = new CampaignsPage(page);
  await campaigns.gotoList(seeded.shop.shop_id);
  await campaigns.startNew();
  await campaigns.name('Subject test');
  await campaigns.email('Plain subject', '<p>Hello</p>');
  await campaigns.pickSegment(seeded.segment.name);
  await campaigns.abTest();
  await expect(campaigns.abSection()).toContainText('The shares add up to 100%.');
  // Once in CI the click on "Add a variant" made no third variant (the section had just
  // opened; the shares still read 100 %): click again only while variant C is missing.
  const removeC = page.getByRole('button', { name: 'Remove variant C' });
  await expect(async () => {
    if ((await removeC.count()) === 0) await page.getByRole('button', { name: 'Add a variant' }).click();
    await expect(removeC).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 20_000 });
  await expect(campaigns.abSection()).toContainText('The shares add up to 100%.');
  await removeC.click();
  await campaigns.variantSubject('A', 'Subject A');
  await campaigns.variantSubject('B', 'Subject B');
  await campaigns.variantShare('A', '60');
  await expect(campaigns.abSection()).toContainText('The shares add up to 110%');
  await campaigns.sendNow();
  await expect(campaigns.abSection()).toContainText('The shares of `ab.variants` add up to 110; they must add up to 100.');
  await expect(page.getByRole('heading', { name: 'New campaign', level: 1 })).toBeVisible();
  await expectAccessible(page);
  await campaigns.gotoList(seeded.shop.shop_id);
  await expect(page.getByRole('table', { name: 'Campaigns' }).getByRole('row', { name: /Subject test/ })).toHaveCount(0);
});
