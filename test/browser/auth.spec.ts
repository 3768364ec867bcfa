import { createUser, BASE_URL } from './admin-api.js';
import { expect, expectAccessible, test } from './fixtures.js';
import { SignInPage } from './pages/sign-in.page.js';

test('the sign-in screen is accessible and refuses a wrong password in words', async ({ page }) => {
  const user = await createUser('owner');
  test.skip(!user, 'this Patron has no admin users (POST /admin/v1/users is 404)');
  const signIn = new SignInPage(page);
  await signIn.goto();
  await expectAccessible(page);
  await signIn.signIn(user!.email, 'not-the-password');
  await expect(signIn.alert()).toHaveText('Email or password is wrong.');
});

test('signing in from a deep link lands on that page, and a reload keeps it', async ({ page }) => {
  const user = await createUser('owner');
  test.skip(!user, 'this Patron has no admin users (POST /admin/v1/users is 404)');
  await page.goto(`${BASE_URL}/admin/shops`);
  await expect(page).toHaveURL(/\/admin\/sign-in\?next=%2Fshops$/);
  await new SignInPage(page).signIn(user!.email, user!.password);
  await expect(page).toHaveURL(`${BASE_URL}/admin/shops`);
  await expect(page.getByRole('heading', { name: 'Shops', level: 1 })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Shops', level: 1 })).toBeVisible();
});

test('a sign-in link that names another site stays in the app', async ({ page }) => {
  const user = await createUser('owner');
  test.skip(!user, 'this Patron has no admin users (POST /admin/v1/users is 404)');
  await page.goto(`${BASE_URL}/admin/sign-in?next=${encodeURIComponent('//evil.example/steal')}`);
  await new SignInPage(page).signIn(user!.email, user!.password);
  await expect(page).toHaveURL(`${BASE_URL}/admin/shops`);
});
