import { BASE_URL, createUser, inviteUser } from './admin-api.js';
import { expect, expectAccessible, test } from './fixtures.js';
import { SignInPage } from './pages/sign-in.page.js';

test('the sign-in screen is accessible and refuses a wrong password in words', { tag: '@both-databases' }, async ({ page }) => {
  const user = await createUser('owner');
  const signIn = new SignInPage(page);
  await signIn.goto();
  await expectAccessible(page);
  await signIn.signIn(user.email, 'not-the-password');
  await expect(signIn.alert()).toHaveText('Email or password is wrong.');
});

test('signing in from a deep link lands on that page, and a reload keeps it', { tag: '@both-databases' }, async ({ page }) => {
  const user = await createUser('owner');
  await page.goto(`${BASE_URL}/admin/shops`);
  await expect(page).toHaveURL(/\/admin\/sign-in\?next=%2Fshops$/);
  await new SignInPage(page).signIn(user.email, user.password);
  await expect(page).toHaveURL(`${BASE_URL}/admin/shops`);
  await expect(page.getByRole('heading', { name: 'Shops', level: 1 })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Shops', level: 1 })).toBeVisible();
});

test('a sign-in link that names another site stays in the app', { tag: '@both-databases' }, async ({ page }) => {
  const user = await createUser('owner');
  await page.goto(`${BASE_URL}/admin/sign-in?next=${encodeURIComponent('//evil.example/steal')}`);
  await new SignInPage(page).signIn(user.email, user.password);
  await expect(page).toHaveURL(`${BASE_URL}/admin/shops`);
});

test('an invitation shows the role, asks for the password twice and signs the person in, once', { tag: '@both-databases' }, async ({
  page,
}) => {
  const { email, inviteUrl } = await inviteUser('marketer');
  await page.goto(inviteUrl);
  await expect(page.getByRole('heading', { name: 'Accept the invitation' })).toBeVisible();
  await expect(page.getByText('You are invited as: Marketer')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Email', exact: true })).toHaveValue(email);
  await expectAccessible(page);
  const password = page.getByRole('textbox', { name: 'Password', exact: true });
  const again = page.getByRole('textbox', { name: 'Password again', exact: true });
  await password.fill('a-long-enough-passphrase');
  await again.fill('a-different-passphrase');
  await page.getByRole('button', { name: 'Set the password and sign in' }).click();
  await expect(page.getByText('The two passwords differ.')).toBeVisible();
  await again.fill('a-long-enough-passphrase');
  await page.getByRole('button', { name: 'Set the password and sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Shops', level: 1 })).toBeVisible();

  await page.goto(inviteUrl);
  await expect(page.getByRole('alert')).toContainText('This invitation is not valid');
});

test('the language switch turns the app into Russian and keeps the choice; sign-out ends the session', { tag: '@both-databases' }, async ({
  page,
  signedIn,
}) => {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Русский' }).click();
  await expect(page.getByRole('heading', { name: 'Магазины', level: 1 })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Магазины', level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Меню учётной записи' })).toContainText(signedIn.email);
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Меню учётной записи' }).click();
  await page.getByRole('menuitem', { name: 'Выйти' }).click();
  await expect(page.getByRole('heading', { name: 'Вход в Patron' })).toBeVisible();
  await page.goto(`${BASE_URL}/admin/shops`);
  await expect(page).toHaveURL(/\/admin\/sign-in\?next=%2Fshops$/);
});
