import { expect, type Page } from '@playwright/test';
import { BASE_URL } from '../admin-api.js';

/** The messaging section: channels, a channel's settings and test send, the delivery log, a message, webhooks. */
export class MessagingPage {
  constructor(private readonly page: Page) {}

  async gotoChannels(shopId: string): Promise<void> {
    await this.page.goto(`${BASE_URL}/admin/shops/${shopId}/channels`);
    await expect(this.page.getByRole('heading', { name: 'Channels', level: 1 })).toBeVisible();
  }

  async gotoChannel(shopId: string, channel: string, name: string): Promise<void> {
    await this.page.goto(`${BASE_URL}/admin/shops/${shopId}/channels/${channel}`);
    await expect(this.page.getByRole('heading', { name: `Channel: ${name}`, level: 1 })).toBeVisible();
    await expect(this.page.getByRole('heading', { name: 'Provider settings' })).toBeVisible();
  }

  channelsTable() {
    return this.page.getByRole('table', { name: 'Channels' });
  }

  /** A setting of the provider form by its name (a secret's input is a password box, so by label). */
  setting(name: string) {
    // A required setting's label ends in an asterisk.
    return this.page.getByLabel(new RegExp(`^${name}( \\*)?$`));
  }

  health() {
    return this.page.getByRole('region', { name: 'Health in the last 24 hours' });
  }

  async save(): Promise<void> {
    await this.page.getByRole('button', { name: 'Save' }).click();
  }

  async testSend(to: string): Promise<void> {
    await this.page.getByRole('textbox', { name: 'Send to' }).fill(to);
    await this.page.getByRole('button', { name: 'Send a test' }).click();
  }

  async gotoLog(shopId: string, query = ''): Promise<void> {
    await this.page.goto(`${BASE_URL}/admin/shops/${shopId}/messages${query}`);
    await expect(this.page.getByRole('heading', { name: 'Delivery log', level: 1 })).toBeVisible();
  }

  async searchLog(customer: string): Promise<void> {
    await this.page.getByRole('textbox', { name: /^Customer/ }).fill(customer);
    await this.page.getByRole('button', { name: 'Search' }).click();
  }

  logResults() {
    return this.page.getByRole('table', { name: 'Messages' });
  }

  /** The rendered email inside its sandboxed frame. */
  emailFrame() {
    return this.page.frameLocator('iframe[title="The email as rendered"]');
  }

  async gotoWebhooks(shopId: string): Promise<void> {
    await this.page.goto(`${BASE_URL}/admin/shops/${shopId}/webhooks`);
    await expect(this.page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
  }

  async addEndpoint(url: string, description: string, events: readonly string[]): Promise<void> {
    await this.page.getByRole('textbox', { name: 'URL' }).fill(url);
    await this.page.getByRole('textbox', { name: 'Description' }).fill(description);
    for (const event of events) await this.page.getByRole('checkbox', { name: event, exact: true }).check();
    await this.page.getByRole('button', { name: 'Add endpoint' }).click();
  }

  deliveries() {
    return this.page.getByRole('table', { name: 'Recent deliveries' });
  }
}
