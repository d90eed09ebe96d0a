// A search asked for again (a second visit, Back) shows what it showed last time at once, from
// what the page kept in the browser, while the search runs again behind it; only for the index and
// the search script it was found with.
import type { Page, Request, Route } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { watchForScripts } from './script-watch.ts';
import { largeSiteUrl } from './site.ts';

const KEPT_SHARD_LIST = 'garment-press:search-shards';
const KEPT_RESULTS = 'garment-press:search-results';

const status = (page: Page) => page.locator('[data-search-status]');
const hitLinks = (page: Page) => page.locator('[data-search-results] a.search-hit-link');
const hrefs = (page: Page) => hitLinks(page).evaluateAll((links) => links.map((link) => link.getAttribute('href')));
const kept = (page: Page, key: string) => page.evaluate((name) => localStorage.getItem(name), key);

/** Whether a request is for the index's own files (Pagefind's script, WebAssembly, shards), not the shard list. */
const indexFile = (url: URL) => url.pathname.startsWith('/pagefind/') && !url.pathname.endsWith('/shards.json');

/**
 * Holds back every request for the index's files until released: no search can run, so whatever
 * garments show came from what the page kept. The shard list comes, as it must for kept results to
 * be believed (page.route also turns the HTTP cache off: everything is asked of the server).
 */
async function holdIndex(page: Page): Promise<{ requests: Request[]; release: () => Promise<void> }> {
  const held: Route[] = [];
  const requests: Request[] = [];
  let released = false;
  await page.route(indexFile, async (route) => {
    requests.push(route.request());
    if (released) await route.continue();
    else held.push(route);
  });
  return {
    requests,
    release: async () => {
      released = true;
      for (const route of held.splice(0)) await route.continue();
    },
  };
}

test.describe('on a site of more garments than a page shows', () => {
  test.use({ baseURL: largeSiteUrl() });

  test('a second visit shows the garments and the count at once, before the search has run again, and “Show more” goes on after them', async ({
    page,
  }) => {
    const address = '/search/?q=cotton';
    await page.goto(address);
    await expect(hitLinks(page)).toHaveCount(10);
    await expect(status(page)).toHaveText(/^[\d,]+ garments for “cotton”$/);
    const line = await status(page).textContent();
    await page.getByRole('button', { name: 'Show more results' }).click();
    await expect(hitLinks(page)).toHaveCount(20);
    const twenty = await hrefs(page);
    await expect.poll(() => kept(page, KEPT_RESULTS)).not.toBeNull();

    const index = await holdIndex(page);
    await page.goto(address);
    // Pagefind's script is asked for, and held: the search cannot run.
    await expect.poll(() => index.requests.some((request) => request.url().endsWith('/pagefind.js'))).toBe(true);
    await expect(status(page)).toHaveText(line!);
    expect(await hrefs(page)).toEqual(twenty.slice(0, 10));
    await expect(page.locator('.search-hit-facts').first()).toBeVisible();
    // Asked for before the search has run again: the next garments come once it has.
    await page.getByRole('button', { name: 'Show more results' }).click();
    await expect(hitLinks(page)).toHaveCount(10);
    await index.release();
    await expect(hitLinks(page)).toHaveCount(20);
    expect(await hrefs(page)).toEqual(twenty);
    await expect(status(page)).toHaveText(line!);
  });

  test('kept garments the search run again does not find in that order, or a count it does not find, are replaced by what it found', async ({
    page,
  }) => {
    await page.goto('/search/?q=cotton');
    await expect(status(page)).toHaveText(/^[\d,]+ garments for “cotton”$/);
    const line = await status(page).textContent();
    const ten = await hrefs(page);
    await expect.poll(() => kept(page, KEPT_RESULTS)).not.toBeNull();
    // Kept results cannot differ from the search run again on the same index and code; made to here, as if they had.
    for (const tamper of ['order', 'count'] as const) {
      await page.evaluate(
        ([key, how]) => {
          const stored = JSON.parse(localStorage.getItem(key)!) as {
            searches: [string, { search: { count: number }; first: unknown[] }][];
          };
          const [, result] = stored.searches[0]!;
          if (how === 'order') result.first.reverse();
          else result.search.count += 7;
          localStorage.setItem(key, JSON.stringify(stored));
        },
        [KEPT_RESULTS, tamper] as const,
      );
      await page.goto('/search/?q=cotton');
      await expect.poll(() => hrefs(page), tamper).toEqual(ten);
      await expect(status(page), tamper).toHaveText(line!);
      await page.getByRole('button', { name: 'Show more results' }).click();
      await expect(hitLinks(page)).toHaveCount(20);
      const twenty = await hrefs(page);
      expect(twenty.slice(0, 10)).toEqual(ten);
      expect(new Set(twenty).size).toBe(20);
      // What the search found is kept in their place.
      await expect
        .poll(() =>
          page.evaluate(
            (key) =>
              (JSON.parse(localStorage.getItem(key)!) as { searches: [string, { first: { url: string }[] }][] }).searches[0]![1].first.map(
                ({ url }) => url,
              ),
            KEPT_RESULTS,
          ),
        )
        .toEqual(ten);
    }
  });
});

test('after the site’s shard list has changed, a second visit does not show what was kept for the list before', async ({ page }) => {
  await page.goto('/search/?q=fleece');
  await expect(status(page)).toHaveText(/^\d+ garments? for “fleece”$/);
  const first = await hrefs(page);
  expect(first.length).toBeGreaterThan(0);
  await expect.poll(() => kept(page, KEPT_RESULTS)).not.toBeNull();

  // As after a rebuild: the list comes back with other text (the same shards, so the search still works).
  let changed = '';
  await page.route('**/pagefind/shards.json', async (route) => {
    const response = await route.fetch();
    changed = JSON.stringify(JSON.parse(await response.text()), null, 1);
    await route.fulfill({ response, body: changed });
  });
  const index = await holdIndex(page);
  await page.goto('/search/?q=fleece');
  // The new list is kept once read, after which the results kept for the old one would have shown.
  await expect.poll(async () => changed !== '' && (await kept(page, KEPT_SHARD_LIST)) === changed).toBe(true);
  await expect(status(page)).toHaveText('Searching…');
  await expect(hitLinks(page)).toHaveCount(0);
  expect(await kept(page, KEPT_RESULTS)).toBeNull();
  await index.release();
  await expect(status(page)).toHaveText(/^\d+ garments? for “fleece”$/);
  expect(await hrefs(page)).toEqual(first);
});

test('with storage refused, searching works as without kept results', async ({ page }) => {
  await page.addInitScript(() => {
    const refuse = () => {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    };
    Object.assign(Storage.prototype, { getItem: refuse, setItem: refuse, removeItem: refuse });
  });
  const { errors } = watchForScripts(page);
  for (const visit of [1, 2]) {
    await page.goto('/search/?q=fleece');
    await expect(status(page), `visit ${visit}`).toHaveText(/^\d+ garments? for “fleece”$/);
    await expect(hitLinks(page).first()).toBeVisible();
  }
  await page.getByRole('searchbox', { name: 'Search garments' }).fill('hoodie');
  await expect(status(page)).toHaveText(/^\d+ garments? for “hoodie”$/);
  expect(errors).toEqual([]);
});
