import { expect, type Page } from '@playwright/test';
import { BASE_URL } from '../admin-api.js';

/** The customers section: search, a customer's page, segments and audience import. */
export class CustomersPage {
  constructor(private readonly page: Page) {}

  async gotoList(shopId: string): Promise<void> {
    await this.page.goto(`${BASE_URL}/admin/shops/${shopId}/customers`);
    await expect(this.page.getByRole('heading', { name: 'Customers', level: 1 })).toBeVisible();
  }

  async search(identifier: string): Promise<void> {
    await this.page.getByRole('textbox', { name: 'Identifier' }).fill(identifier);
    await this.page.getByRole('button', { name: 'Find' }).click();
  }

  results() {
    return this.page.getByRole('table', { name: 'Customers' });
  }

  /** Opens the customer in the results that shows `text` (its email, phone…). */
  async open(text: string): Promise<void> {
    await this.results().getByRole('row').filter({ hasText: text }).getByRole('link').click();
    await expect(this.page.getByRole('heading', { name: /^Customer \d+$/, level: 1 })).toBeVisible();
  }

  identities() {
    return this.page.getByRole('region', { name: 'Identities' });
  }

  properties() {
    return this.page.getByRole('table', { name: 'Properties' });
  }

  timeline() {
    return this.page.getByRole('table', { name: 'Events' });
  }

  async tab(name: 'Events' | 'Orders' | 'Loyalty' | 'Messages'): Promise<void> {
    await this.page.getByRole('tab', { name }).click();
  }

  async gotoSegments(shopId: string): Promise<void> {
    await this.page.goto(`${BASE_URL}/admin/shops/${shopId}/segments`);
    await expect(this.page.getByRole('heading', { name: 'Segments', level: 1 })).toBeVisible();
  }

  async createSegment(name: string): Promise<void> {
    await this.page.getByRole('textbox', { name: /^New segment name/ }).fill(name);
    await this.page.getByRole('button', { name: 'Create' }).click();
  }

  segmentRow(name: string) {
    return this.page.getByRole('table', { name: 'Segments' }).getByRole('row').filter({ hasText: name });
  }

  async gotoImports(shopId: string): Promise<void> {
    await this.page.goto(`${BASE_URL}/admin/shops/${shopId}/imports`);
    await expect(this.page.getByRole('heading', { name: 'Audience import', level: 1 })).toBeVisible();
  }

  async upload(fileName: string, csv: string, segment?: string): Promise<void> {
    const chooser = this.page.waitForEvent('filechooser');
    await this.page.getByRole('button', { name: /^CSV file/ }).click();
    await (await chooser).setFiles({ name: fileName, mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });
    if (segment) {
      await this.page.getByRole('combobox', { name: /^Into segment/ }).click();
      await this.page.getByRole('option', { name: new RegExp(`^${segment}`) }).click();
    }
    await this.page.getByRole('button', { name: 'Upload and import' }).click();
  }

  report() {
    return this.page.getByRole('region', { name: 'Import report' });
  }
}
