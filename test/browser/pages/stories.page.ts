import { expect, type Page } from '@playwright/test';
import { BASE_URL } from '../admin-api.js';

/** Stories: the story sets, a new set's editor, a set's phone preview and figures. */
export class StoriesPage {
  constructor(private readonly page: Page) {}

  async gotoSets(shopId: string): Promise<void> {
    await this.page.goto(`${BASE_URL}/admin/shops/${shopId}/stories`);
    await expect(this.page.getByRole('heading', { name: 'Story sets', level: 1 })).toBeVisible();
  }

  async gotoSet(shopId: string, code: string): Promise<void> {
    await this.page.goto(`${BASE_URL}/admin/shops/${shopId}/stories/${code}`);
    await expect(this.page.getByRole('heading', { name: new RegExp(`${code}\\)?$`), level: 1 })).toBeVisible();
  }

  /** An element's fieldset by its number on the slide shown. */
  element(n: number) {
    return this.page.getByRole('group', { name: `Element ${n}`, exact: true });
  }

  async addElement(type: string): Promise<void> {
    await this.page.getByLabel('New element').selectOption({ label: type });
    await this.page.getByRole('button', { name: 'Add element' }).click();
  }

  preview() {
    return this.page.getByRole('figure', { name: 'Phone preview' });
  }

  /** A row of the figures table: a story's name or `Slide n`. */
  figuresRow(label: string) {
    return this.page.getByRole('table', { name: 'Views and clicks' }).getByRole('row', { name: new RegExp(`^${label}`) });
  }
}
