import { expect, type Page } from '@playwright/test';
import { BASE_URL } from '../admin-api.js';

/** NPS: the settings (channels, categories) and the reviews page with the score. */
export class NpsPage {
  constructor(private readonly page: Page) {}

  async gotoSettings(shopId: string): Promise<void> {
    await this.page.goto(`${BASE_URL}/admin/shops/${shopId}/nps/settings`);
    await expect(this.page.getByRole('heading', { name: 'NPS settings', level: 1 })).toBeVisible();
  }

  async gotoReviews(shopId: string): Promise<void> {
    await this.page.goto(`${BASE_URL}/admin/shops/${shopId}/nps`);
    await expect(this.page.getByRole('heading', { name: 'NPS reviews', level: 1 })).toBeVisible();
  }

  channelForm() {
    return this.page.getByRole('form', { name: 'Add or rename a channel' });
  }

  categoryForm() {
    return this.page.getByRole('form', { name: 'New category' });
  }

  figures() {
    return this.page.getByRole('list', { name: 'The period in figures' });
  }

  reviews() {
    return this.page.getByRole('table', { name: 'Reviews' });
  }
}
