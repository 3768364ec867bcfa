import { advanceServerClock } from './admin-api.js';
import { type SeededChainShop, seedChainShop, sendCustomEvent } from './chains-seed.js';
import { expect, expectAccessible, test } from './fixtures.js';
import { ChainsPage } from './pages/chains.page.js';

let seeded: SeededChainShop;

test.beforeAll(async () => {
  seeded = await seedChainShop();
});

test.afterAll(async () => {
  await seeded.smtp.close();
});

test('a chain built in the builder (custom event → wait → condition → email) is refused at its step, saved, and its run goes through with the clock', {
  tag: '@both-databases',
}, async ({ page, signedIn: _ }) => {
  test.setTimeout(90_000);
  const shopId = seeded.shop.shop_id;
  const chains = new ChainsPage(page);
  await chains.gotoList(shopId);
  await expect(page.getByText('The shop has no chains yet.')).toBeVisible();
  await expectAccessible(page);

  // The builder starts with a wait and a message; a condition added at the end moves up between them.
  await chains.newChain();
  await chains.settings('welcome', 'Welcome series');
  await chains.triggerOnEvent('signed_up');
  await chains.addStep('a condition');
  await expect(chains.step(3, 'Condition')).toBeVisible();
  await chains.moveUp(3);
  await expect(chains.step(2, 'Condition')).toBeVisible();
  await expect(chains.step(3, 'Send')).toBeVisible();
  await chains.variableEquals(2, 'plan', 'gold');
  await expectAccessible(page);

  // A wait of ten years is refused here, at its step, before anything is sent.
  await chains.waitFor(1, '3650', 'days');
  await chains.email(3, 'Welcome aboard', '<p>Hello {% if %}</p>');
  await chains.save();
  await expect(chains.step(1, 'Wait')).toContainText('A wait is at most 366 days.');
  await expect(page.getByRole('alert').filter({ hasText: 'The chain cannot be saved yet: 1 to correct' })).toBeVisible();

  // A template that does not parse is the server's to find: its refusal shows at that step's HTML.
  await chains.waitFor(1, '5', 'minutes');
  await chains.save();
  await expect(chains.step(3, 'Send')).toContainText(/Template steps\[2\]\.send\.email\.html does not parse/);
  await expect(chains.step(1, 'Wait')).not.toContainText('366 days');

  await chains.email(3, 'Welcome aboard', '<p>Hello, welcome to the shop.</p>');
  await chains.save();
  await expect(page.getByRole('heading', { name: 'Chain welcome', level: 1 })).toBeVisible();
  await expect(page.getByText('Version 1.', { exact: false })).toBeVisible();
  await expect(page.getByText('No run yet')).toBeVisible();
  await expectAccessible(page);

  // Two customers sign up, one on the silver plan, then one on the gold: both runs wait at step 1.
  await sendCustomEvent(shopId, 'sam@example.org', 'silver');
  await sendCustomEvent(shopId, 'kate@example.org', 'gold');
  await expect(async () => {
    await chains.refresh();
    await expect(chains.runRows()).toHaveCount(2, { timeout: 2000 });
    await expect(chains.runRows().filter({ hasText: /Waiting\s*Step 1 \(version 1\)/ })).toHaveCount(2, { timeout: 2000 });
  }).toPass({ timeout: 15_000 });
  await expect(chains.counts(1)).toContainText('Entered: 2');
  await expect(chains.counts(1)).toContainText('Waiting: 2');
  await expect(chains.counts(3)).toContainText('Sent: 0');

  // Past the wait, the gold run passes the condition and sends the email (done at step 3);
  // the silver one exits at the condition, with the server's reason. (The runs are found by
  // what they show, not by their order: the two events' runs may start in either order.)
  await advanceServerClock(6 * 60_000);
  await expect(async () => {
    await chains.refresh();
    await expect(chains.runRows().filter({ hasText: /Done\s*Step 3 \(version 1\)/ })).toHaveCount(1, { timeout: 2000 });
    await expect(chains.counts(3)).toContainText('Sent: 1', { timeout: 2000 });
  }).toPass({ timeout: 40_000 });
  await expect(chains.runRows().filter({ hasText: /Exited\s*Step 2 \(version 1\).*variable `plan` is not gold/ })).toHaveCount(1);
  await expect(chains.counts(1)).toContainText('Waiting: 0');
  await expect(chains.counts(2)).toContainText('Entered: 2');
  await expect(chains.counts(2)).toContainText('Exited: 1');
  await expect(chains.counts(3)).toContainText('Entered: 1');
  await expect(chains.counts(3)).toContainText('Done: 1');
  expect(seeded.smtp.received).toHaveLength(1);
  expect(seeded.smtp.received[0]?.rcptTo).toEqual(['kate@example.org']);
  expect(seeded.smtp.received[0]?.raw.toString('utf8')).toContain('Subject: Welcome aboard');
  await expectAccessible(page);

  // A change writes the next version; the run already done keeps its own.
  await page.getByRole('textbox', { name: /^Name/ }).fill('Welcome series, gold');
  await chains.save();
  await expect(page.getByRole('status').filter({ hasText: 'Saved as version 2.' })).toBeVisible();
  await expect(chains.runRows().filter({ hasText: /Done\s*Step 3 \(version 1\)/ })).toHaveCount(1);

  // The list shows the chain, its trigger and its version.
  await chains.gotoList(shopId);
  await expect(page.getByRole('row').filter({ hasText: 'welcome' })).toContainText(
    /Welcome series, gold\s*Custom event signed_up\s*Active\s*3\s*2/,
  );
});
