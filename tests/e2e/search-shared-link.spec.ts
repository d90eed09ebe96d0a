// A search link to the home page (`/?q=fleece`, as its search box once made them) runs that search:
// the home page sends it on to the search page, under the strict policy a host may set; without
// JavaScript the home page says why it shows the list instead.
import { expect, test } from './fixtures.ts';
import { serveUnderStrictPolicy, stopStrictPolicy, watchForViolations } from './strict-policy.ts';

test.describe('with JavaScript, under a strict content security policy', () => {
  test.beforeEach(async ({ context, baseURL }) => serveUnderStrictPolicy(context, baseURL!));
  test.afterEach(async ({ context }) => stopStrictPolicy(context));

  test('a home page link with a search runs it on the search page, filters and sort kept', async ({ page }) => {
    const blocked = watchForViolations(page);
    await page.goto('/?q=fleece&utm_source=mail');
    await expect(page).toHaveURL(/\/search\/\?q=fleece$/);
    await expect(page.getByRole('searchbox', { name: 'Search garments' })).toHaveValue('fleece');
    await expect(page.locator('[data-search-status]')).toHaveText(/^\d+ garments? for “fleece”$/, { timeout: 20_000 });
    await page.goto('/?q=tee&size=xxl&sort=price');
    await expect(page).toHaveURL(/\/search\/\?q=tee&size=2XL&sort=price$/);
    await expect(page.getByRole('combobox', { name: 'Sort by' })).toHaveValue('price');
    // Back leads to where the reader came from, not to the home page that sent them on.
    await page.goBack();
    await expect(page).toHaveURL(/\/search\/\?q=fleece$/);
    expect(blocked).toEqual([]);
  });

  test('the home page without a search stays the home page', async ({ page }) => {
    await page.goto('/?utm_source=mail');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page).toHaveURL(/\/\?utm_source=mail$/);
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the home page says search needs JavaScript and the garments are listed below', async ({ page }) => {
    await page.goto('/?q=fleece');
    // Playwright's text queries skip <noscript>, which a browser without JavaScript shows.
    await expect(page.locator('.listing-search-noscript')).toBeVisible();
    await expect(page.locator('.listing-search-noscript')).toHaveText(
      /^Search runs in your browser and needs JavaScript, so a search link opens this page/,
    );
    await expect(page.locator('.garment-card').first()).toBeVisible();
  });
});
