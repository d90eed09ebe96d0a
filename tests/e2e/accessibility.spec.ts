import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './fixtures.ts';
import { builtRecords, sampleRecords } from './site.ts';

const svc = sampleRecords().find(({ record }) => record.projection === 'svc')!.record;
const tech = sampleRecords().find(({ record }) => record.projection === 'tech')!.record;
const pages = {
  'the index': '/',
  'a garment page': `/garments/${svc.slug}/`,
  'a commerce page': `/garments/${svc.slug}/svc/`,
  'a technical page': `/garments/${tech.slug}/tech/`,
  'the search page': '/search/?q=fleece',
  'the API documentation': '/docs/api/',
  'the webhook documentation': '/docs/webhooks/',
  'the MCP documentation': '/docs/mcp/',
  'the page for an unknown address': '/404.html',
};

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`in ${scheme} mode`, () => {
    test.use({ colorScheme: scheme });

    for (const [name, path] of Object.entries(pages)) {
      test(`${name} has no serious or critical accessibility violations`, async ({ page }) => {
        // axe checks the contrast of every text node: a record page has thousands.
        test.setTimeout(180_000);
        await page.goto(path);
        const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
        const blocking = results.violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
        expect(blocking).toEqual([]);
      });
    }
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
const reflowPages = {
  ...pages,
  ...Object.fromEntries(
    builtRecords().flatMap(({ record }) => [
      [`/garments/${record.slug}/`, `/garments/${record.slug}/`],
      [`/garments/${record.slug}/${record.projection}/`, `/garments/${record.slug}/${record.projection}/`],
    ]),
  ),
};

for (const [name, path] of Object.entries(reflowPages)) {
  test(`${name} fits 320 pixels without scrolling sideways`, async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    await page.goto(path);
    const { scrollWidth, clientWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
    }));
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
  });
}
