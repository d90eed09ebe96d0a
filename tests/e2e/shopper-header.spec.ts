// Issue 35, points 3 and 4, at phone and desktop width: key facts that admit doubt (on the page, in
// search results and in the Markdown twin), one link to a fact's evidence that lists its claims, a
// run of markers that opens a list, and the shopper's header: one price from, swatches that show in
// both themes, the size chart beside the sizes, a placeholder for a picture that fails, card labels whole.
import type { Page } from '@playwright/test';
import type { CommerceRecord } from '../../src/lib/record/types.ts';
import { expect, test } from './fixtures.ts';
import { sampleRecords } from './site.ts';

const VIEWPORTS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } };
const recordOf = (slugPart: string, projection: 'svc' | 'tech') =>
  sampleRecords().find(({ record }) => record.slug.includes(slugPart) && record.projection === projection)!.record;
const hoodieTech = recordOf('hoodie', 'tech');
const tee = recordOf('tee', 'svc') as CommerceRecord;
const jacket = recordOf('jacket', 'svc') as CommerceRecord;
const pathOf = (record: { slug: string; projection: string }) => `/garments/${record.slug}/${record.projection}/`;

/** The two weights the hoodie's sources give, read from its conflict here: `9 or 8.5 oz/yd²`. */
function disputedWeight(): string {
  const conflict = hoodieTech.conflicts.find((c) => c.resolution === 'unresolved' && c.target.includes('weight'))!;
  const claims = conflict.claim_ids.map((id) => hoodieTech.claims.find((c) => c.id === id)!);
  return `sources disagree: ${claims.map((c) => c.value).join(' or ')} ${claims[0]!.unit}`;
}

/** WCAG relative luminance of a CSS `rgb(…)` colour, and the contrast of two. */
function contrast(a: string, b: string): number {
  const luminance = (color: string) => {
    const [r, g, bl] = color
      .match(/[\d.]+/g)!
      .slice(0, 3)
      .map((c) => {
        const v = Number(c) / 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (high! + 0.05) / (low! + 0.05);
}

/** The lines a piece of text takes on the page. */
async function linesOf(page: Page, selector: string): Promise<number> {
  return page.locator(selector).evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element.firstChild!);
    return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
  });
}

