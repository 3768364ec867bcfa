import { expect, type Locator, type Page } from '@playwright/test';
import { BASE_URL } from '../admin-api.js';

/** The catalog section: the feed and its log, products, hidden products, categories, searches, sliders. */
export class CatalogPage {
  constructor(private readonly page: Page) {}

  private async open(shopId: string, path: string, heading: string): Promise<void> {
    await this.page.goto(`${BASE_URL}/admin/shops/${shopId}/${path}`);
    await expect(this.page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
  }

  gotoFeed(shopId: string) {
    return this.open(shopId, 'feed', 'Product feed');
  }

  gotoProducts(shopId: string) {
    return this.open(shopId, 'products', 'Products');
  }

  gotoHidden(shopId: string) {
    return this.open(shopId, 'products/hidden', 'Hidden products');
  }

  gotoCategories(shopId: string) {
    return this.open(shopId, 'categories', 'Categories');
  }

  gotoNoResults(shopId: string) {
    return this.open(shopId, 'search/no-results', 'Searches without results');
  }

  gotoSliders(shopId: string) {
    return this.open(shopId, 'sliders', 'Sliders');
  }

  /** Picks a file in the feed form and sends it. */
  async upload(file: string): Promise<void> {
    await this.page.locator('input[type="file"]').setInputFiles(file);
    await this.page.getByRole('button', { name: 'Upload and import' }).click();
  }

  importLog(): Locator {
    return this.page.getByRole('table', { name: 'Import log' });
  }

  importRows(): Locator {
    return this.page.getByTestId('import-row');
  }

  refusal(): Locator {
    return this.page.getByRole('alert').filter({ hasText: 'The feed was not imported' });
  }

  async search(filters: { query?: string; category?: string }): Promise<void> {
    await this.page.getByRole('textbox', { name: 'Name or offer id' }).fill(filters.query ?? '');
    await this.page.getByRole('textbox', { name: 'Category id' }).fill(filters.category ?? '');
    await this.page.getByRole('button', { name: 'Search' }).click();
  }

  products(label = 'Products'): Locator {
    return this.page.getByRole('table', { name: label });
  }

  productRow(text: string, label = 'Products'): Locator {
    return this.products(label).getByRole('row').filter({ hasText: text });
  }

  async openProduct(name: string): Promise<Locator> {
    await this.page.getByRole('button', { name, exact: true }).click();
    const drawer = this.page.getByRole('dialog');
    await expect(drawer).toBeVisible();
    return drawer;
  }

  async expand(category: string): Promise<void> {
    await this.page.getByRole('button', { name: `Open ${category}` }).click();
  }

  treeItem(name: string): Locator {
    return this.page.getByRole('treeitem', { name: new RegExp(name) });
  }
}
