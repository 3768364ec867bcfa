import { expect, type Page } from '@playwright/test';
import { BASE_URL } from '../admin-api.js';

export class SignInPage {
  constructor(private readonly page: Page) {}

  async goto(next?: string): Promise<void> {
    await this.page.goto(`${BASE_URL}/admin/sign-in${next ? `?next=${encodeURIComponent(next)}` : ''}`);
    await expect(this.page.getByRole('heading', { name: 'Sign in to Patron' })).toBeVisible();
  }

  async signIn(email: string, password: string): Promise<void> {
    await this.page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
    await this.page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
    await this.page.getByRole('button', { name: 'Sign in' }).click();
  }

  alert() {
    return this.page.getByRole('alert');
  }
}
