import { axeViolations } from './axe.ts';
import type { Page } from '@playwright/test';
import { TYPING_RUN_MS } from '../../src/lib/search/browser/search-box-state.ts';
import { expect, test } from './fixtures.ts';
import { watchForScripts } from './script-watch.ts';
import { builtRecords } from './site.ts';

// Search runs in the browser over the Pagefind index the build wrote into the site.

const status = (page: Page) => page.locator('[data-search-status]');
const hitLinks = (page: Page) => page.locator('[data-search-results] a.search-hit-link');

/** Waits for a search to finish, then returns the paths of the garments found, in the order shown. */
async function hitPaths(page: Page): Promise<string[]> {
  await expect(status(page)).toHaveText(/\bgarments? (for|in)\b|^No /);
  return hitLinks(page).evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href).pathname));
}

/** The garments (by slug) whose records mention a word anywhere. */
function garmentsMentioning(word: string): Set<string> {
  const pattern = new RegExp(`\\b${word}`, 'i');
  return new Set(
    builtRecords()
      .filter(({ record }) => pattern.test(JSON.stringify(record)))
      .map(({ record }) => record.slug),
  );
}

/** The record pages of one garment, as the site links them. */
function pagesOf(slug: string): string[] {
  return builtRecords()
    .filter(({ record }) => record.slug === slug)
    .map(({ record }) => `/garments/${slug}/${record.projection}/`)
    .sort();
}

test('a word found in only one garment finds exactly that garment, once, linking its commerce and technical pages', async ({ page }) => {
  const word = 'twill';
  const garments = [...garmentsMentioning(word)];
  expect(garments, `“${word}” should appear in one garment's records only; pick another word`).toHaveLength(1);
  await page.goto('/search/');
  await page.getByRole('searchbox', { name: 'Search garments' }).fill(word);
  // Shards without the word find near words in Pagefind alone: none of them reach the list or its count.
  expect(await hitPaths(page)).toEqual([`/garments/${garments[0]}/`]);
  await expect(status(page)).toHaveText('1 garment for “twill”');
  const pages = page.locator('.search-hit .search-hit-pages a');
  expect(await pages.evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href).pathname))).toEqual(
    pagesOf(garments[0]!),
  );
  await expect(page.getByRole('link', { name: /^Commerce record/ })).toHaveCount(1);
  await expect(page.getByRole('link', { name: /^Technical record/ })).toHaveCount(1);
});

test('a result shows the garment’s price from and sizes, its fabric and weight, and an excerpt of its text', async ({ page }) => {
  await page.goto('/search/?q=twill');
  await hitPaths(page);
  const facts = await page.locator('.search-hit-facts li').allTextContents();
  expect(facts[0]).toMatch(/^From \$\d/);
  expect(facts[1]).toMatch(/^Sizes /);
  expect(facts.some((fact) => /\d+% /.test(fact))).toBe(true);
  expect(facts.some((fact) => /g\/m²/.test(fact))).toBe(true);
  await expect(page.locator('.search-hit-excerpt mark').first()).toHaveText(/twill/i);
});

test('a word with one letter dropped finds the garments of the word, and says so', async ({ page }) => {
  const garments = [...garmentsMentioning('hoodie')];
  await page.goto('/search/?q=hodie');
  expect((await hitPaths(page)).sort()).toEqual(garments.map((slug) => `/garments/${slug}/`).sort());
  await expect(page.locator('[data-search-note]')).toHaveText('No garment says “hodie”; showing “hoodie” instead.');
});

test('a misspelling in the first letter finds the garments of the word too', async ({ page }) => {
  const garments = [...garmentsMentioning('hoodie')].map((slug) => `/garments/${slug}/`).sort();
  // The first letter dropped, and changed: the word lists are split by first letter, the correction is not.
  for (const typed of ['oodie', 'joodie']) {
    await page.goto(`/search/?q=${typed}`);
    expect((await hitPaths(page)).sort()).toEqual(garments);
    await expect(page.locator('[data-search-note]')).toHaveText(`No garment says “${typed}”; showing “hoodie” instead.`);
  }
});

