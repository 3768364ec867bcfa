import { expect, type Page } from '@playwright/test';
import { BASE_URL } from '../admin-api.js';

/** The campaigns: the list, compose, and one campaign's progress and results. */
export class CampaignsPage {
  constructor(private readonly page: Page) {}

  async gotoList(shopId: string): Promise<void> {
    await this.page.goto(`${BASE_URL}/admin/shops/${shopId}/campaigns`);
    await expect(this.page.getByRole('heading', { name: 'Campaigns', level: 1 })).toBeVisible();
  }

  /** The side navigation's link to the campaigns, in its Messaging group. */
  navLink() {
    return this.page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Campaigns' });
  }

  async startNew(): Promise<void> {
    await this.page.getByRole('link', { name: 'New campaign' }).click();
    await expect(this.page.getByRole('heading', { name: 'New campaign', level: 1 })).toBeVisible();
  }

  async name(text: string): Promise<void> {
    await this.page.getByRole('textbox', { name: 'Name' }).fill(text);
  }

  segments() {
    return this.page.getByRole('combobox', { name: 'Segments' });
  }

  async pickSegment(name: string): Promise<void> {
    await this.segments().click();
    await this.page.getByRole('option', { name: new RegExp(`^${name} \\(`) }).click();
    await this.page.keyboard.press('Escape');
  }

  /** Takes the last picked segment off (the key a person presses in the empty search). */
  async dropLastSegment(): Promise<void> {
    await this.segments().click();
    await this.page.keyboard.press('Backspace');
    await this.page.keyboard.press('Escape');
  }

  /** The campaign's email, written in the template editor (its fields are code editors). */
  async email(subject: string, html: string): Promise<void> {
    await this.page.getByRole('button', { name: 'Write the Email template' }).click();
    await this.page.getByRole('textbox', { name: 'Subject', exact: true }).fill(subject);
    await this.page.getByRole('textbox', { name: 'HTML or MJML', exact: true }).fill(html);
  }

  /** The live count of who the campaign reaches. */
  audience() {
    return this.page.getByRole('region', { name: 'Who it reaches now' });
  }

  /** A channel's row of the reachable count. */
  reach(channel: string) {
    return this.audience()
      .getByRole('row')
      .filter({ has: this.page.getByRole('rowheader', { name: channel }) });
  }

  /** Turns the A/B test on. */
  async abTest(): Promise<void> {
    await this.page.getByRole('switch', { name: /Test variants first/ }).check();
  }

  async variantShare(name: string, share: string): Promise<void> {
    await this.page.getByRole('textbox', { name: `Variant ${name}: share of the test, %` }).fill(share);
  }

  async variantSubject(name: string, subject: string): Promise<void> {
    await this.page.getByRole('textbox', { name: `Variant ${name}: email subject` }).fill(subject);
  }

  abSection() {
    return this.page.getByRole('region', { name: 'A/B test' });
  }

  async sendNow(): Promise<void> {
    await this.page.getByRole('button', { name: 'Send the campaign now' }).click();
  }

  progressBar() {
    return this.page.getByRole('progressbar', { name: 'Sending progress' });
  }

  progress() {
    return this.page.getByRole('region', { name: 'Sending progress' });
  }

  /** A row of the results (a variant, the rest, "Total"), its cells by column name. */
  async result(row: string, column: string): Promise<string> {
    const table = this.page.getByRole('table', { name: 'Results' });
    const headers = await table.getByRole('columnheader').allTextContents();
    const index = headers.indexOf(column);
    if (index < 0) throw new Error(`no column ${column} in ${headers.join(', ')}`);
    const cells = table
      .getByRole('row')
      .filter({ has: this.page.getByRole('rowheader', { name: row, exact: true }) })
      .getByRole('cell');
    return (await cells.nth(index - 1).textContent()) ?? '';
  }
}
