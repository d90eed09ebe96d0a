// The documentation reads on a phone, and a missing address leads on to search and the garment list.
import { expect, test } from './fixtures.ts';
import { builtRecords } from './site.ts';

for (const path of ['/docs/api/', '/docs/webhooks/', '/docs/mcp/']) {
  test(`${path}: at 390 pixels every table cell is on screen, none cut off at the side`, async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
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
