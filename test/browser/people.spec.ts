import type { APIRequestContext, Page } from '@playwright/test';
import { BASE_URL, createShop, createUser } from './admin-api.js';
import { expect, expectAccessible, test } from './fixtures.js';
import { AccountPage, AuditPage, UsersPage } from './pages/people.page.js';
import { ShopsPage } from './pages/shops.page.js';
import { SignInPage } from './pages/sign-in.page.js';

/** The session's CSRF token, read as the app reads it: the request carries the page's cookie. */
async function csrfOf(request: APIRequestContext): Promise<string> {
  const res = await request.get(`${BASE_URL}/admin/v1/session`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { csrf_token: string }).csrf_token;
}

async function signInAs(page: Page, user: { email: string; password: string }): Promise<void> {
  const signIn = new SignInPage(page);
  await signIn.goto();
  await signIn.signIn(user.email, user.password);
  await expect(page.getByRole('heading', { name: 'Shops', level: 1 })).toBeVisible();
}

test('an owner invites a marketer, who accepts in another browser and cannot rotate a shop secret; the audit log names the owner', {
  tag: '@both-databases',
}, async ({ page, browser, signedIn }) => {
  // Two browsers, two sign-ins and seven axe runs: longer than one screen's test.
  test.setTimeout(90_000);
  const shop = await createShop(`People ${Date.now()}`);
  const users = new UsersPage(page);
  await users.gotoList();
  await expectAccessible(page);
  await users.openInvitation();
  await expectAccessible(page);
  const email = `marketer-${Date.now()}@example.org`;
  const inviteUrl = await users.invite(email, 'Marketer');
  expect(inviteUrl).toMatch(/\/admin\/invite\/[A-Za-z0-9_-]+$/);
  await expect(users.userLink(email)).toBeVisible();
  await expectAccessible(page);

  const marketerContext = await browser.newContext();
  try {
    const marketer = await marketerContext.newPage();
    await marketer.goto(inviteUrl);
    await expect(marketer.getByText('You are invited as: Marketer')).toBeVisible();
    await marketer.getByRole('textbox', { name: 'Password', exact: true }).fill('marketer-passphrase-1');
    await marketer.getByRole('textbox', { name: 'Password again', exact: true }).fill('marketer-passphrase-1');
    await marketer.getByRole('button', { name: 'Set the password and sign in' }).click();
    await expect(marketer.getByRole('heading', { name: 'Shops', level: 1 })).toBeVisible();

    await new ShopsPage(marketer).gotoSettings(shop.shop_id);
    await expect(marketer.getByText('Your role can read this but not change it.')).toBeVisible();
    await expect(marketer.getByRole('button', { name: 'Rotate the secret' })).toHaveCount(0);
    await expect(marketer.getByRole('button', { name: 'Save' })).toHaveCount(0);
    await expect(marketer.getByRole('link', { name: 'Users' })).toHaveCount(0);
    await expect(marketer.getByRole('link', { name: 'Audit log' })).toHaveCount(0);
    await expectAccessible(marketer);

    const csrf = await csrfOf(marketer.request);
    const forged = await marketer.request.post(`${BASE_URL}/admin/v1/shops/${shop.shop_id}/secret`, { headers: { 'X-CSRF-Token': csrf } });
    expect(forged.status()).toBe(403);
    expect(await forged.json()).toEqual({ error: { code: 'FORBIDDEN', message: 'You do not have access to this.' } });
  } finally {
    await marketerContext.close();
  }

  const shops = new ShopsPage(page);
  await shops.gotoSettings(shop.shop_id);
  await shops.openRotation();
  await shops.confirmRotation();

  const audit = new AuditPage(page);
  await audit.goto();
  // Other specs write to the same log (workers run side by side): find this owner's entries.
  await expect(audit.entry('shop.secret.rotate').filter({ hasText: signedIn.email }).first()).toBeVisible();
  await expect(audit.entry('user.create').filter({ hasText: signedIn.email }).first()).toBeVisible();
  await expectAccessible(page);

  await audit.filterByAction('user.*');
  await expect(audit.entry('shop.secret.rotate')).toHaveCount(0);
  const created = audit.entry('user.create').filter({ hasText: signedIn.email }).first();
  await created.getByRole('button', { name: 'Details' }).click();
  // The request body as formatted JSON text, the invited email in it.
  await expect(page.getByText(`"email": "${email}"`).first()).toBeVisible();
  await expectAccessible(page);
});

