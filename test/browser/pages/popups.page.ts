import { expect, type Page } from '@playwright/test';
import { BASE_URL } from '../admin-api.js';

/** Popups: the list with figures, a new popup, a popup's figures, preview and targeting. */
export class PopupsPage {
  constructor(private readonly page: Page) {}

  async gotoList(shopId: string): Promise<void> {
    await this.page.goto(`${BASE_URL}/admin/shops/${shopId}/popups`);
    await expect(this.page.getByRole('heading', { name: 'Popups', level: 1 })).toBeVisible();
  }

  preview() {
    return this.page.getByRole('figure', { name: /^Preview of the popup/ });
  }

  figure(label: string) {
    return this.page.getByRole('list', { name: 'Figures' }).getByRole('listitem').filter({ hasText: label });
  }

  row(name: string) {
    return this.page.getByRole('table', { name: 'Popups' }).getByRole('row').filter({ hasText: name });
  }
}
