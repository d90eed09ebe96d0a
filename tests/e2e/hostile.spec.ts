import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { watchForScripts } from './script-watch.ts';
import { builtRecords } from './site.ts';

// The hostile fixture carries markup, script, javascript:/data: URLs and Markdown tricks in every
// text field. Its pages, and the pages listing it, must stay inert.
const hostile = builtRecords().filter(({ file }) => file.startsWith('hostile'));

/** Everything on a page that would mean record text became markup or a dangerous link. */
async function injected(page: Page) {
  return page.evaluate(() => {
    const scripts = [...document.scripts].filter((s) => s.type !== 'application/ld+json' && !s.src.startsWith(location.origin));
    const attributes = [...document.querySelectorAll('*')].flatMap((el) =>
      [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${el.tagName} ${a.name}`),
    );
    const unsafeUrl = (url: string) => /^\s*(javascript|data|vbscript):/i.test(url);
    return {
      scripts: scripts.map((s) => s.outerHTML.slice(0, 80)),
      handlers: attributes,
      elements: [
        ...document.querySelectorAll(
          // The listing pages' own search form (action /search/) is the site's; any other form is injected.
          'iframe, object, embed, frame, base, form:not([action="/search/"]), svg, math, meta[http-equiv], body style, link[rel="import"]',
        ),
      ].map((e) => e.tagName),
      links: [...document.querySelectorAll('[href]')].map((e) => e.getAttribute('href')!).filter(unsafeUrl),
      sources: [...document.querySelectorAll('[src], [srcset], [action], [formaction], [poster], [background]')]
        .flatMap((e) => ['src', 'srcset', 'action', 'formaction', 'poster', 'background'].map((n) => e.getAttribute(n) ?? ''))
        .filter((url) => url && (unsafeUrl(url) || !/^(https?:|\/)/.test(url.trim()))),
    };
  });
}

// A missing fixture must fail the suite, not quietly test nothing.
if (hostile.length === 0) throw new Error('the hostile fixture is missing from tests/fixtures/hostile');

for (const path of [
  '/',
  ...new Set(hostile.map(({ record }) => `/garments/${record.slug}/`)),
  ...hostile.map(({ record }) => `/garments/${record.slug}/${record.projection}/`),
]) {
  test(`${path} runs no script and carries no injected element or dangerous link`, async ({ page }) => {
    const { dialogs, errors } = watchForScripts(page);
    await page.goto(path);
    await page.mouse.move(10, 10);
    await page.mouse.move(400, 400);
    await page.waitForTimeout(300);
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    expect(await injected(page)).toEqual({ scripts: [], handlers: [], elements: [], links: [], sources: [] });
    await expect(page.locator('body')).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { pwned?: unknown }).pwned)).toBeUndefined();
  });
}

test('the hostile text is shown as text', async ({ page }) => {
  const { record } = hostile.find((h) => h.record.page.title)!;
  await page.goto(`/garments/${record.slug}/${record.projection}/`);
  // The title's markup is visible, literally, in the h1.
  await expect(page.getByRole('heading', { level: 1 })).toContainText('<script>');
});
