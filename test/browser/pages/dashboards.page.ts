import fs from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { BASE_URL } from '../admin-api.js';

/** The dashboards: a shop's overview of a period, and a mailing's funnel. */
export class DashboardsPage {
  constructor(private readonly page: Page) {}

  async gotoOverview(shopId: string): Promise<void> {
    await this.page.goto(`${BASE_URL}/admin/shops/${shopId}/dashboard`);
    await expect(this.page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  }

  async gotoFunnel(shopId: string, type: string, id: number): Promise<void> {
    await this.page.goto(`${BASE_URL}/admin/shops/${shopId}/dashboard/funnels/${type}/${id}`);
    await expect(this.page.getByRole('heading', { name: /^Funnel: /, level: 1 })).toBeVisible();
  }

  /** A headline figure's card, by its name: its text holds the value. */
  card(label: string) {
    return this.page.getByRole('listitem').filter({ has: this.page.getByText(label, { exact: true }) });
  }

  /** A chart's section, by its heading. */
  chart(title: string) {
    return this.page.getByRole('region', { name: title });
  }

  async preset(days: 7 | 30 | 90): Promise<void> {
    await this.page.getByText(`Last ${days} days`, { exact: true }).click();
  }

  async customPeriod(from: string, to: string): Promise<void> {
    await this.page.getByText('Custom', { exact: true }).click();
    await this.page.getByLabel('First day').fill(from);
    await this.page.getByLabel('Last day').fill(to);
    await this.page.getByRole('button', { name: 'Show' }).click();
  }

  /** Clicks a CSV link and answers the saved file's name and text. */
  async download(linkName: string | RegExp): Promise<{ name: string; text: string }> {
    const download = this.page.waitForEvent('download');
    await this.page.getByRole('link', { name: linkName }).first().click();
    const file = await download;
    const path = await file.path();
    return { name: file.suggestedFilename(), text: fs.readFileSync(path, 'utf8') };
  }
}
