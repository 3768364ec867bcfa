import { expect, type Locator, type Page } from '@playwright/test';
import { BASE_URL } from '../admin-api.js';

/** The chains: the list, the builder, and one chain's steps with their counts and its runs. */
export class ChainsPage {
  constructor(private readonly page: Page) {}

  async gotoList(shopId: string): Promise<void> {
    await this.page.goto(`${BASE_URL}/admin/shops/${shopId}/chains`);
    await expect(this.page.getByRole('heading', { name: 'Chains', level: 1 })).toBeVisible();
  }

  async newChain(): Promise<void> {
    await this.page.getByRole('link', { name: 'New chain' }).click();
    await expect(this.page.getByRole('heading', { name: 'New chain', level: 1 })).toBeVisible();
  }

  async choose(scope: Page | Locator, label: string | RegExp, option: string | RegExp): Promise<void> {
    await scope.getByRole('combobox', { name: label }).click();
    await this.page.getByRole('option', { name: option }).click();
  }

  async settings(code: string, name: string): Promise<void> {
    await this.page.getByRole('textbox', { name: /^Code/ }).fill(code);
    await this.page.getByRole('textbox', { name: /^Name/ }).fill(name);
  }

  async triggerOnEvent(code: string): Promise<void> {
    await this.choose(this.page, 'Custom event code', new RegExp(`^${code}`));
  }

  /** A step of the flow, by its number from 1 and its kind ("Step 2: Condition"). */
  step(number: number, kind?: string): Locator {
    return this.page.getByRole('region', { name: kind ? `Step ${number}: ${kind}` : new RegExp(`^Step ${number}: `) });
  }

  async addStep(kind: 'a wait' | 'a condition' | 'a message' | 'an exit'): Promise<void> {
    await this.page.getByRole('button', { name: `Add ${kind}` }).click();
  }

  async moveUp(number: number): Promise<void> {
    await this.page.getByRole('button', { name: `Move step ${number} up` }).click();
  }

  async waitFor(number: number, amount: string, unit: 'minutes' | 'hours' | 'days'): Promise<void> {
    const step = this.step(number, 'Wait');
    await step.getByRole('textbox', { name: 'How long' }).fill(amount);
    await this.choose(step, 'Unit', unit);
  }

  async variableEquals(number: number, variable: string, value: string): Promise<void> {
    const step = this.step(number, 'Condition');
    await step.getByRole('textbox', { name: 'Variable' }).fill(variable);
    await step.getByRole('textbox', { name: 'Equals' }).fill(value);
  }

  async email(number: number, subject: string, html: string): Promise<void> {
    const step = this.step(number, 'Send');
    // The shared template editor: CodeMirror fields named by their labels.
    await step.getByRole('textbox', { name: 'Subject' }).fill(subject);
    await step.getByRole('textbox', { name: 'HTML or MJML' }).fill(html);
  }

  async save(): Promise<void> {
    await this.page.getByRole('button', { name: 'Save chain' }).click();
  }

  /** Reads the runs and the steps' counts again, as the page's button does. */
  async refresh(): Promise<void> {
    await this.page.getByRole('button', { name: 'Refresh runs and counts' }).click();
  }

  /** The runs table's rows (the header row left out). */
  runRows(): Locator {
    return this.page
      .getByRole('table', { name: 'Runs' })
      .getByRole('row')
      .filter({ hasNot: this.page.getByRole('columnheader') });
  }

  /** A step's counts as the page shows them beside the step. */
  counts(number: number): Locator {
    return this.step(number).getByRole('group', { name: 'Runs and messages of this step' });
  }
}
