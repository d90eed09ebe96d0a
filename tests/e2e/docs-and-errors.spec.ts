// The documentation reads on a phone, and a missing address leads on to search and the garment list.
import { expect, test } from './fixtures.ts';
import { builtRecords } from './site.ts';

const VIEWPORTS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } };

for (const path of ['/docs/api/', '/docs/webhooks/', '/docs/mcp/'])
  for (const viewport of Object.values(VIEWPORTS)) {
    test(`${path}: at ${viewport.width} pixels every table cell is on screen, none cut off at the side`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.goto(path);
      const cells = page.locator('table :is(th, td)');
      expect(await cells.count()).toBeGreaterThan(10);
      const offScreen = await cells.evaluateAll((all) =>
        all
          .filter(
            (cell) => (cell.textContent ?? '').trim() !== '' && getComputedStyle(cell).position !== 'absolute' && !cell.closest('thead'),
          )
          .filter((cell) => {
            const box = cell.getBoundingClientRect();
            return box.left < 0 || box.right > window.innerWidth + 0.5;
          })
          .map((cell) => cell.textContent!.trim().slice(0, 40)),
      );
      expect(offScreen).toEqual([]);
    });
  }

test('a missing address answers with search and the garment list', async ({ page }) => {
  const response = await page.goto('/garments/no-such-garment/svc/');
  expect(response!.status()).toBe(404);
  const garments = new Set(builtRecords().map(({ record }) => record.slug)).size;
  await expect(page.getByRole('link', { name: `Browse all ${garments} garments` })).toHaveAttribute('href', '/');
  await page.getByRole('searchbox', { name: 'Search the garments' }).fill('fleece');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/\/search\/\?q=fleece$/);
  await expect(page.getByRole('searchbox', { name: 'Search garments' })).toHaveValue('fleece');
});

for (const [name, viewport] of Object.entries(VIEWPORTS))
  test.describe(`copy buttons on the code examples at ${name} width`, () => {
    test.use({ permissions: ['clipboard-read', 'clipboard-write'], viewport });

    test('each example has one, reached by keyboard; it copies the example as shown and says "Copied" to a screen reader', async ({
      page,
    }) => {
      await page.goto('/docs/webhooks/');
      const examples = page.locator('figure[data-code-block]');
      const buttons = page.getByRole('button', { name: /^Copy: / });
      expect(await examples.count()).toBeGreaterThan(10);
      await expect(buttons).toHaveCount(await examples.count());

      const example = page.locator('figure[data-code-block]', { has: page.locator('code[data-example="receiver.py"]') });
      const button = example.getByRole('button', { name: 'Copy: A complete receiver in Python' });
      await button.focus();
      await page.keyboard.press('Enter');
      await expect(example.getByRole('status')).toHaveText('Copied');
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      expect(copied).toBe(await example.locator('pre > code').textContent());
      expect(copied).toContain('from verify import verify_delivery');
    });

    test('without JavaScript there is no button that would do nothing', async ({ browser, baseURL }) => {
      const context = await browser.newContext({ javaScriptEnabled: false, baseURL, viewport });
      const page = await context.newPage();
      await page.goto('/docs/webhooks/');
      await expect(page.locator('figure[data-code-block] pre').first()).toBeVisible();
      await expect(page.getByRole('button', { name: /^Copy/ })).toHaveCount(0);
      await context.close();
    });
  });
