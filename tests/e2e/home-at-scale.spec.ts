// Issue 35, point 1: on a site of hundreds of garments, the home page shows garments in its first
// screen at phone and desktop width, each card with the facts a search result shows.
import { expect, test } from './fixtures.ts';
import { largeSiteUrl } from './site.ts';

test.use({ baseURL: largeSiteUrl() });

const VIEWPORTS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } };

for (const [width, viewport] of Object.entries(VIEWPORTS)) {
  test(`the home page shows garments with their price and sizes in the first screen at ${width} width`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto('/');
    const first = page.locator('li.garment').first();
    const box = (await first.boundingBox())!;
    // The whole first card is in the first screen, its facts with it.
    expect(box.y + box.height, `the first card ends at ${box.y + box.height}px`).toBeLessThanOrEqual(viewport.height);
    await expect(first.locator('.garment-facts')).toContainText(/From\s*\$\d/);
    await expect(first.locator('.garment-facts')).toContainText(/Sizes/);
    // Every card shows its picture, says there is none, or (a picture that failed) shows the garment's name in its place.
    const unnamed = await page
      .locator('li.garment')
      .evaluateAll(
        (cards) =>
          cards.filter(
            (card) =>
              !card.querySelector('img') &&
              !card.querySelector('.no-image[role="img"][aria-label^="No picture of "]') &&
              card.querySelector('.image-placeholder')?.textContent !== card.querySelector('h3')?.textContent,
          ).length,
      );
    expect(unnamed).toBe(0);
    // The search box opens the search page with the words, with or without a script.
    await page.getByRole('search', { name: 'Search garments' }).getByRole('searchbox').fill('cotton');
    await page.getByRole('search', { name: 'Search garments' }).getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(/\/search\/\?q=cotton$/);
  });
}
