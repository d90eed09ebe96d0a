// Search words as a shopper types them (issue 35, point 2): sizes the size filter lists, a word no
// garment says, related words, at a phone's width and a desktop's, on the sample site and on the
// large synthetic one.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { largeSiteUrl } from './site.ts';

const VIEWPORTS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } };

const status = (page: Page) => page.locator('[data-search-status]');

/** Waits for a search to finish, then returns the paths of the garments found, every one (Show more until none is left). */
async function allHitPaths(page: Page): Promise<string[]> {
  await expect(status(page)).toHaveText(/\bgarments? (for|in)\b|^No /, { timeout: 20_000 });
  const more = page.locator('[data-search-more]');
  while (await more.isVisible()) {
    const shown = await page.locator('[data-search-results] > li').count();
    await more.click();
    await expect(page.locator('[data-search-results] > li')).not.toHaveCount(shown);
  }
  return page
    .locator('[data-search-results] a.search-hit-link')
    .evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href).pathname).sort());
}

/** The garments found, as the result line counts them. */
async function foundCount(page: Page): Promise<number> {
  await expect(status(page)).toHaveText(/\bgarments? (for|in)\b|^No /, { timeout: 20_000 });
  const line = (await status(page).textContent()) ?? '';
  return line.startsWith('No ') ? 0 : Number(line.match(/^([\d,]+) garments?/)![1]!.replace(/,/g, ''));
}

/** What the size filter says of a size before anything is searched: its count beside the value. */
async function sizeFilterCount(page: Page, size: string): Promise<number> {
  await page.goto('/search/');
  await page.locator('summary', { hasText: 'Size' }).click();
  const value = page.locator('[data-filter="size"] label').filter({ has: page.locator(`input[value="${size}"]`) });
  await expect(value.locator('.count')).toHaveText(/^\(\d[\d,]*\)$/);
  return Number((await value.locator('.count').textContent())!.replace(/[(),]/g, ''));
}

for (const [width, viewport] of Object.entries(VIEWPORTS)) {
  test.describe(`at ${width} width`, () => {
    test.beforeEach(async ({ page }) => page.setViewportSize(viewport));

    test('a size typed finds exactly the garments the size filter finds, however it is spelled', async ({ page }) => {
      for (const size of ['4XL', '3XL']) {
        const listed = await sizeFilterCount(page, size);
        expect(listed, `the sample site has garments in ${size}`).toBeGreaterThan(0);
        await page.goto(`/search/?size=${size}`);
        const filtered = await allHitPaths(page);
        expect(filtered).toHaveLength(listed);
        for (const typed of [size, size.toLowerCase(), `${'X'.repeat(Number(size[0]))}L`]) {
          await page.goto(`/search/?q=${typed}`);
          expect(await allHitPaths(page), typed).toEqual(filtered);
          await expect(status(page)).toHaveText(`${listed} garment${listed === 1 ? '' : 's'} for “${size.toLowerCase()}”`);
          await expect(page.locator('[data-search-note]')).toBeEmpty();
        }
      }
    });

    test('a word no garment says is left out, and the note names it', async ({ page }) => {
      await page.goto('/search/?q=fleece');
      const fleece = await allHitPaths(page);
      expect(fleece.length).toBeGreaterThan(0);
      await page.goto('/search/');
      await page.getByRole('searchbox', { name: 'Search garments' }).fill('fleece xqxq');
      await page.getByRole('searchbox', { name: 'Search garments' }).press('Enter');
      expect(await allHitPaths(page)).toEqual(fleece);
      await expect(page.locator('[data-search-note]')).toHaveText('No garment says “xqxq”; showing garments for “fleece”.');
      await expect(page.locator('[data-search-note]')).toBeVisible();
      await expect(status(page)).toHaveText(new RegExp(`^${fleece.length} garments? for “fleece”$`));
      await expect(page).toHaveURL(/q=fleece\+xqxq/);
    });

    test('a word alone that no garment says finds nothing and offers only words that begin as it does', async ({ page }) => {
      await page.goto('/search/?q=sweater');
      await expect(status(page)).toHaveText('No garments for “sweater”.', { timeout: 20_000 });
      await expect(page.locator('[data-search-suggestions] button')).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Search for water' })).toHaveCount(0);
      await expect(page.getByRole('link', { name: 'Browse all garments' })).toBeVisible();
      await page.goto('/search/?q=flxxce');
      await expect(page.locator('[data-search-suggestions] button')).toHaveText(['fleece'], { timeout: 20_000 });
    });

    test.describe('on a large site', () => {
      test.use({ baseURL: largeSiteUrl() });

      test('a size typed counts what the size filter counts, alone and with a colour', async ({ page }) => {
        for (const size of ['4XL', '3XL']) {
          const listed = await sizeFilterCount(page, size);
          await page.goto(`/search/?q=${size}`);
          expect(await foundCount(page), size).toBe(listed);
          await page.goto(`/search/?q=navy&size=${size}`);
          const navyInSize = await foundCount(page);
          expect(navyInSize).toBeGreaterThan(0);
          await page.goto(`/search/?q=navy+${size}`);
          expect(await foundCount(page)).toBe(navyInSize);
          await expect(status(page)).toHaveText(new RegExp(`for “navy ${size.toLowerCase()}”$`));
          await expect(page.locator('[data-search-note]')).toBeEmpty();
        }
      });
    });
  });
}