test('an analyst reads shops and event codes with no way to change them, and a forged change answers 403', {
  tag: '@both-databases',
}, async ({ page }) => {
  const shop = await createShop(`Analyst ${Date.now()}`);
  const analyst = await createUser('analyst');
  await signInAs(page, analyst);
  const shops = new ShopsPage(page);
  await shops.gotoList();
  await expect(shops.linkTo(shop.name)).toBeVisible();

  await shops.gotoSettings(shop.shop_id);
  await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue(shop.name);
  await expect(page.getByRole('button', { name: /Save|Rotate/ })).toHaveCount(0);
  await expect(page.getByRole('checkbox', { name: /^Active/ })).toBeDisabled();
  await expectAccessible(page);

  await page.goto(`${BASE_URL}/admin/shops/${shop.shop_id}/event-codes`);
  await expect(page.getByRole('heading', { name: 'Custom event codes', level: 1 })).toBeVisible();
  await expect(page.getByText('Your role can read this but not change it.')).toBeVisible();
  await expect(page.getByRole('button', { name: /Create|Delete/ })).toHaveCount(0);
  await expectAccessible(page);

  const csrf = await csrfOf(page.request);
  const forged = await page.request.patch(`${BASE_URL}/admin/v1/shops/${shop.shop_id}`, {
    headers: { 'X-CSRF-Token': csrf },
    data: { name: 'Renamed by an analyst' },
  });
  expect(forged.status()).toBe(403);
});

test('a user limited to shop A who opens shop B is told they have no access', { tag: '@both-databases' }, async ({ page }) => {
  const shopA = await createShop(`Shop A ${Date.now()}`);
  const shopB = await createShop(`Shop B ${Date.now()}`);
  const user = await createUser('admin', [shopA.shop_id]);
  await signInAs(page, user);
  await expect(page.getByRole('link', { name: shopA.name, exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: shopB.name, exact: true })).toHaveCount(0);
  await page.goto(`${BASE_URL}/admin/shops/${shopB.shop_id}/settings`);
  await expect(page.getByRole('alert')).toContainText('You do not have access to this.');
  await expectAccessible(page);
});

test('an API token made on the account page works as a Bearer until it is revoked', { tag: '@both-databases' }, async ({
  page,
  signedIn: _,
}) => {
  const account = new AccountPage(page);
  await account.goto();
  await expectAccessible(page);
  const name = `ci-${Date.now()}`;
  const token = await account.createToken(name);
  expect(token).toMatch(/^pat_/);
  await expect(account.tokenRow(name)).toBeVisible();
  const call = () => fetch(`${BASE_URL}/admin/v1/shops`, { headers: { authorization: `Bearer ${token}` } });
  expect((await call()).status).toBe(200);

  await account.revokeToken(name);
  await expect(account.tokenRow(name)).toHaveCount(0);
  expect((await call()).status).toBe(401);
  await expectAccessible(page);
});

test('a wrong current password is shown at its field, and the right one changes the password', { tag: '@both-databases' }, async ({
  page,
}) => {
  const user = await createUser('marketer');
  await signInAs(page, user);
  const account = new AccountPage(page);
  await account.goto();
  await expect(page.getByText('Marketer', { exact: true })).toBeVisible();
  await account.changePassword('not-my-password', 'a-new-passphrase-2');
  await expect(page.getByText('This is not your current password.')).toBeVisible();
  await expectAccessible(page);
  await account.changePassword(user.password, 'a-new-passphrase-2', 'something-else-3');
  await expect(page.getByText('The two passwords differ.')).toBeVisible();
  await account.changePassword(user.password, 'a-new-passphrase-2');
  await expect(page.getByText('The password is changed.')).toBeVisible();
});

test('an owner changes a user’s role and shops, makes a new invitation link and removes the user after a confirmation', {
  tag: '@both-databases',
}, async ({ page, signedIn: _ }) => {
  const shop = await createShop(`Team ${Date.now()}`);
  const user = await createUser('analyst');
  const users = new UsersPage(page);
  await users.gotoList();
  await users.userLink(user.email).click();
  await expect(page.getByRole('heading', { name: user.email, level: 1 })).toBeVisible();
  await expectAccessible(page);

  await users.editAccess('Marketer', [shop.name]);
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  await expect(page.getByText('Role: Marketer')).toBeVisible();

  await page.getByRole('button', { name: 'Make a new invitation link' }).click();
  await expect(page.getByTestId('invite-url')).toContainText('/admin/invite/');

  await page.getByRole('button', { name: 'Remove the user' }).click();
  const dialog = page.getByRole('dialog', { name: `Remove ${user.email}?` });
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
  await expect(users.userLink(user.email)).toHaveCount(0);
});