test('a second visit searches the index its kept shard list names, and a kept list the site has changed since is not believed', async ({
  page,
}) => {
  await page.goto('/search/?q=fleece');
  const first = await hitPaths(page);
  expect(first.length).toBeGreaterThan(0);
  const kept = await page.evaluate(() => localStorage.getItem('garment-press:search-shards'));
  expect(JSON.parse(kept!).shards.length).toBeGreaterThan(1);
  await page.goto('/search/?q=fleece');
  expect(await hitPaths(page)).toEqual(first);
  // As after a rebuild: the kept list names shard folders the site no longer has.
  await page.evaluate(() => {
    const list = JSON.parse(localStorage.getItem('garment-press:search-shards')!) as { shards: string[] };
    list.shards = list.shards.map((bundle) => bundle.replace(/\.[^./]+\/$/, '.gone/'));
    localStorage.setItem('garment-press:search-shards', JSON.stringify(list));
  });
  await page.goto('/search/?q=fleece');
  expect(await hitPaths(page)).toEqual(first);
  await expect(status(page)).toHaveText(new RegExp(`^${first.length} garments? for “fleece”$`));
  // The list as the site has it now is kept for the next visit.
  expect(await page.evaluate(() => localStorage.getItem('garment-press:search-shards'))).toBe(kept);
  // The thread opened on the stale list is ended, not left idle for the rest of the visit.
  await expect.poll(() => page.workers().length).toBe(1);
});

test('a search over several shards fetches no shard entry file: the shard list holds them', async ({ page }) => {
  const asked: string[] = [];
  page.on('request', (request) => asked.push(new URL(request.url()).pathname));
  await page.goto('/search/?q=fleece');
  expect((await hitPaths(page)).length).toBeGreaterThan(0);
  expect(asked.filter((path) => path.endsWith('.pf_meta')).length).toBeGreaterThan(1);
  expect(asked.filter((path) => path.endsWith('pagefind-entry.json'))).toEqual([]);
});

test('a search that finds nothing offers words that do, a way to clear the filters and the full list', async ({ page }) => {
  await page.goto('/search/?q=flxxce&category=tops');
  await expect(status(page)).toHaveText('No garments for “flxxce” in tops.');
  await expect(page.getByRole('link', { name: 'Browse all garments' })).toBeVisible();
  await expect(page.locator('[data-search-help]').getByRole('button', { name: 'Clear filters' })).toBeVisible();
  await page.getByRole('button', { name: 'Search for fleece' }).click();
  await expect(page).toHaveURL(/q=fleece/);
  expect((await hitPaths(page)).length).toBeGreaterThan(0);
});

test('active filters show as chips that remove their filter, and the result line names them', async ({ page }) => {
  await page.goto('/search/?q=cotton');
  const all = await hitPaths(page);
  await page.goto('/search/?q=cotton&category=tops');
  const tops = await hitPaths(page);
  expect(tops.length).toBeLessThan(all.length);
  await expect(status(page)).toHaveText(new RegExp(`^${tops.length} garments? for “cotton” in tops$`));
  const chip = page.getByRole('button', { name: 'Remove filter Category: tops' });
  await chip.click();
  await expect(page).not.toHaveURL(/category=/);
  await expect(chip).toHaveCount(0);
  expect((await hitPaths(page)).sort()).toEqual([...all].sort());
  await expect(page.getByRole('searchbox', { name: 'Search garments' })).toBeFocused();
});

test('?q= in the address runs the search on arrival on /search/, where the home page’s search form leads', async ({ page }) => {
  for (const path of ['/search/?q=twill']) {
    await page.goto(path);
    await expect(page.getByRole('searchbox', { name: 'Search garments' })).toHaveValue('twill');
    expect(await hitPaths(page), path).not.toHaveLength(0);
  }
});

test('a filter narrows the results, and stays in the address', async ({ page }) => {
  await page.goto('/search/?q=cotton');
  const all = await hitPaths(page);

  await page.locator('summary', { hasText: 'Category' }).click();
  await page.getByRole('checkbox', { name: /^tops/ }).check();
  await expect(page).toHaveURL(/[?&]category=tops\b/);
  const tops = await hitPaths(page);
  expect(tops.length).toBeGreaterThan(0);
  expect(tops.length).toBeLessThan(all.length);
  const topSlugs = new Set(
    builtRecords()
      .filter(({ record }) => record.data.identity.category === 'tops')
      .map(({ record }) => `/garments/${record.slug}/`),
  );
  expect(tops.every((path) => topSlugs.has(path))).toBe(true);

  await page.reload();
  await expect(page.getByRole('checkbox', { name: /^tops/ })).toBeChecked();
  expect((await hitPaths(page)).sort()).toEqual(tops.sort());
});

