// Issue 22, reader-first record pages: for every sample record at phone and desktop width, the key
// facts are in the first screen and hold the record's facts (read from the record here), offers are
// a table, claim markers preview in place by keyboard and click, and nothing is wider than the screen.
// axe checks these pages at both widths in light and dark mode in accessibility.spec.ts.
import type { Page } from '@playwright/test';
import type { CommerceRecord, GarmentRecord, TechnicalRecord } from '../../src/lib/record/types.ts';
import { expect, test } from './fixtures.ts';
import { sampleRecords } from './site.ts';

const VIEWPORTS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } };
const pathOf = (record: GarmentRecord) => `/garments/${record.slug}/${record.projection}/`;

/** Money as a US reader sees it, from minor units: written here, not borrowed from the site's code. */
const money = (minor: number, currency: string, exponent: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency, minimumFractionDigits: exponent, maximumFractionDigits: exponent }).format(
    minor / 10 ** exponent,
  );

/** The text of a key fact's row, by its label. */
async function factText(page: Page, label: string | RegExp): Promise<string> {
  const row = page.locator('#key-facts dl > div').filter({ has: page.locator('dt', { hasText: label }) });
  await expect(row, `a key fact labelled ${label}`).toHaveCount(1);
  return (await row.locator('dd').innerText()).replace(/\s+/g, ' ');
}

async function expectCommerceFacts(page: Page, record: CommerceRecord): Promise<void> {
  const { data } = record;
  // One price from: the lowest public price, else the lowest of any basis.
  const priced = data.offers.filter((o) => o.base_amount_minor !== null);
  const publicOnes = priced.filter((o) => o.price_basis === 'standard_public');
  const from = (publicOnes.length > 0 ? publicOnes : priced).reduce((a, b) => (b.base_amount_minor! < a.base_amount_minor! ? b : a));
  const seller = data.provider_listings.find((l) => l.id === from.provider_listing_id);
  const fromLine = page.locator('#key-facts [data-fact="price"] dd > ul > li');
  await expect(fromLine).toHaveCount(1);
  await expect(fromLine).toContainText(
    `From ${money(from.base_amount_minor!, from.currency!, from.minor_unit_exponent ?? 2)} at ${seller?.provider_name ?? ''}`,
  );
  // Each provider's most public price, folded beneath it.
  const providers = (await page.locator('#key-facts [data-fact="price"] details').textContent())!.replace(/\s+/g, ' ');
  for (const listing of data.provider_listings) {
    const offers = data.offers.filter((o) => o.provider_listing_id === listing.id && o.base_amount_minor !== null);
    if (offers.length === 0) continue;
    const order = [
      'standard_public',
      'standard_authenticated',
      'account_plan',
      'membership_discounted',
      'promotional',
      'volume_discounted',
      'other',
      null,
    ];
    const basis = offers.map((o) => o.price_basis).sort((a, b) => order.indexOf(a) - order.indexOf(b))[0];
    const lowest = offers.filter((o) => o.price_basis === basis).reduce((a, b) => (b.base_amount_minor! < a.base_amount_minor! ? b : a));
    expect(providers).toContain(listing.provider_name ?? listing.catalog_title!);
    expect(providers).toContain(money(lowest.base_amount_minor!, lowest.currency!, lowest.minor_unit_exponent ?? 2));
  }
  const sizes = await factText(page, 'Sizes');
  for (const label of data.size_ranges.flatMap((r) => r.labels ?? [])) expect(sizes).toContain(label);
  const colors = await factText(page, 'Colors');
  for (const color of data.colors) expect(colors).toContain(color.manufacturer_name!);
  await expect(page.locator('#key-facts [data-fact="colors"] .swatch')).toHaveCount(data.colors.filter((c) => c.color_values).length);
  const stock = await factText(page, 'Stock');
  for (const listing of data.provider_listings.filter((l) => data.provider_variants.some((v) => v.provider_listing_id === l.id))) {
    const listed = data.provider_variants.filter((v) => v.provider_listing_id === listing.id);
    expect(stock).toContain(`${listing.provider_name}: ${listed.filter((v) => v.in_stock).length} of ${listed.length} in stock`);
  }
  const decoration = (await factText(page, 'Decoration')).toLowerCase();
  for (const method of data.decoration_methods) expect(decoration).toContain(method.method!.split('_')[0]!);
  const next = page.locator('#key-facts [data-fact="next-step"] a');
  if (record.catalog?.launch_url) await expect(next).toHaveAttribute('href', record.catalog.launch_url);
  else await expect(next).toHaveCount(0);
}

