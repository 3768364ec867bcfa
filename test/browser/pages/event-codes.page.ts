import { expect, type Page } from '@playwright/test';
import { BASE_URL } from '../admin-api.js';

/** The events section: a shop's custom event codes. */
export class EventCodesPage {
  constructor(private readonly page: Page) {}

  async goto(shopId: string): Promise<void> {
    await this.page.goto(`${BASE_URL}/admin/shops/${shopId}/event-codes`);
    await expect(this.page.getByRole('heading', { name: 'Custom event codes', level: 1 })).toBeVisible();
  }

  async create(code: string, name?: string): Promise<void> {
    await this.page.getByRole('textbox', { name: /^Code/ }).fill(code);
    if (name) await this.page.getByRole('textbox', { name: /^Display name/ }).fill(name);
    await this.page.getByRole('button', { name: 'Create' }).click();
  }

  row(code: string) {
    return this.page.getByRole('row').filter({ hasText: code });
  }
}
