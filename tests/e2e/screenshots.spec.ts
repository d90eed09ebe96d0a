import { expect, test } from './fixtures.ts';
import { sampleRecords } from './site.ts';

// One page per projection at desktop and mobile width, for a reviewer to look at.
const widths = { desktop: { width: 1280, height: 900 }, mobile: { width: 375, height: 800 } };

for (const projection of ['svc', 'tech'] as const) {
  for (const [name, viewport] of Object.entries(widths)) {
    test(`a ${projection} page is captured at ${name} width`, async ({ page }) => {
      const sample = sampleRecords().find(({ record }) => record.projection === projection);
      expect(sample, `records/ has no ${projection} sample record`).toBeDefined();
      await page.setViewportSize(viewport);
      await page.goto(`/garments/${sample!.record.slug}/${projection}/`);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await page.screenshot({ path: `test-results/screenshots/${projection}-${name}.png`, fullPage: true });
      // The first screen alone, readable at a glance (the full page is very tall).
      await page.screenshot({ path: `test-results/screenshots/${projection}-${name}-top.png` });
    });
  }
}

test('the index is captured at desktop and mobile width', async ({ page }) => {
  for (const [name, viewport] of Object.entries(widths)) {
    await page.setViewportSize(viewport);
    await page.goto('/');
    await page.screenshot({ path: `test-results/screenshots/index-${name}.png`, fullPage: true });
  }
});
