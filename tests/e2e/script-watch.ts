import type { Page } from '@playwright/test';

/** Records every dialog (dismissing it) and every uncaught page error, so a test can assert none happened. */
export function watchForScripts(page: Page): { dialogs: string[]; errors: string[] } {
  const dialogs: string[] = [];
  const errors: string[] = [];
  page.on('dialog', async (dialog) => {
    dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { dialogs, errors };
}