async function expectTechnicalFacts(page: Page, record: TechnicalRecord): Promise<void> {
  const panel = (await page.locator('#key-facts').innerText()).replace(/\s+/g, ' ');
  for (const profile of record.data.material_profiles) {
    const fabric = await factText(page, profile.name!);
    (profile.fiber_names ?? []).forEach((fibre, i) => expect(fabric).toContain(`${profile.fiber_percentages![i]}% ${fibre}`));
    if (profile.weight_gsm !== null) expect(fabric).toContain(`${profile.weight_gsm} g/m²`);
    if (profile.weight_original !== null) expect(fabric).toContain(`${profile.weight_original} ${profile.weight_original_unit}`);
    if (profile.fabric_construction) expect(fabric).toContain(profile.fabric_construction);
    if (profile.knit_or_weave) expect(fabric).toContain(profile.knit_or_weave);
    if (!profile.fiber_names && !profile.weight_gsm && !profile.fabric_construction) expect(fabric).toMatch(/not stated/);
  }
  const sizes = await factText(page, 'Size range');
  for (const label of record.data.size_ranges.flatMap((r) => r.labels ?? [])) expect(sizes).toContain(label);
  const points = new Set(record.data.measurements.map((m) => m.measurement_name).filter(Boolean));
  expect(await factText(page, 'Points of measure')).toContain(`${points.size} points`);
  expect(await factText(page, 'Assets and rights')).toContain(`${record.data.assets.length} asset`);
  expect(panel).toContain('Redistribution allowed for');
}

for (const { file, record } of sampleRecords()) {
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    test.describe(`${file} at ${name} width`, () => {
      test.use({ viewport });

      test('opens with the key facts, whole, in the first screen, holding the record’s facts, and each fact links to its claims', async ({
        page,
      }) => {
        await page.goto(pathOf(record));
        const box = (await page.locator('#key-facts').boundingBox())!;
        expect(box.y).toBeGreaterThanOrEqual(0);
        expect(box.y + box.height, 'the key facts end within the first screen').toBeLessThanOrEqual(viewport.height);
        // The twins are in the first screen too.
        for (const name of ['JSON', 'Markdown']) {
          const link = page.getByRole('link', { name, exact: true });
          await expect(link).toBeInViewport();
          await expect(link).not.toHaveAttribute('download');
        }
        if (record.projection === 'svc') await expectCommerceFacts(page, record);
        else await expectTechnicalFacts(page, record);
        // A fact backed by claims links to them: every row has at most one link to its evidence, and each claim it names has an entry.
        for (const row of await page.locator('#key-facts dl > div').all())
          await expect(row.locator('a.claim-ref')).toHaveCount((await row.locator('a.fact-evidence').count()) > 0 ? 1 : 0);
        const targets = await page.locator('#key-facts a.fact-evidence').evaluateAll((links) => {
          const claims = [...document.querySelectorAll('ol.claims > li.claim')];
          return links.flatMap((a) => (a as HTMLElement).dataset.claims!.split(' ').filter((n) => !claims[Number(n) - 1]));
        });
        expect(targets).toEqual([]);
        const sizeClaims = record.claims.filter((c) => c.targets.some((t) => t.startsWith('size_ranges/')));
        if (sizeClaims.length > 0) await expect(page.locator('#key-facts [data-fact="sizes"] a.claim-ref')).not.toHaveCount(0);
      });

      test('has nothing wider than the screen', async ({ page }) => {
        await page.goto(pathOf(record));
        const { scrollWidth, clientWidth } = await page.evaluate(() => ({
          scrollWidth: document.documentElement.scrollWidth,
          clientWidth: document.documentElement.clientWidth,
        }));
        expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
      });

      if (record.projection === 'svc') {
        test('shows the offers as one table, a row per offer, and the variants as a grid', async ({ page }) => {
          await page.goto(pathOf(record));
          // The scrolling region around a table carries its name.
          const table = page.getByRole('region', { name: /^Offers/ }).getByRole('table');
          await expect(table.locator('tbody tr')).toHaveCount(record.data.offers.length);
          await expect(table.getByRole('columnheader')).toContainText(['Provider', 'Size', 'Color', 'Price', 'Basis']);
          const first = record.data.offers[0]!;
          await expect(table.locator(`tr[id="offers-${first.id}"]`)).toContainText(
            money(first.base_amount_minor!, first.currency!, first.minor_unit_exponent ?? 2),
          );
          const grid = page.getByRole('region', { name: /^Variants/ }).getByRole('table');
          await expect(grid.locator('tbody tr')).toHaveCount(new Set(record.data.variants.map((v) => v.color_id)).size);
        });
      }

      test('opens a claim marker’s preview in place by keyboard and by click, and closes it again', async ({ page }) => {
        await page.goto(pathOf(record));
        // A single claim's marker: a run (`1–3`) opens a list of its claims (shopper-header.spec.ts).
        const marker = page.locator('.record-body p.text-block a.claim-ref').filter({ hasNotText: '–' }).first();
        const size = (await marker.boundingBox())!;
        expect(Math.min(size.width, size.height), 'a marker is a target of 24 × 24 px at least').toBeGreaterThanOrEqual(24);
        const preview = page.getByRole('dialog', { name: 'Claim preview' });
        await marker.focus();
        await page.keyboard.press('Enter');
        await expect(preview).toBeVisible();
        await expect(preview.locator('.claim-subject').first()).toContainText(/\S/);
        await expect(preview.locator('a.full-entry').first()).toBeFocused();
        await page.keyboard.press('Escape');
        await expect(preview).toBeHidden();
        await expect(marker).toBeFocused();
        await marker.click();
        await expect(preview).toBeVisible();
        await expect(preview).toBeInViewport();
      });
    });
  }
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  for (const { file, record } of sampleRecords()) {
    test(`${file}: a key fact's evidence lists its claims, each reaching its full entry`, async ({ page }) => {
      await page.goto(pathOf(record));
      const evidence = page.locator('#key-facts a.fact-evidence').first();
      const href = (await evidence.getAttribute('href'))!;
      await evidence.click();
      await expect(page).toHaveURL(new RegExp(`${href}$`));
      const list = page.locator(`[id="${href.slice(1)}"]`);
      await expect(list).toBeInViewport();
      const claim = list.locator('a.claim-number').first();
      const entry = (await claim.getAttribute('href'))!;
      await claim.click();
      await expect(page.locator(`[id="${entry.slice(1)}"]`)).toBeInViewport();
    });
  }
});