test('the search page offers its filters at once, to browse by without a word; the home page loads search only when reached for', async ({
  page,
}) => {
  const indexRequests: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/pagefind/')) indexRequests.push(request.url());
  });
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  expect(indexRequests).toEqual([]);

  await page.goto('/search/');
  await page.locator('summary', { hasText: 'Projection' }).click();
  await page.getByRole('checkbox', { name: /^Technical/ }).check();
  const technical = await hitPaths(page);
  const withTechnical = new Set(
    builtRecords()
      .filter(({ record }) => record.projection === 'tech')
      .map(({ record }) => `/garments/${record.slug}/`),
  );
  expect(technical.length).toBeGreaterThan(0);
  expect(technical.every((path) => withTechnical.has(path))).toBe(true);
});

test('clearing the filters leaves focus on the search words, not on the page', async ({ page }) => {
  await page.goto('/search/?q=cotton&projection=Technical');
  await hitPaths(page);
  const clear = page.getByRole('button', { name: 'Clear filters' });
  await clear.focus();
  await page.keyboard.press('Enter');
  await expect(clear).toBeHidden();
  await expect(page.getByRole('searchbox', { name: 'Search garments' })).toBeFocused();
  await expect(page).not.toHaveURL(/projection=/);
});

test('the search page says what to do before anything is asked, and a lone currency sign is no search', async ({ page }) => {
  await page.goto('/search/');
  await expect(status(page)).toHaveText(/^Type a word/);
  await page.goto('/search/?q=%24');
  await expect(status(page)).toHaveText(/^Type a word/);
  await page.goto('/search/?q=%24&projection=Technical');
  await expect(status(page)).toHaveText(/^\d+ garments? in Technical$/);
});

test('a price searched with its currency sign finds what the number finds', async ({ page }) => {
  await page.goto('/search/?q=12.95');
  const plain = await hitPaths(page);
  expect(plain.length).toBeGreaterThan(0);
  await page.goto('/search/?q=%2412.95');
  expect(await hitPaths(page)).toEqual(plain);
});

test('values of one filter are alternatives, and each value counts what selecting it would find', async ({ page }) => {
  const search = async (query: string) => {
    await page.goto(`/search/?q=cotton&${query}`);
    return (await hitPaths(page)).sort();
  };
  const outerwear = await search('category=outerwear');
  const tops = await search('category=tops');
  expect(outerwear.length).toBeGreaterThan(0);
  expect(tops.length).toBeGreaterThan(0);
  expect(await search('category=outerwear&category=tops')).toEqual([...outerwear, ...tops].sort());

  // With outerwear ticked (its group opens), tops still says how many it would find, as it did before.
  await search('category=outerwear');
  await expect(page.getByRole('checkbox', { name: /^tops/ })).toHaveAccessibleName(`tops (${tops.length})`);
  await page.getByRole('checkbox', { name: /^tops/ }).check();
  await expect(page).toHaveURL(/category=outerwear&category=tops/);
  expect((await hitPaths(page)).sort()).toEqual([...outerwear, ...tops].sort());
});

test('Back and Forward go through the searches asked for, one history entry for a run of typing', async ({ page }) => {
  // The page's clock, moved past a pause in typing rather than waited out.
  await page.clock.install();
  await page.goto('/search/');
  const box = page.getByRole('searchbox', { name: 'Search garments' });
  await box.fill('twill');
  await box.press('Enter');
  const twill = await hitPaths(page);
  await box.fill('');
  await box.pressSequentially('flee');
  // A pause keeps the search shown: the next letters make an entry of their own.
  await hitPaths(page);
  await page.clock.fastForward(TYPING_RUN_MS + 100);
  await box.press('End');
  await box.pressSequentially('ce');
  const fleece = await hitPaths(page);
  expect(fleece).not.toEqual(twill);
  await page.locator('summary', { hasText: 'Projection' }).click();
  await page.getByRole('checkbox', { name: /^Technical/ }).check();
  await expect(page).toHaveURL(/[?&]projection=Technical\b/);
  await hitPaths(page);

  await page.goBack();
  await expect(page).toHaveURL(/\?q=fleece$/);
  await expect(box).toHaveValue('fleece');
  await expect(page.getByRole('checkbox', { name: /^Technical/ })).not.toBeChecked();
  expect(await hitPaths(page)).toEqual(fleece);
  await page.goBack();
  await expect(box).toHaveValue('flee');
  // Clearing the box and typing "flee" letter by letter made one entry; before it, the search for twill.
  await page.goBack();
  await expect(box).toHaveValue('twill');
  expect(await hitPaths(page)).toEqual(twill);
  await page.goForward();
  await expect(box).toHaveValue('flee');
});

