import fs from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { BASE_URL } from '../admin-api.js';

/** Recommendations: the blocks and the models' build, a new block, a block's figures, preview and rules. */
export class RecommendationsPage {
  constructor(private readonly page: Page) {}

  async gotoBlocks(shopId: string): Promise<void> {
    await this.page.goto(`${BASE_URL}/admin/shops/${shopId}/recommendations`);
    await expect(this.page.getByRole('heading', { name: 'Recommendation blocks', level: 1 })).toBeVisible();
  }

  async gotoBlock(shopId: string, code: string, query = ''): Promise<void> {
    await this.page.goto(`${BASE_URL}/admin/shops/${shopId}/recommendations/${code}${query}`);
    await expect(this.page.getByRole('heading', { name: new RegExp(`\\(${code}\\)$`), level: 1 })).toBeVisible();
  }

  /** A rule's fieldset by its number as the editor shows it (`1`, `2.then.1`). */
  rule(n: string) {
    return this.page.getByRole('group', { name: `Rule ${n}`, exact: true });
  }

  async pickRecommender(n: string, label: string): Promise<void> {
    await this.rule(n).getByLabel('Recommender').first().selectOption({ label });
  }

  async pickCondition(n: string, label: string): Promise<void> {
    await this.rule(n).getByLabel('If', { exact: true }).selectOption({ label });
  }

  preview() {
    return this.page.getByRole('region', { name: 'Preview', exact: true });
  }

  /** Types the preview's customer (empty for an anonymous visitor) and asks for the preview. */
  async showPreview(customer: string): Promise<void> {
    await this.preview().getByLabel('Customer').fill(customer);
    await this.preview().getByRole('button', { name: 'Show' }).click();
  }

  /** Picks the preview's product from the suggestions for a part of its name. */
  async pickPreviewProduct(typed: string, option: string | RegExp): Promise<void> {
    await this.preview().getByLabel('Product', { exact: true }).fill(typed);
    await this.page.getByRole('option', { name: option }).click();
  }

  /** The preview's products in order, each row's text: position, name, offer id, price, recommender. */
  previewRows() {
    return this.preview().getByRole('table', { name: 'Products of the preview' }).getByRole('rowgroup').nth(1).getByRole('row');
  }

  /** A headline figure's card, by its name: its text holds the value. */
  card(label: string) {
    return this.page.getByRole('listitem').filter({ has: this.page.getByText(label, { exact: true }) });
  }

  /** Clicks a CSV link and answers the saved file's name and text. */
  async download(linkName: string | RegExp): Promise<{ name: string; text: string }> {
    const download = this.page.waitForEvent('download');
    await this.page.getByRole('link', { name: linkName }).first().click();
    const file = await download;
    return { name: file.suggestedFilename(), text: fs.readFileSync(await file.path(), 'utf8') };
  }
}