for (const [name, viewport] of Object.entries(VIEWPORTS)) {
  test.describe(`at ${name} width`, () => {
    test.use({ viewport });

    test('the hoodie’s weight says beside it that the sources disagree, and so do its search result and its Markdown twin', async ({
      page,
      request,
    }) => {
      await page.goto(pathOf(hoodieTech));
      const fabric = page.locator('#key-facts [data-fact="fabric"]').first();
      await expect(fabric.locator('.fact-doubt')).toHaveText(disputedWeight());
      await expect(fabric.locator('.fact-doubt')).toBeInViewport();
      const markdown = await (await request.get(`/garments/${hoodieTech.slug}/tech.md`)).text();
      expect(markdown).toContain(`**${disputedWeight()}**`);
      await page.goto('/search/?q=hoodie');
      const hit = page.locator('.search-hit', { has: page.locator(`a[href="/garments/${hoodieTech.slug}/"]`) });
      await expect(hit.locator('.search-hit-facts')).toContainText(`(${disputedWeight()})`);
    });

    test('each key fact has one link to its evidence, which lists the row’s claims, each opening its preview', async ({ page }) => {
      await page.goto(pathOf(tee));
      const evidence = page.locator('#key-facts [data-fact="price"] a.fact-evidence');
      await expect(evidence).toHaveCount(1);
      const count = (await evidence.getAttribute('data-claims'))!.split(' ').length;
      expect(count).toBeGreaterThan(1);
      await expect(evidence).toHaveText(`Evidence (${count})`);
      await evidence.click();
      const preview = page.getByRole('dialog', { name: 'Claim preview' });
      await expect(preview.locator('.preview-list > li')).toHaveCount(count);
      await expect(preview.locator('.preview-item')).toHaveCount(0);
      await expect(preview).toBeInViewport();
      await expect(
        page.locator('#key-facts [data-fact="price"] .fact-claims'),
        'the list the link leads to without JavaScript',
      ).toBeHidden();
      await preview.locator('.preview-pick').first().click();
      await expect(preview.locator('.preview-item')).toHaveCount(1);
      await expect(preview.locator('.claim-subject')).toContainText(/\S/);
      await preview.getByRole('button', { name: 'Back to the list' }).click();
      await expect(preview.locator('.preview-list > li')).toHaveCount(count);
    });

    test('a run of claim markers opens a list of its claims, not their previews stacked', async ({ page }) => {
      await page.goto(pathOf(tee));
      const run = page.locator('a.claim-ref:not(.fact-evidence)', { hasText: '–' }).first();
      const [first, last] = (await run.textContent())!.split('–').map(Number);
      await run.scrollIntoViewIfNeeded();
      await run.click();
      const preview = page.getByRole('dialog', { name: 'Claim preview' });
      await expect(preview.locator('.preview-list > li')).toHaveCount(last! - first! + 1);
      await expect(preview.locator('.preview-item')).toHaveCount(0);
    });

    test('the tee’s price is one line from its lowest list price, with its seller, basis and date; every seller’s price folded beneath', async ({
      page,
    }) => {
      await page.goto(pathOf(tee));
      const from = page.locator('#key-facts [data-fact="price"] dd > ul > li');
      await expect(from).toHaveCount(1);
      await expect(from).toContainText(/^From \$\d+\.\d\d at \S.*list price, seen \w{3} \d+, \d{4}/);
      expect(await linesOf(page, '#key-facts [data-fact="price"] dd > ul > li'), 'the price from is one line').toBe(1);
      const sellers = page.locator('#key-facts [data-fact="price"] details');
      await expect(sellers.locator('summary')).toHaveText(`Prices at ${tee.data.provider_listings.length} sellers`);
      await sellers.locator('summary').click();
      await expect(sellers.locator('li')).toHaveCount(tee.data.provider_listings.length);
    });

    test('a seller the record does not name is named by the site its price was read on, its price by what it is for', async ({ page }) => {
      await page.goto(pathOf(jacket));
      const sellers = page.locator('#key-facts [data-fact="price"] details');
      await sellers.locator('summary').click();
      await expect(sellers).toContainText('A seller at prairieworkwear.example: $24.75 blank garment, wholesale price, from 12 pieces');
      await expect(page.locator('#key-facts')).not.toContainText(/Provider not stated|\bOther\b/);
    });

    test('the size chart is linked beside the sizes', async ({ page }) => {
      await page.goto(pathOf(tee));
      const chart = page.locator('#key-facts [data-fact="sizes"] a', { hasText: 'Size chart' });
      await expect(chart).toHaveAttribute('href', tee.data.size_ranges.find((r) => r.size_chart_url)!.size_chart_url!);
      await expect(chart).toBeInViewport();
    });

    for (const scheme of ['light', 'dark'] as const) {
      test(`colour swatches are round chips of 20 px or more whose ring shows against the panel in ${scheme} mode`, async ({ page }) => {
        await page.emulateMedia({ colorScheme: scheme });
        await page.goto(pathOf(tee));
        const swatches = page.locator('#key-facts [data-fact="colors"] .swatch');
        await expect(swatches).toHaveCount(tee.data.colors.length);
        const panel = await page.locator('#key-facts').evaluate((el) => getComputedStyle(el).backgroundColor);
        for (const swatch of await swatches.all()) {
          const box = (await swatch.boundingBox())!;
          expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(20);
          const style = await swatch.evaluate((el) => {
            const s = getComputedStyle(el);
            return { ring: s.borderTopColor, width: Number.parseFloat(s.borderTopWidth), radius: s.borderTopLeftRadius };
          });
          expect(style.width).toBeGreaterThanOrEqual(2);
          expect(style.radius).toBe('50%');
          // Non-text contrast (WCAG 1.4.11): the ring against the panel, whatever the colour inside it.
          expect(contrast(style.ring, panel), `ring ${style.ring} on ${panel}`).toBeGreaterThanOrEqual(3);
        }
      });
    }

    test('a picture that fails to load shows a placeholder naming the garment, never a broken picture', async ({ page }) => {
      // The fixture blocks every other host: each record picture fails.
      for (const path of [pathOf(tee), `/garments/${tee.slug}/`, '/', '/search/?q=heavyweight']) {
        await page.goto(path);
        // The tee's card on the home page is below a phone's first screen: its lazy picture is asked for once in view.
        await page.getByText('Ridgeline RK-6210').first().scrollIntoViewIfNeeded();
        const placeholder = page.locator('.image-placeholder', { hasText: 'Ridgeline RK-6210' }).first();
        await expect(placeholder).toBeVisible();
        // A picture not yet asked for (lazily loaded, below the screen) is not broken yet; none that failed is left.
        await expect
          .poll(() =>
            page
              .locator('img.garment-image')
              .evaluateAll(
                (images) => images.filter((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).currentSrc).length,
              ),
          )
          .toBe(0);
      }
      await page.goto(pathOf(tee));
      await expect(page.locator('.record-intro .image-placeholder')).toHaveAttribute('role', 'img');
    });

    test('a placeholder too small for a long name shows whole lines of it, never a line cut in half', async ({ page }) => {
      // The jacket's name (56 letters) takes more lines than a search result's placeholder holds; its picture fails (other hosts are blocked).
      for (const [path, item] of [
        ['/', 'li.garment'],
        ['/search/?q=twill', '.search-hit'],
      ] as const) {
        await page.goto(path);
        const found = page.locator(item, { hasText: 'Fieldline FL-300' }).first();
        await found.scrollIntoViewIfNeeded();
        const placeholder = found.locator('.image-placeholder');
        await expect(placeholder).toBeVisible();
        const { text, box } = await placeholder.evaluate((element) => {
          const inner = element.firstElementChild!.getBoundingClientRect();
          const outer = element.getBoundingClientRect();
          const style = getComputedStyle(element);
          return {
            text: { top: inner.top, bottom: inner.bottom },
            box: {
              top: outer.top + Number.parseFloat(style.paddingTop) + Number.parseFloat(style.borderTopWidth),
              bottom: outer.bottom - Number.parseFloat(style.paddingBottom) - Number.parseFloat(style.borderBottomWidth),
            },
          };
        });
        expect(text.top, `${path}: the name’s first line shown starts inside the placeholder`).toBeGreaterThanOrEqual(box.top - 0.5);
        expect(text.bottom, `${path}: the name’s last line shown ends inside the placeholder`).toBeLessThanOrEqual(box.bottom + 0.5);
      }
    });

    test('a category link shows its name and its count apart', async ({ page }) => {
      await page.goto('/');
      const links = page.getByRole('navigation', { name: 'Categories' }).getByRole('link');
      expect(await links.count()).toBeGreaterThan(0);
      for (const link of await links.all()) {
        const gap = await link.evaluate((a) => {
          const count = a.querySelector('.count')!;
          const name = document.createRange();
          name.setStart(a.firstChild!, 0);
          name.setEnd(a.firstChild!, a.firstChild!.textContent!.trimEnd().length);
          return count.getBoundingClientRect().left - name.getBoundingClientRect().right;
        });
        expect(gap, (await link.textContent()) ?? '').toBeGreaterThanOrEqual(3);
      }
    });

    test('only a page showing record pictures loads the script standing in for one that fails', async ({ page }) => {
      const loaded = async (path: string) => {
        await page.goto(path);
        return page.evaluate(() => performance.getEntriesByType('resource').some((e) => new URL(e.name).pathname === '/scripts/images.js'));
      };
      for (const path of [pathOf(tee), `/garments/${tee.slug}/`, '/', '/search/?q=tee']) expect(await loaded(path), path).toBe(true);
      for (const path of ['/docs/api/', '/docs/webhooks/', '/docs/mcp/', '/compare/', '/no-such-page/'])
        expect(await loaded(path), path).toBe(false);
    });

    test('card fact labels are whole words on one line, and a weight’s number never leaves its unit', async ({ page }) => {
      await page.goto('/');
      const labels = page.locator('.garment-facts dt');
      expect(await labels.count()).toBeGreaterThan(0);
      for (let i = 0; i < (await labels.count()); i++) {
        expect(await linesOf(page, `.garment-facts dt >> nth=${i}`), `"${await labels.nth(i).textContent()}" on one line`).toBe(1);
      }
      // The hoodie's and the jacket's weights are long: at either width, a line once ended between a number and its unit.
      const split = await page.locator('li.garment .garment-facts dd').evaluateAll((values) =>
        values.flatMap((dd) => {
          const text = dd.firstChild;
          if (!(text instanceof Text)) return [];
          return [...text.data.matchAll(/(\d+(?:\.\d+)?)\s(oz\/yd²|g\/m²)/g)]
            .filter((match) => {
              const range = document.createRange();
              range.setStart(text, match.index!);
              range.setEnd(text, match.index! + match[0].length);
              return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size > 1;
            })
            .map((match) => match[0]);
        }),
      );
      expect(split).toEqual([]);
    });
  });
}