test('results sort by title and by published date, in order across the shards', async ({ page }) => {
  // A garment's date is its latest record's.
  const published = new Map<string, number>();
  for (const { record } of builtRecords()) {
    const path = `/garments/${record.slug}/`;
    published.set(path, Math.max(published.get(path) ?? -Infinity, Date.parse(record.published_at)));
  }
  await page.goto('/search/?q=cotton&sort=title');
  await expect(page.getByRole('combobox', { name: 'Sort by' })).toHaveValue('title');
  await hitPaths(page);
  const titles = (await hitLinks(page).evaluateAll((links) => links.map((link) => link.firstChild!.textContent!))).map((title) =>
    title.toLowerCase(),
  );
  expect(titles.length).toBeGreaterThan(1);
  expect(titles).toEqual([...titles].sort());

  await page.getByRole('combobox', { name: 'Sort by' }).selectOption('published');
  await expect(page).toHaveURL(/sort=published/);
  const dates = (await hitPaths(page)).map((path) => published.get(path)!).filter((date) => !Number.isNaN(date));
  expect(dates).toEqual([...dates].sort((a, b) => b - a));
});

test('the keyboard alone reaches a result and follows it', async ({ page }) => {
  await page.goto('/search/');
  const box = page.getByRole('searchbox', { name: 'Search garments' });
  for (let i = 0; i < 10 && !(await box.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(box).toBeFocused();
  await page.keyboard.type('cotton');
  await page.keyboard.press('Enter');
  const paths = await hitPaths(page);
  expect(paths.length).toBeGreaterThan(1);

  // Tab walks on through the sort, the filters and into the results.
  let reached = '';
  for (let i = 0; i < 40 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await page.evaluate(() =>
      document.activeElement?.matches('a.search-hit-link') ? new URL((document.activeElement as HTMLAnchorElement).href).pathname : '',
    );
  }
  expect(paths).toContain(reached);

  // Arrow keys are the short way: down from the box to the hits and between them, up back to the box.
  await box.focus();
  await page.keyboard.press('ArrowDown');
  await expect(hitLinks(page).nth(0)).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(hitLinks(page).nth(1)).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await expect(box).toBeFocused();

  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`${paths[0]}$`));
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test.describe('a hostile record’s text in results', () => {
  test('the hostile fixture is part of the built site', () => {
    expect(builtRecords().some(({ file }) => file.startsWith('hostile'))).toBe(true);
  });

  test('a title’s characters HTML forbids show as U+FFFD, as on its page, not as boxes or nothing', async ({ page }) => {
    await page.goto('/search/?q=hostile');
    const title = page.locator('.search-hit-title').filter({ hasText: 'Hostile tee' }).first();
    await expect(title).toContainText('\uFFFD forbidden');
    expect(await title.textContent()).not.toMatch(/[\u0001\uFDD0\uFFFF]|\uD83F\uDFFE|\uDBFF\uDFFF/);
  });

  for (const word of ['hostile', 'script', 'onerror', 'iframe', 'javascript']) {
    test(`searching “${word}” runs nothing and injects no element`, async ({ page }) => {
      const { dialogs, errors } = watchForScripts(page);
      await page.goto(`/search/?q=${word}`);
      expect(await hitPaths(page)).toContainEqual(expect.stringMatching(/^\/garments\/hostile-/));
      for (const summary of await page.locator('.search-filter summary').all()) await summary.click();
      await page.mouse.move(300, 300);
      await page.mouse.move(700, 500);
      // Opening the filters loads their files and counts every value: done once no count is blank.
      await expect(page.locator('.search-filter .count')).not.toHaveCount(0);
      await expect(page.locator('.search-filter .count').filter({ hasText: /^$/ })).toHaveCount(0);

      expect(dialogs).toEqual([]);
      expect(errors).toEqual([]);
      const found = await page.locator('[data-search]').evaluate((root) => ({
        // Inside the search box, only the elements the script itself builds.
        elements: [...root.querySelectorAll('*')]
          .map((el) => el.tagName.toLowerCase())
          .filter(
            (tag) =>
              ![
                'h2',
                'h3',
                'div',
                'p',
                'label',
                'input',
                'button',
                'select',
                'option',
                'ol',
                'ul',
                'li',
                'details',
                'summary',
                'fieldset',
                'legend',
                'bdi',
                'span',
                'a',
                'img',
                'mark',
              ].includes(tag),
          ),
        handlers: [...root.querySelectorAll('*')].flatMap((el) => [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => a.name)),
        images: [...root.querySelectorAll('img')].filter(
          (img) => !img.classList.contains('search-hit-image') || !/^https?:/.test(img.getAttribute('src') ?? ''),
        ).length,
        // Garments' pages, the full list offered when nothing is found, and the way down to the filters.
        links: [...root.querySelectorAll('a')]
          .map((a) => a.getAttribute('href') ?? '')
          .filter((href) => !href.startsWith('/garments/') && href !== '/' && href !== '#search-refine'),
        marksOutsideExcerpts: [...root.querySelectorAll('mark')].filter((mark) => !mark.parentElement?.matches('.search-hit-excerpt'))
          .length,
      }));
      expect(found).toEqual({ elements: [], handlers: [], images: 0, links: [], marksOutsideExcerpts: 0 });
      expect(await page.evaluate(() => (window as unknown as { pwned?: unknown }).pwned)).toBeUndefined();
    });
  }

  test('its markup is shown as text, in the title and the excerpt', async ({ page }) => {
    await page.goto('/search/?q=hostile');
    await hitPaths(page);
    await expect(hitLinks(page).first()).toContainText('<script>');
    // Isolated, so the override the title leaves open cannot reorder the projection after it.
    await expect(hitLinks(page).first().locator('bdi')).toContainText('<script>');
    await expect(page.locator('.search-hit-excerpt').first()).toContainText('<');
  });

  test('an excerpt shows the text as its page does: an encoded ampersand as written', async ({ page }) => {
    await page.goto('/search/?q=ampersands');
    await hitPaths(page);
    await expect(page.locator('.search-hit-excerpt').first()).toContainText('AT&T and &amp; stay so');
    await page.goto('/garments/hostile-tee/svc/');
    await expect(page.locator('.text-body', { hasText: 'Ampersands' })).toContainText('AT&T and &amp; stay so');
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the home page lists every garment and shows no dead search box', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('li.garment')).toHaveCount(new Set(builtRecords().map(({ record }) => record.slug)).size);
    await expect(page.locator('[data-search]')).toBeHidden();
  });

  test('/search/ says search needs JavaScript and leads to the full list', async ({ page }) => {
    await page.goto('/search/?q=twill');
    await expect(page.getByText('Search runs in your browser and needs JavaScript')).toBeVisible();
    await page.getByRole('link', { name: 'Browse all garments' }).click();
    await expect(page).toHaveURL(/\/$/);
  });
});

for (const scheme of ['light', 'dark'] as const) {
  test(`the search page with results and open filters has no accessibility violations in ${scheme} mode`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto('/search/?q=cotton&projection=Commerce');
    await hitPaths(page);
    for (const summary of await page.locator('.search-filter summary').all()) await summary.click();
    expect(await axeViolations(page)).toEqual([]);
  });

  test(`a search that finds nothing, with its filter chip, suggestions and clear button, has no accessibility violations in ${scheme} mode`, async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto('/search/?q=flxxce&projection=Commerce');
    await expect(page.locator('.search-suggestion').first()).toBeVisible();
    await expect(page.locator('.search-chip')).toHaveCount(1);
    expect(await axeViolations(page)).toEqual([]);
    // The script's buttons are drawn as the page's own: a touch target of at least 24 px, in the page's colours.
    for (const button of [page.locator('.search-chip'), page.locator('.search-suggestion').first()]) {
      expect((await button.boundingBox())!.height).toBeGreaterThanOrEqual(24);
      expect(await button.evaluate((element) => getComputedStyle(element).color)).toBe(
        await page.locator('body').evaluate((body) => getComputedStyle(body).color),
      );
    }
  });
}

test('the site header leads to search from any page', async ({ page }) => {
  const { record } = builtRecords().find(({ file }) => !file.startsWith('hostile'))!;
  await page.goto(`/garments/${record.slug}/${record.projection}/`);
  await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Search' }).click();
  await expect(page).toHaveURL(/\/search\/$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});
