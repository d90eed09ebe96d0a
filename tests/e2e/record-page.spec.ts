import type { Page } from '@playwright/test';
import type { GarmentRecord, TextBlock } from '../../src/lib/record/types.ts';
import { SECTION_ORDER } from '../../src/lib/record/reading-order.ts';
import { sectionHeading } from '../../src/lib/site/strings.ts';
import { expect, test } from './fixtures.ts';
import { sampleRecords } from './site.ts';

const pathOf = (record: GarmentRecord) => `/garments/${record.slug}/${record.projection}/`;

/** Every in-page link whose target is missing, as `href` strings. */
async function danglingFragments(page: Page): Promise<string[]> {
  return page
    .locator('a[href^="#"]')
    .evaluateAll((links) =>
      links
        .map((a) => a.getAttribute('href')!)
        .filter((href) => href !== '#' && !document.getElementById(decodeURIComponent(href.slice(1)))),
    );
}

for (const { file, record } of sampleRecords()) {
  test.describe(`the page of ${file}`, () => {
    test.beforeEach(async ({ page }) => {
      await page.goto(pathOf(record));
    });

    test('has one h1 naming the garment and headings in order', async ({ page }) => {
      await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
      const levels = await page.locator('main :is(h1, h2, h3, h4, h5, h6)').evaluateAll((hs) => hs.map((h) => Number(h.tagName[1])));
      levels.forEach((level, i) => {
        if (i > 0) expect(level, `heading ${i} jumps from h${levels[i - 1]} to h${level}`).toBeLessThanOrEqual(levels[i - 1]! + 1);
      });
    });

    test('renders every non-empty section, in the specification order, with each text block', async ({ page }) => {
      const sections = record.page.sections as unknown as Record<string, TextBlock[]>;
      const shown: string[] = [];
      for (const key of SECTION_ORDER[record.projection]) {
        const blocks = sections[key]!;
        const heading = page.getByRole('heading', { level: 2, name: sectionHeading(record.projection, key), exact: true });
        if (blocks.length === 0) {
          await expect(page.locator(`section#${key.replace(/_/g, '-')}`)).toHaveCount(0);
          continue;
        }
        shown.push(key);
        await expect(heading).toBeVisible();
        await expect(page.locator(`section#${key.replace(/_/g, '-')} p.text-block`)).toHaveCount(blocks.length);
      }
      const order = await page.locator('section.page-section').evaluateAll((s) => s.map((e) => e.id));
      expect(order).toEqual(shown.map((key) => key.replace(/_/g, '-')));
    });

    test('shows the record parts it has: summary, FAQ, gaps, data, claims, sources', async ({ page }) => {
      const parts: [string, boolean][] = [
        ['Selection summary', true],
        ['Questions and answers', record.page.faq.length > 0],
        ['Images', record.images.length > 0],
        ['Catalog', record.catalog !== null],
        ['Research gaps', record.gaps.length > 0],
        ['Conflicts', record.conflicts.length > 0],
        ['Decisions', record.decisions.length > 0],
        ['Claims', record.claims.length > 0],
        ['Sources', record.sources.length > 0],
      ];
      for (const [name, present] of parts) {
        await expect(page.getByRole('heading', { level: 2, name, exact: true }), name).toHaveCount(present ? 1 : 0);
      }
      await expect(page.locator('ol.claims > li.claim')).toHaveCount(new Set(record.claims.map((c) => c.id)).size);
      await expect(page.locator('ol.sources > li.source')).toHaveCount(new Set(record.sources.map((s) => s.id)).size);
      const itemAnchors = Object.entries(record.data)
        .filter((entry): entry is [string, { id: string }[]] => Array.isArray(entry[1]))
        .flatMap(([name, items]) => items.map((item) => `${name}-${item.id}`));
      const missing = await page.evaluate(
        (ids) => ids.filter((id) => document.querySelectorAll(`[id="${CSS.escape(id)}"]`).length !== 1),
        itemAnchors,
      );
      expect(missing).toEqual([]);
    });

    test('states the research status plainly', async ({ page }) => {
      const status = page.getByRole('region', { name: /Research status/ });
      await expect(status).toContainText(/Research status: \w/);
      if (record.research.status !== 'complete') await expect(status).toHaveClass(/research-status--unfinished/);
      if (record.research.limitations) await expect(status).toContainText('Limitations');
    });

    test('links every claim marker to existing claim entries, and every backlink to a text block citing the claim', async ({ page }) => {
      expect(await danglingFragments(page)).toEqual([]);
      // A run (`1–3`) links to its first claim and stands for each claim it spans (claim n is the nth entry).
      // A key fact's evidence link opens its row's list of claims (shopper-header.spec.ts); the markers name claims themselves.
      const markers = await page.locator('a.claim-ref:not(.fact-evidence)').evaluateAll((links) => {
        const claims = [...document.querySelectorAll('ol.claims > li.claim')].map((li) => li.id);
        return links.map((a) => {
          const text = a.textContent ?? '';
          if (!text.includes('–')) return [a.getAttribute('href')!.slice(1)];
          const [first, last] = text.split('–').map(Number);
          if (claims[first! - 1] !== a.getAttribute('href')!.slice(1)) return [`${a.getAttribute('href')} does not start its run ${text}`];
          return claims.slice(first! - 1, last);
        });
      });
      expect(markers.length).toBeGreaterThan(0);
      const broken = await page.evaluate(
        (ids) => {
          const missingEntries = ids.filter((id) => !document.getElementById(id)?.matches('li.claim'));
          const claims = [...document.querySelectorAll('ol.claims > li.claim')].map((li) => li.id);
          const cites = (element: Element, claim: string) =>
            [...element.querySelectorAll<HTMLAnchorElement>('a.claim-ref')].some((a) => {
              const text = a.textContent ?? '';
              if (!text.includes('–')) return a.getAttribute('href') === `#${claim}`;
              const [first, last] = text.split('–').map(Number);
              const place = claims.indexOf(claim) + 1;
              return place >= first! && place <= last!;
            });
          // The text a backlink returns to cites the claim the backlink comes from.
          const backlinks = [...document.querySelectorAll('li.claim a.backlink')].map((a) => ({
            claim: a.closest('li.claim')!.id,
            target: a.getAttribute('href')!.slice(1),
          }));
          const strayBacklinks = backlinks
            .filter(({ claim, target }) => {
              const element = document.getElementById(target);
              return !element || !cites(element, claim);
            })
            .map(({ claim, target }) => `${claim} → ${target}`);
          return { missingEntries, strayBacklinks, backlinks: backlinks.length };
        },
        [...new Set(markers.flat())],
      );
      expect(broken.missingEntries).toEqual([]);
      expect(broken.strayBacklinks).toEqual([]);
      expect(broken.backlinks).toBeGreaterThan(0);
    });

    test('previews a claim in place when a marker is clicked, and lands on the full entry from there, and back on the text from its backlink', async ({
      page,
    }) => {
      // A single claim's marker: a run (`1–3`) opens a list of its claims (shopper-header.spec.ts).
      const marker = page.locator('.record-body p.text-block a.claim-ref').filter({ hasNotText: '–' }).first();
      const href = (await marker.getAttribute('href'))!;
      const block = marker.locator('xpath=ancestor::p[contains(@class, "text-block")]');
      const blockId = (await block.getAttribute('id'))!;
      await marker.click();
      const preview = page.getByRole('dialog', { name: 'Claim preview' });
      await expect(preview).toBeVisible();
      await expect(page).not.toHaveURL(new RegExp(`${href}$`));
      await preview.locator(`a.full-entry[href="${href}"]`).click();
      await expect(preview).toBeHidden();
      await expect(page).toHaveURL(new RegExp(`${href}$`));
      const entry = page.locator(`[id="${href.slice(1)}"]`);
      await expect(entry).toBeInViewport();
      await entry.locator(`a.backlink[href="#${blockId}"]`).click();
      await expect(page.locator(`[id="${blockId}"]`)).toBeInViewport();
    });

    test('links the other projection only where its record exists', async ({ page }) => {
      const other = sampleRecords().some((s) => s.record.slug === record.slug && s.record.projection !== record.projection);
      const link = page.getByRole('link', { name: /^Read the (Commerce|Technical) page$/ });
      await expect(link).toHaveCount(other ? 1 : 0);
      if (other) {
        await link.click();
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      }
    });

    test('has a head with title, description, canonical URL and Open Graph tags', async ({ page }) => {
      await expect(page).toHaveTitle(/\S/);
      await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /\S/);
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', new RegExp(`${pathOf(record)}$`));
      await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', /\S/);
      await expect(page.locator('meta[property="og:url"]')).toHaveAttribute('content', new RegExp(`${pathOf(record)}$`));
    });
  });
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a record page can be read and its claims followed', async ({ page }) => {
    const { record } = sampleRecords()[0]!;
    await page.goto(pathOf(record));
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const marker = page.locator('a.claim-ref').first();
    const href = (await marker.getAttribute('href'))!;
    await marker.click();
    await expect(page.locator(`[id="${href.slice(1)}"]`)).toBeInViewport();
  });
});

