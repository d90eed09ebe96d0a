import { defineConfig } from '@playwright/test';

// Browser tests run in Debian's Chromium: Playwright cannot download its own browsers here.
// Without the networking flags the closed network stalls Chromium.
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: 'tests/e2e',
  // Builds the site once from records/ plus the hostile fixture and serves it on an OS-chosen port.
  globalSetup: './tests/e2e/global-setup.ts',
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  workers: 2,
  fullyParallel: true,
  timeout: 60_000,
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  outputDir: 'test-results/output',
  use: {
    // Set by the global setup before workers start; workers read this file again and see it.
    baseURL: process.env.GARMENT_PRESS_E2E_URL,
    browserName: 'chromium',
    javaScriptEnabled: true,
    launchOptions: {
      executablePath: chromium,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
    trace: 'retain-on-failure',
  },
});
