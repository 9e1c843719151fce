/** Page object for the right panel's workflow tab: presets, steps, adding, saving. */
import { expect, type Locator, type Page } from '@playwright/test';

export class WorkflowPanel {
  constructor(readonly page: Page) {}

  tab(): Locator {
    return this.page.getByTestId('tab-workflow');
  }

  async open() {
    await this.tab().click();
  }

  preset(medium: string): Locator {
    return this.page.getByTestId(`preset-${medium}`);
  }

  /** The module picker of step i (0-based). */
  module(i: number): Locator {
    return this.page.locator(`#step-${i}-module`);
  }

  modules(): Locator {
    return this.page.locator('[data-testid^="step-"] select');
  }

  step(i: number): Locator {
    return this.page.getByTestId(`step-${i}`);
  }

  async setStep(i: number, module: string) {
    await this.module(i).selectOption(module);
  }

  addButton(): Locator {
    return this.page.getByTestId('add-step');
  }

  /** Why adding is locked (last-step module or the step limit). */
  addLock(): Locator {
    return this.page.getByTestId('add-lock');
  }

  async addStep(module?: string) {
    await this.addButton().click();
    if (module) await this.setStep((await this.modules().count()) - 1, module);
  }

  deleteButton(i: number): Locator {
    return this.page.getByTestId(`delete-step-${i}`);
  }

  async openStepSettings(i: number) {
    await this.page.getByTestId(`toggle-step-${i}`).click();
  }

  saveButton(): Locator {
    return this.page.getByTestId('save-workflow');
  }

  saveDialog(): Locator {
    return this.page.getByTestId('save-workflow-dialog');
  }

  /** Opens the save dialog, types the name and presses Save. */
  async save(name: string) {
    if ((await this.saveDialog().count()) === 0) await this.saveButton().click();
    await this.page.getByTestId('workflow-name').fill(name);
    await this.saveDialog().getByRole('button', { name: 'Save' }).click();
  }

  savedChips(name: RegExp): Locator {
    return this.page.locator('.chip-row .chip', { hasText: name });
  }

  async expectSelected() {
    await expect(this.tab()).toHaveAttribute('aria-selected', 'true');
  }
}