test.describe('the contents', () => {
  test.use({ viewport: VIEWPORTS.desktop });

  test('mark the part being read as the reader scrolls, one part at a time', async ({ page }) => {
    const { record } = sampleRecords()[0]!;
    await page.goto(pathOf(record));
    const current = page.locator('.contents a[aria-current="true"]');
    // Each part the contents list, brought to the top of the screen, becomes the one marked.
    const hrefs = await page.locator('.contents a[href^="#"]').evaluateAll((links) => links.map((a) => a.getAttribute('href')!));
    const evidence = hrefs.filter((href) => ['#research-gaps', '#data', '#claims', '#sources'].includes(href));
    expect(evidence.length, 'the sample page has evidence parts to read').toBeGreaterThanOrEqual(2);
    for (const href of [hrefs[1]!, ...evidence, hrefs[1]!]) {
      const atTop = await page.locator(`[id="${href.slice(1)}"]`).evaluate((part) => {
        part.scrollIntoView({ block: 'start', behavior: 'instant' });
        // At the top, less the page's scroll padding.
        return part.getBoundingClientRect().top <= Number.parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) + 2;
      });
      await expect(current, `reading ${href}`).toHaveCount(1);
      // A part near the page's end (the folded claims, sources) cannot reach the top: there the last part is the one marked.
      await expect(current).toHaveAttribute('href', atTop ? href : hrefs.at(-1)!);
    }
  });
});

test('a garment page shows the garment and the key facts of each record, with a link to each', async ({ page }) => {
  const { record } = sampleRecords()[0]!;
  await page.goto(`/garments/${record.slug}/`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  for (const { record: other } of sampleRecords().filter((s) => s.record.slug === record.slug)) {
    const section = page.locator(`section#${other.projection}-key-facts`);
    await expect(section).toBeVisible();
    await expect(
      page.getByRole('link', { name: `Read the ${other.projection === 'svc' ? 'Commerce' : 'Technical'} page` }),
    ).toHaveAttribute('href', pathOf(other));
  }
});

test('the header marks the section a page is in, and the breadcrumb names the garment as its h1 does', async ({ page }) => {
  const { record } = sampleRecords()[0]!;
  await page.goto(pathOf(record));
  await expect(page.locator('.site-nav a[aria-current]')).toHaveText('All garments');
  const h1 = (await page.getByRole('heading', { level: 1 }).locator('bdi').innerText()).trim();
  await expect(page.locator('.breadcrumb li').nth(1)).toHaveText(h1);
  await page.goto('/search/');
  await expect(page.locator('.site-nav a[aria-current="page"]')).toHaveText('Search');
});
