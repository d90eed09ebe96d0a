import type { Page } from '@playwright/test';
import { type AxeViolation, axeViolations } from './axe.ts';
import { expect, test } from './fixtures.ts';
import { builtRecords, largeSiteUrl, sampleRecords } from './site.ts';

const svc = sampleRecords().find(({ record }) => record.projection === 'svc')!.record;
const samplePages = Object.fromEntries(
  sampleRecords().flatMap(({ record }) => [
    [`the garment page of ${record.slug}`, `/garments/${record.slug}/`],
    [`the ${record.projection} page of ${record.slug}`, `/garments/${record.slug}/${record.projection}/`],
  ]),
);
const pages = {
  'the index': '/',
  ...samplePages,
  'the search page': '/search/?q=fleece',
  'the compare page': `/compare/?g=${sampleRecords()
    .map(({ record }) => record.slug)
    .filter((slug, i, all) => all.indexOf(slug) === i)
    .join('&g=')}`,
  'the API documentation': '/docs/api/',
  'the webhook documentation': '/docs/webhooks/',
  'the MCP documentation': '/docs/mcp/',
  'the page for an unknown address': '/404.html',
};
/** Pages of the large synthetic site: the home page and a category of more than one page. */
const largeSitePages = {
  'the home page of a large site': '/',
  'a category page of a large site': '/categories/tops/',
};
/** A phone and a desktop: what is shown, and so checked, differs between them. */
const WIDTHS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
];

/** Every axe violation of any impact on the page, once what its script draws is shown. */
async function violations(page: Page, path: string): Promise<AxeViolation[]> {
  await page.goto(path);
  // Search results are the script's: check them once they are shown.
  if (path.startsWith('/search/')) await expect(page.locator('.search-hit').first()).toBeVisible();
  // The comparison too: its table is drawn from the garments' twins.
  if (path.startsWith('/compare/')) await expect(page.locator('.compare-table')).toBeVisible();
  return axeViolations(page);
}

/** One test per page and width: axe checks the contrast of every text node, and a record page has thousands. */
function noViolationsOn(pagesByName: Record<string, string>): void {
  for (const [name, path] of Object.entries(pagesByName)) {
    for (const size of WIDTHS) {
      test(`${name} has no accessibility violation of any impact at ${size.width} pixels`, async ({ page }) => {
        test.setTimeout(480_000);
        await page.setViewportSize(size);
        expect(await violations(page, path)).toEqual([]);
      });
    }
  }
}

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`in ${scheme} mode`, () => {
    test.use({ colorScheme: scheme });
    noViolationsOn(pages);

    test.describe('on a large site', () => {
      test.use({ baseURL: largeSiteUrl() });
      noViolationsOn(largeSitePages);
    });
  });
}

test('the skip link is the first thing to focus and moves focus to the main content', async ({ page }) => {
  await page.goto(`/garments/${svc.slug}/svc/`);
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#main$/);
});

test('the home page and the search page do not move when search comes to life, nor when the box is reached for', async ({ page }) => {
  const shifts: number[] = [];
  await page.exposeFunction('reportShift', (value: number) => shifts.push(value));
  await page.addInitScript(() => {
    new PerformanceObserver((entries) => {
      for (const entry of entries.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) {
        if (!entry.hadRecentInput) (window as unknown as { reportShift: (value: number) => void }).reportShift(entry.value);
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  for (const width of [1280, 320]) {
    await page.setViewportSize({ width, height: 800 });
    // The home page's search box is a plain form leading to the search page: reaching for it loads nothing.
    await page.goto('/');
    await page.getByRole('searchbox', { name: 'Search garments' }).focus();
    await page.goto('/search/');
    await expect(page.locator('[data-search-filters] input[type="checkbox"]').first()).toBeAttached();
    await page.waitForTimeout(500);
    expect(
      shifts.reduce((sum, value) => sum + value, 0),
      `at ${width} px`,
    ).toBeLessThan(0.05);
  }
});

test('focus is visible on links', async ({ page }) => {
  await page.goto('/');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
  expect(outline).not.toBe('none');
});

// WCAG 1.4.10 (reflow): at 320 CSS pixels nothing but a data table may need scrolling sideways,
// and tables scroll inside their own frame. Every record page is checked, the hostile ones
// (long names and ids) among them.
const reflowPages = new Set([
  ...Object.values(pages),
  ...builtRecords().flatMap(({ record }) => [`/garments/${record.slug}/`, `/garments/${record.slug}/${record.projection}/`]),
]);

for (const path of reflowPages) {
  test(`${path} fits 320 pixels without scrolling sideways`, async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    await page.goto(path);
    const { scrollWidth, clientWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
    }));
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
  });
}
