// A publisher may serve the site under a strict Content Security Policy (README, "What the site holds"):
// nothing on it needs inline script, eval, or a script from elsewhere; search runs as it is.
import { expect, test } from './fixtures.ts';
import { sampleRecords } from './site.ts';
import { serveUnderStrictPolicy, stopStrictPolicy, watchForViolations } from './strict-policy.ts';

test.beforeEach(async ({ context, baseURL }) => serveUnderStrictPolicy(context, baseURL!));
test.afterEach(async ({ context }) => stopStrictPolicy(context));

test('search finds pages under the strict policy, with nothing blocked', async ({ page }) => {
  const violations = watchForViolations(page);
  await page.goto('/search/?q=twill');
  await expect(page.locator('[data-search-status]')).toHaveText(/\bgarments? for\b/);
  await expect(page.locator('[data-search-results] a.search-hit-link').first()).toBeVisible();
  expect(violations).toEqual([]);
});

test('every kind of page loads under the strict policy with nothing blocked', async ({ page }) => {
  const violations = watchForViolations(page);
  const { record } = sampleRecords()[0]!;
  for (const path of [
    '/',
    `/garments/${record.slug}/`,
    `/garments/${record.slug}/svc/`,
    `/garments/${record.slug}/tech/`,
    '/docs/api/',
    '/docs/webhooks/',
    '/docs/mcp/',
    '/no-such-page/',
  ]) {
    await page.goto(path);
    await expect(page.locator('main')).toBeVisible();
  }
  expect(violations).toEqual([]);
});

test('the strict policy is in force: a script added to a page does not run', async ({ page }) => {
  const violations = watchForViolations(page);
  const { record } = sampleRecords()[0]!;
  await page.goto(`/garments/${record.slug}/${record.projection}/`);
  const ran = await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.ranInline = true';
    document.body.append(script);
    return (window as unknown as { ranInline?: boolean }).ranInline ?? false;
  });
  expect(ran).toBe(false);
  await expect.poll(() => violations.length).toBeGreaterThan(0);
});
