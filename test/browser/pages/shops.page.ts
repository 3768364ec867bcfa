import { expect, type Page } from '@playwright/test';
import { BASE_URL } from '../admin-api.js';

/** The shops section: the list, a shop's settings (with the secret's rotation) and its integration page. */
export class ShopsPage {
  constructor(private readonly page: Page) {}

  async gotoList(): Promise<void> {
    await this.page.goto(`${BASE_URL}/admin/shops`);
    await expect(this.page.getByRole('heading', { name: 'Shops', level: 1 })).toBeVisible();
  }

  linkTo(name: string) {
    return this.page.getByRole('link', { name, exact: true });
  }

  async gotoSettings(shopId: string): Promise<void> {
    await this.page.goto(`${BASE_URL}/admin/shops/${shopId}/settings`);
    await expect(this.page.getByRole('heading', { name: /^Shop settings/, level: 1 })).toBeVisible();
  }

  async openRotation(): Promise<void> {
    await this.page.getByRole('button', { name: 'Rotate the secret' }).click();
    await expect(this.page.getByRole('dialog', { name: 'Rotate the API secret?' })).toBeVisible();
  }

  async cancelRotation(): Promise<void> {
    await this.page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await expect(this.page.getByRole('dialog')).toHaveCount(0);
  }

  /** Confirms, reads the new secret from the dialog that shows it once, and closes it. */
  async confirmRotation(): Promise<string> {
    await this.page.getByRole('dialog').getByRole('button', { name: 'Rotate', exact: true }).click();
    const shown = this.page.getByRole('dialog', { name: 'The new API secret' });
    await expect(shown).toBeVisible();
    const secret = (await shown.getByTestId('new-secret').innerText()).trim();
    await shown.getByRole('button', { name: 'Done' }).click();
    await expect(this.page.getByRole('dialog')).toHaveCount(0);
    return secret;
  }

  async gotoIntegration(shopId: string): Promise<void> {
    await this.page.goto(`${BASE_URL}/admin/shops/${shopId}/integration`);
    await expect(this.page.getByRole('heading', { name: 'Integration', level: 1 })).toBeVisible();
  }

  feed() {
    return this.page.getByRole('table');
  }
}
