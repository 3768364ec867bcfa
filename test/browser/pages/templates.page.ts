import { expect, type Locator, type Page } from '@playwright/test';
import { BASE_URL } from '../admin-api.js';

/** The transactional mailings and the template editor (web/src/templates/). */
export class TemplatesPage {
  constructor(private readonly page: Page) {}

  async gotoList(shopId: string): Promise<void> {
    await this.page.goto(`${BASE_URL}/admin/shops/${shopId}/transactional`);
    await expect(this.page.getByRole('heading', { name: 'Transactional mailings', level: 1 })).toBeVisible();
  }

  async gotoMailing(shopId: string, code: string): Promise<void> {
    await this.page.goto(`${BASE_URL}/admin/shops/${shopId}/transactional/m/${encodeURIComponent(code)}`);
    await expect(this.page.getByRole('heading', { name: /^Mailing: /, level: 1 })).toBeVisible();
  }

  async startNew(): Promise<void> {
    await this.page.getByRole('link', { name: 'New mailing' }).click();
    await expect(this.page.getByRole('heading', { name: 'New transactional mailing', level: 1 })).toBeVisible();
  }

  /** A template field's editor (CodeMirror's text box), by its label. */
  field(label: string): Locator {
    return this.page.getByRole('textbox', { name: label, exact: true });
  }

  /** Replaces a field's text, as a paste would (no bracket or tag closing as typed keys get). */
  async write(label: string, text: string): Promise<void> {
    const field = this.field(label);
    await field.click();
    await this.page.keyboard.press('ControlOrMeta+a');
    await this.page.keyboard.press('Delete');
    await this.page.keyboard.insertText(text);
    await expect(field).toHaveText(text.replace(/\n/g, ''));
  }

  /** Picks a customer of the shop by an identifier as the preview's sample data. */
  async previewWith(identifier: string): Promise<void> {
    await this.page.getByLabel('Preview with a customer').fill(identifier);
    await this.page.getByRole('button', { name: 'Find', exact: true }).click();
    await this.page.getByRole('button', { name: new RegExp(`^Use ${identifier.replace(/[.]/g, '\\.')} \\(#\\d+\\)$`) }).click();
    await expect(this.page.getByText(`Sample data: customer ${identifier}`)).toBeVisible();
  }

  previewSubject(): Locator {
    return this.page.getByTestId('preview-subject');
  }

  /** The rendered email's body, inside its sandboxed frame. */
  previewBody(): Locator {
    return this.page.frameLocator('iframe[title="The email as rendered"]').locator('body');
  }

  /** The errors shown under a field, in words. */
  fieldErrors(): Locator {
    return this.page.getByRole('alert').filter({ hasText: /^line \d+:/ });
  }

  errorList(): Locator {
    return this.page.getByTestId('template-errors');
  }
}
