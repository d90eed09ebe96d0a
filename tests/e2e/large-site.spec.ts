// A site with more garments than the home page lists: the home page shows each category's first
// few and leads to the category pages, which list every garment in pages.
import { axeViolations } from './axe.ts';
import type { Locator } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { LARGE_SITE_GARMENTS, largeSiteUrl } from './site.ts';

test.use({ baseURL: largeSiteUrl() });

const VIEWPORTS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } };

/** Every garment link on the pages of a category, following "Next page" from the first. */
async function categoryGarments(page: import('@playwright/test').Page, href: string): Promise<string[]> {
  const garments: string[] = [];
  await page.goto(href);
  for (;;) {
    garments.push(...(await page.locator('li.garment h3 a').evaluateAll((links) => links.map((a) => a.getAttribute('href')!))));
    const next = page.getByRole('link', { name: 'Next page' }).first();
    if ((await next.count()) === 0) return garments;
    const target = await next.getAttribute('href');
    await next.click();
    // Read the next page only once it has loaded, not the one being left.
    await page.waitForURL((url) => url.pathname === target);
  }
}

for (const [name, viewport] of Object.entries(VIEWPORTS)) {
  test.describe(`at ${name} width`, () => {
    test.use({ viewport });

    test('the home page shows a few garments of each category and leads to all of them', async ({ page }) => {
      await page.goto('/');
      await expect(page.locator('.index-intro')).toContainText(`${LARGE_SITE_GARMENTS} garments`);
      const more = page.locator('.category-more a');
      const categories = await more.evaluateAll((links) => links.map((a) => ({ href: a.getAttribute('href')!, text: a.textContent! })));
      expect(categories.length).toBeGreaterThanOrEqual(2);
      expect(await page.locator('li.garment').count()).toBeLessThanOrEqual(12 * categories.length);

      const all: string[] = [];
      for (const { href, text } of categories) {
        const garments = await categoryGarments(page, href);
        // "All 220 garments in tops": the link says how many its pages list.
        expect(text).toContain(`All ${garments.length} garments`);
        all.push(...garments);
      }
      expect(all.length).toBe(LARGE_SITE_GARMENTS);
      expect(new Set(all).size).toBe(LARGE_SITE_GARMENTS);
    });

    test('a category of more than one page links its pages, the current one marked', async ({ page }) => {
      await page.goto('/categories/tops/');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('tops');
      // The category is written as the records give it; the heading and the breadcrumb show it capitalised.
      const capitalised = (locator: Locator) => locator.evaluate((element) => getComputedStyle(element, '::first-letter').textTransform);
      await expect.poll(() => capitalised(page.getByRole('heading', { level: 1 }))).toBe('uppercase');
      await expect
        .poll(() => capitalised(page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'tops' })))
        .toBe('uppercase');
      const pages = page.getByRole('navigation', { name: 'Pages of tops' });
      await expect(pages.getByRole('link', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
      await expect(pages.getByRole('link', { name: 'Previous page' })).toHaveCount(0);
      await pages.getByRole('link', { name: 'Page 2' }).click();
      await expect(page).toHaveURL(/\/categories\/tops\/2\/$/);
      await expect(page.locator('.index-intro')).toContainText('Garments 201 to');
      await expect(page.getByRole('navigation', { name: 'Pages of tops' }).getByRole('link', { name: 'Page 2' })).toHaveAttribute(
        'aria-current',
        'page',
      );
      await page.getByRole('link', { name: 'Previous page' }).click();
      await expect(page).toHaveURL(/\/categories\/tops\/$/);
    });
  });
}

for (const [name, viewport] of Object.entries(VIEWPORTS)) {
  test.describe(`without JavaScript at ${name} width`, () => {
    test.use({ javaScriptEnabled: false, viewport });

    test('a category page sorts by name, price and weight and searches within the category, all without a script', async ({ page }) => {
      await page.goto('/categories/tops/');
      // Its cards have pictures: the script standing in for one that fails is loaded, where it can run.
      await expect(page.locator('script[src="/scripts/images.js"]')).toHaveCount(1);
      const sort = page.getByRole('navigation', { name: 'Sort by' });
      await expect(sort.getByRole('link', { name: 'Name' })).toHaveAttribute('aria-current', 'page');
      await sort.getByRole('link', { name: 'Price from' }).click();
      await expect(page).toHaveURL(/\/categories\/tops\/by-price\/$/);
      const prices = await page.locator('li.garment .garment-facts div:has(dt:text-is("From")) dd').allTextContents();
      expect(prices.length).toBeGreaterThan(10);
      const amounts = prices.map((price) => Number(price.replace(/[^\d.]/g, '')));
      expect(amounts).toEqual([...amounts].sort((a, b) => a - b));
      await page.getByRole('search', { name: 'Search tops' }).getByRole('searchbox').fill('fleece');
      await page.getByRole('search', { name: 'Search tops' }).getByRole('button', { name: 'Search' }).click();
      await expect(page).toHaveURL(/\/search\/\?q=fleece&category=tops$/);
    });

    test('a category page counts the search’s projection and status filters over the whole category, not its page', async ({ page }) => {
      await page.goto('/categories/tops/2/');
      const total = Number((await page.locator('.index-intro').textContent())!.match(/of ([\d,]+)/)![1]!.replace(',', ''));
      expect(total).toBeGreaterThan(200);
      await page.locator('details.filters summary').click();
      const commerce = page.locator('details.filters').getByRole('link', { name: /^Commerce/ });
      // Every garment of the large site has a commerce record: the count is the category's, not the page's.
      await expect(commerce).toHaveText(`Commerce (${total})`);
      await expect(commerce).toHaveAttribute('href', '/search/?category=tops&projection=Commerce');
      const statuses = await page.locator('details.filters').getByRole('link').filter({ hasNotText: 'Commerce' }).allTextContents();
      expect(statuses.reduce((sum, text) => sum + Number(text.match(/\((\d+)\)/)![1]), 0)).toBe(total);
    });
  });
}

for (const scheme of ['light', 'dark'] as const) {
  test(`the home page and a category's second page have no accessibility violations in ${scheme} mode`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.emulateMedia({ colorScheme: scheme });
    for (const path of ['/', '/categories/tops/2/']) {
      await page.goto(path);
      expect(await axeViolations(page), path).toEqual([]);
    }
  });
}

test('a category page fits 320 pixels without scrolling sideways', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  await page.goto('/categories/tops/2/');
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
});

test('opening a filter shows its counts and keeps the results a reader asked for more of', async ({ page }) => {
  await page.goto('/search/?q=cotton');
  const hits = page.locator('[data-search-results] .search-hit');
  await expect(hits).toHaveCount(10);
  await page.getByRole('button', { name: 'Show more results' }).click();
  await expect(hits).toHaveCount(20);
  const shown = await hits.locator('a.search-hit-link').evaluateAll((links) => links.map((link) => link.getAttribute('href')));
  // Opening a filter loads every filter file and counts its values for the search shown.
  await page.locator('[data-search-filters] summary').first().click();
  await expect(page.locator('[data-search-filters] details[open] .count').first()).toHaveText(/^\(\d[\d,]*\)$/);
  await expect(hits).toHaveCount(20);
  expect(await hits.locator('a.search-hit-link').evaluateAll((links) => links.map((link) => link.getAttribute('href')))).toEqual(shown);
  await expect(page.locator('[data-search-status]')).toHaveText(/^[\d,]+ garments for “cotton”$/);
});