test('a garment page leads to each projection it has', async ({ page }) => {
  const { record } = sampleRecords()[0]!;
  await page.goto(`/garments/${record.slug}/`);
  const projections = sampleRecords()
    .filter((s) => s.record.slug === record.slug)
    .map((s) => s.record.projection);
  for (const projection of projections) {
    await expect(page.getByRole('link', { name: projection === 'svc' ? 'Commerce page' : 'Technical page', exact: true })).toHaveAttribute(
      'href',
      `/garments/${record.slug}/${projection}/`,
    );
  }
});

test.describe('in print', () => {
  test("a record page keeps its content, marks the text's links and prints web addresses, without the site's navigation", async ({
    page,
  }) => {
    const { record } = sampleRecords().find((s) => s.record.slug.startsWith('ridgeline') && s.record.projection === 'svc')!;
    await page.goto(pathOf(record));
    await page.emulateMedia({ media: 'print' });
    await expect(page.locator('.site-header')).toBeHidden();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // Folded data prints: every data table and claim is laid out, none collapsed away.
    const laidOut = await page
      .locator('.claim, table')
      .evaluateAll((elements) => elements.map((e) => e.getBoundingClientRect().height > 0));
    expect(laidOut.length).toBeGreaterThan(10);
    expect(laidOut.every(Boolean)).toBe(true);
    const textLink = page.locator('.text-body a').first();
    await expect(textLink).toHaveCSS('text-decoration-line', 'underline');
    const webLink = page.locator('main a[href^="http"]').first();
    const printed = await webLink.evaluate((a) => getComputedStyle(a, '::after').content);
    expect(printed).toContain(await webLink.getAttribute('href'));
  });

  test("the search box and the documentation's code print whole: the box is left out, long code lines wrap", async ({ page }) => {
    await page.goto('/');
    await page.emulateMedia({ media: 'print' });
    await expect(page.locator('[data-search]')).toBeHidden();
    await page.goto('/docs/webhooks/');
    const overflowing = await page
      .locator('pre')
      .evaluateAll((blocks) => blocks.filter((pre) => pre.scrollWidth > pre.clientWidth + 1).length);
    expect(overflowing).toBe(0);
  });
});

test('an id or code value in a data table breaks only where it has a hyphen or a space, not a letter or two a line', async ({ page }) => {
  const { record } = sampleRecords().find((s) => s.record.slug.startsWith('fieldline') && s.record.projection === 'svc')!;
  await page.goto(pathOf(record));
  const ids = await page
    .locator('tbody th code, tbody td code')
    .evaluateAll((codes) => codes.map((code) => ({ id: code.textContent ?? '', lines: code.getClientRects().length })));
  expect(ids.length).toBeGreaterThan(0);
  expect(ids.filter(({ id, lines }) => lines > id.split(/[-\s]+/).length)).toEqual([]);
});
