import { expect, type Page } from '@playwright/test';
import { BASE_URL } from '../admin-api.js';

/** The loyalty section: promotions and their promo codes, members and their bonuses. */
export class LoyaltyPage {
  constructor(private readonly page: Page) {}

  async open(shopId: string, path: string, heading: string | RegExp): Promise<void> {
    await this.page.goto(`${BASE_URL}/admin/shops/${shopId}/${path}`);
    await expect(this.page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
  }

  async createPromotion(shopId: string, name: string, percent: string): Promise<void> {
    await this.open(shopId, 'promotions/new', 'New promotion');
    await this.page.getByRole('textbox', { name: /^Name/ }).fill(name);
    await this.page.getByRole('combobox', { name: 'Status' }).click();
    await this.page.getByRole('option', { name: 'Active', exact: true }).click();
    await this.page.getByRole('textbox', { name: /^Percent off/ }).fill(percent);
    await this.page.getByRole('checkbox', { name: /only through one of its promo codes/ }).check();
    await this.page.getByRole('button', { name: 'Create the promotion' }).click();
    await expect(this.page.getByRole('heading', { name: `Promotion: ${name}`, level: 1 })).toBeVisible();
  }

  async generateCodes(count: number, pattern: string): Promise<void> {
    await this.page.getByRole('textbox', { name: /^How many codes/ }).fill(String(count));
    await this.page.getByRole('textbox', { name: /^Pattern/ }).fill(pattern);
    await this.page.getByRole('button', { name: 'Generate codes' }).click();
  }

  codesTable() {
    return this.page.getByRole('table', { name: 'Promo codes' });
  }

  async loadMore(): Promise<void> {
    await this.page.getByRole('button', { name: 'Load more' }).click();
  }

  async adjust(kind: 'Credit' | 'Debit', amount: string, reason: string): Promise<void> {
    await this.page.getByText(kind, { exact: true }).click();
    await this.page.getByRole('textbox', { name: /^Amount/ }).fill(amount);
    await this.page.getByRole('textbox', { name: /^Reason/ }).fill(reason);
    await this.page.getByRole('button', { name: `${kind} the bonuses` }).click();
  }

  ledger() {
    return this.page.getByRole('table', { name: 'Transactions' });
  }
}
