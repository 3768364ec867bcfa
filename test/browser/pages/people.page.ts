import { expect, type Page } from '@playwright/test';
import { BASE_URL } from '../admin-api.js';

/** The signed-in person's own account: password, API tokens, sessions. */
export class AccountPage {
  constructor(private readonly page: Page) {}

  async goto(): Promise<void> {
    await this.page.goto(`${BASE_URL}/admin/account`);
    await expect(this.page.getByRole('heading', { name: 'My account', level: 1 })).toBeVisible();
  }

  async changePassword(current: string, next: string, again = next): Promise<void> {
    await this.page.getByRole('textbox', { name: 'Current password', exact: true }).fill(current);
    await this.page.getByRole('textbox', { name: 'New password', exact: true }).fill(next);
    await this.page.getByRole('textbox', { name: 'New password again', exact: true }).fill(again);
    await this.page.getByRole('button', { name: 'Change the password' }).click();
  }

  /** Creates a token and reads it from the panel that shows it once. */
  async createToken(name: string): Promise<string> {
    await this.page.getByRole('textbox', { name: 'Name of a new token' }).fill(name);
    await this.page.getByRole('button', { name: 'Create a token' }).click();
    const token = this.page.getByTestId('new-token');
    await expect(token).toBeVisible();
    return (await token.innerText()).trim();
  }

  tokenRow(name: string) {
    return this.page.getByRole('table', { name: 'API tokens' }).getByRole('row').filter({ hasText: name });
  }

  async revokeToken(name: string): Promise<void> {
    await this.page.getByRole('button', { name: `Revoke the token ${name}` }).click();
    const dialog = this.page.getByRole('dialog', { name: 'Revoke the API token?' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await expect(this.page.getByRole('dialog')).toHaveCount(0);
  }
}

/** The team: the list, the invitation dialog, one user. */
export class UsersPage {
  constructor(private readonly page: Page) {}

  async gotoList(): Promise<void> {
    await this.page.goto(`${BASE_URL}/admin/users`);
    await expect(this.page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
  }

  async openInvitation(): Promise<void> {
    await this.page.getByRole('button', { name: 'Invite a user' }).click();
    await expect(this.page.getByRole('dialog', { name: 'Invite a user' })).toBeVisible();
  }

  /** Fills the open invitation dialog, sends it and reads the one-time link shown after. */
  async invite(email: string, role: string, shopNames: readonly string[] = []): Promise<string> {
    const dialog = this.page.getByRole('dialog', { name: 'Invite a user' });
    await dialog.getByRole('textbox', { name: 'Email' }).fill(email);
    await dialog.getByRole('combobox', { name: 'Role' }).click();
    await this.page.getByRole('option', { name: role, exact: true }).click();
    if (shopNames.length > 0) {
      await dialog.getByRole('checkbox', { name: /^Every shop/ }).uncheck();
      for (const name of shopNames) {
        await dialog.getByLabel('Limited to these shops').first().click();
        await this.page.getByRole('option', { name, exact: true }).click();
      }
      await this.page.keyboard.press('Escape');
    }
    await dialog.getByRole('button', { name: 'Invite', exact: true }).click();
    await expect(this.page.getByRole('dialog')).toHaveCount(0);
    return (await this.page.getByTestId('invite-url').innerText()).trim();
  }

  /** On a user's page: picks the role and limits the user to the named shops, then saves. */
  async editAccess(role: string, shopNames: readonly string[]): Promise<void> {
    await this.page.getByRole('combobox', { name: 'Role' }).click();
    await this.page.getByRole('option', { name: role, exact: true }).click();
    await this.page.getByRole('checkbox', { name: /^Every shop/ }).uncheck();
    for (const name of shopNames) {
      await this.page.getByLabel('Limited to these shops').first().click();
      await this.page.getByRole('option', { name, exact: true }).click();
    }
    await this.page.keyboard.press('Escape');
    await this.page.getByRole('button', { name: 'Save' }).click();
  }

  userLink(email: string) {
    return this.page.getByRole('link', { name: email, exact: true });
  }
}

/** The audit log: filters, entries, details. */
export class AuditPage {
  constructor(private readonly page: Page) {}

  async goto(): Promise<void> {
    await this.page.goto(`${BASE_URL}/admin/audit`);
    await expect(this.page.getByRole('heading', { name: 'Audit log', level: 1 })).toBeVisible();
  }

  async filterByAction(action: string): Promise<void> {
    await this.page.getByRole('textbox', { name: /^Action/ }).fill(action);
    await this.page.getByRole('button', { name: 'Apply' }).click();
  }

  entry(action: string) {
    return this.page.getByRole('row').filter({ has: this.page.getByText(action, { exact: true }) });
  }
}