for (const [name, viewport] of Object.entries(VIEWPORTS)) {
  test.describe(`without JavaScript at ${name} width`, () => {
    test.use({ javaScriptEnabled: false, viewport });

    test('a picture that fails shows the garment’s name over it', async ({ page }) => {
      await page.goto(pathOf(tee));
      const lead = page.locator('.record-intro img.garment-image');
      const after = await lead.evaluate((img) => getComputedStyle(img, '::after').content);
      expect(after).toContain('Ridgeline RK-6210 Heavyweight Tee');
    });

    test('a fact’s evidence link opens the list of every claim of its row, each leading to its entry', async ({ page }) => {
      await page.goto(pathOf(tee));
      const row = page.locator('#key-facts [data-fact="price"]');
      const evidence = row.locator('a.fact-evidence');
      const numbers = (await evidence.getAttribute('data-claims'))!.split(' ');
      expect(numbers.length).toBeGreaterThan(1);
      const list = row.locator('.fact-claims');
      await expect(list).toBeHidden();
      await evidence.click();
      await expect(list).toBeInViewport();
      await expect(list.getByText('Claims behind Price')).toBeVisible();
      await expect(list.locator('li .claim-number')).toHaveText(numbers);
      for (const line of await list.locator('li').all()) await expect(line.locator('.claim-value')).toContainText(/\S: \S/);
      // The last claim's entry is in the folded claims list: following its number opens it there.
      const last = list.locator('li .claim-number').last();
      const entry = page.locator(`[id="${(await last.getAttribute('href'))!.slice(1)}"]`);
      await last.click();
      await expect(entry).toBeInViewport();
      await expect(entry.locator('.claim-number')).toHaveText(numbers.at(-1)!);
    });
  });
}
