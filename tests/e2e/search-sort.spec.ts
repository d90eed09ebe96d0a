// Sorting search results by price and by weight (issue 35, point 2), with the keyboard, kept in the
// address, in order across shards (the sample site has three pages a shard) and on the large site.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { largeSiteUrl } from './site.ts';

const VIEWPORTS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } };

const status = (page: Page) => page.locator('[data-search-status]');
const sortBox = (page: Page) => page.getByRole('combobox', { name: 'Sort by' });

/** Each result's number in the facts it shows (its price from, or its weight in g/m²), null when it shows none, once `count` results are shown (Show more as needed). */
async function shownNumbers(page: Page, fact: RegExp, count = 10): Promise<(number | null)[]> {
  await expect(status(page)).toHaveText(/\bgarments? (for|in)\b/, { timeout: 20_000 });
  const hits = page.locator('[data-search-results] > li');
  while ((await hits.count()) < count && (await page.locator('[data-search-more]').isVisible())) {
    const shown = await hits.count();
    await page.locator('[data-search-more]').click();
    await expect(hits).not.toHaveCount(shown);
  }
  const facts = await hits.evaluateAll((items) =>
    items.map((item) => [...item.querySelectorAll('.search-hit-facts li')].map((li) => li.textContent ?? '').join(' | ')),
  );
  return facts.map((text) => {
    const found = fact.exec(text);
    return found ? Number(found[1]!.replace(/,/g, '')) : null;
  });
}

/** Whether numbers run lowest first, those without one last. */
function lowestFirst(numbers: (number | null)[]): boolean {
  const known = numbers.filter((n): n is number => n !== null);
  const firstUnknown = numbers.indexOf(null);
  return (
    known.every((n, at) => at === 0 || known[at - 1]! <= n) && (firstUnknown === -1 || numbers.slice(firstUnknown).every((n) => n === null))
  );
}

const PRICE = /From \$([\d,.]+)/;
const WEIGHT = /([\d,.]+) g\/m²/;

for (const [width, viewport] of Object.entries(VIEWPORTS)) {
  test.describe(`at ${width} width`, () => {
    test.beforeEach(async ({ page }) => page.setViewportSize(viewport));

    test('results sort by price from and by weight, lowest first, chosen with the keyboard and kept in the address', async ({ page }) => {
      await page.goto('/search/?q=cotton');
      const best = await shownNumbers(page, PRICE);
      expect(best.filter((n) => n !== null).length).toBeGreaterThan(1);
      // Sort by, from the keyboard: the options after Best match are title, published, price and weight.
      await sortBox(page).focus();
      for (let step = 0; step < 3; step++) await page.keyboard.press('ArrowDown');
      await expect(sortBox(page)).toHaveValue('price');
      await expect(page).toHaveURL(/[?&]sort=price\b/);
      const byPrice = await shownNumbers(page, PRICE);
      expect(byPrice.length).toBe(best.length);
      expect(lowestFirst(byPrice), JSON.stringify(byPrice)).toBe(true);
      expect(byPrice).not.toEqual(best);

      await page.keyboard.press('ArrowDown');
      await expect(page).toHaveURL(/[?&]sort=weight\b/);
      const byWeight = await shownNumbers(page, WEIGHT);
      expect(byWeight.filter((n) => n !== null).length).toBeGreaterThan(1);
      expect(lowestFirst(byWeight), JSON.stringify(byWeight)).toBe(true);

      // The address holds the sort: a reload (or a shared link) shows the same order.
      await page.reload();
      await expect(sortBox(page)).toHaveValue('weight');
      expect(await shownNumbers(page, WEIGHT)).toEqual(byWeight);
      await page.goBack();
      await expect(sortBox(page)).toHaveValue('price');
      expect(await shownNumbers(page, PRICE)).toEqual(byPrice);
    });

    test.describe('on a large site', () => {
      test.use({ baseURL: largeSiteUrl() });

      test('a sort by price stays in order past the first results', async ({ page }) => {
        await page.goto('/search/?q=tee&sort=price');
        await expect(sortBox(page)).toHaveValue('price');
        const prices = await shownNumbers(page, PRICE, 30);
        // "Show more" adds ten at a time, as each loads: the last click may have brought a few past thirty.
        expect(prices.length).toBeGreaterThanOrEqual(30);
        expect(prices.every((n) => n !== null)).toBe(true);
        expect(lowestFirst(prices), JSON.stringify(prices)).toBe(true);
      });
    });
  });
}
