// Issue 35, point 6: /compare/?g=<slug>&g=<slug> puts garments side by side from their JSON twins;
// without JavaScript it says how to compare and links the garments; each garment page links to it.
import type { Page } from '@playwright/test';
import type { CommerceRecord } from '../../src/lib/record/types.ts';
import { expect, test } from './fixtures.ts';
import { watchForScripts } from './script-watch.ts';
import { builtRecords, sampleRecords } from './site.ts';

const VIEWPORTS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } };
const samples = sampleRecords().map(({ record }) => record);
const commerce = (slug: string) => samples.find((record) => record.slug === slug && record.projection === 'svc') as CommerceRecord;
const TEE = 'ridgeline-rk6210-heavyweight-tee';
const HOODIE = 'harbor-pike-hp450-fleece-pullover-hoodie';
const JACKET = 'fieldline-fl300-twill-work-jacket';

/** The comparison as a reader sees it: the garments' names, and each row's label and cells. */
async function comparison(page: Page) {
  await page.locator('.compare-table').waitFor();
  return page.evaluate(() => {
    const text = (element: Element) => (element.textContent ?? '').replace(/\s+/g, ' ').trim();
    const table = document.querySelector('.compare-table')!;
    return {
      names: [...table.querySelectorAll('thead .compare-name')].map(text),
      rows: Object.fromEntries(
        [...table.querySelectorAll('tbody tr')].map((row) => [text(row.querySelector('th')!), [...row.querySelectorAll('td')].map(text)]),
      ),
    };
  });
}

/** The h1 of a garment's page: the name the comparison must use. */
async function garmentName(page: Page, slug: string): Promise<string> {
  await page.goto(`/garments/${slug}/`);
  return (await page.locator('h1').textContent())!.trim();
}

for (const [name, viewport] of Object.entries(VIEWPORTS)) {
  test.describe(`compare at ${name} width`, () => {
    test.use({ viewport });

    test("shows two garments' facts side by side, read from their records", async ({ page }) => {
      const names = [await garmentName(page, TEE), await garmentName(page, HOODIE)];
      await page.goto(`/compare/?g=${TEE}&g=${HOODIE}`);
      const shown = await comparison(page);
      expect(shown.names).toEqual(names);
      const [tee, hoodie] = [commerce(TEE), commerce(HOODIE)];
      expect(shown.rows.Brand).toEqual([tee.data.identity.brand, hoodie.data.identity.brand]);
      expect(shown.rows.Sizes).toEqual([tee, hoodie].map((record) => record.data.size_ranges[0]!.labels!.join(', ')));
      expect(shown.rows.Colours).toEqual(
        [tee, hoodie].map((record) => record.data.colors.map((color) => color.manufacturer_name).join(', ')),
      );
      // Each price is the lowest public price among the garment's offers.
      const lowest = (record: CommerceRecord) =>
        Math.min(
          ...record.data.offers.filter((offer) => offer.price_basis === 'standard_public').map((offer) => offer.base_amount_minor!),
        ) / 100;
      expect(shown.rows['Price from']!.map((cell) => cell.split(' ')[0])).toEqual([
        `$${lowest(tee).toFixed(2)}`,
        `$${lowest(hoodie).toFixed(2)}`,
      ]);
      // Measurements: a row per point of measure, a dash where a garment has none.
      expect(shown.rows['Chest width flat (in)']![0]).toMatch(/^S: [\d.]+ · M: /);
      expect(Object.values(shown.rows).some((cells) => cells.includes('–'))).toBe(true);
      // The garments' columns sit side by side in the table (on a phone it scrolls sideways in its frame).
      const heads = page.locator('.compare-table thead th[scope="col"]');
      const [first, second] = [await heads.nth(1).boundingBox(), await heads.nth(2).boundingBox()];
      expect(second!.x).toBeGreaterThan(first!.x);
      expect(second!.y).toBe(first!.y);
      await expect(page.locator('[data-compare-static]')).toBeHidden();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    });

    test("a garment page's Compare link adds that garment to those being compared", async ({ page }) => {
      await page.goto(`/garments/${TEE}/`);
      await page.getByRole('link', { name: 'Compare with other garments' }).click();
      await expect(page).toHaveURL(new RegExp(`/compare/\\?g=${TEE}$`));
      await expect(page.locator('.compare-notes')).toContainText('Add another garment');
      await page.goto(`/garments/${HOODIE}/svc/`);
      await page.getByRole('link', { name: 'Compare with other garments' }).click();
      await expect(page).toHaveURL(new RegExp(`/compare/\\?g=${TEE}&g=${HOODIE}$`));
      expect((await comparison(page)).names).toHaveLength(2);
      // Remove takes one out.
      await page.getByRole('link', { name: /^Remove: Ridgeline/ }).click();
      await expect(page).toHaveURL(new RegExp(`/compare/\\?g=${HOODIE}$`));
      expect((await comparison(page)).names).toHaveLength(1);
    });
  });
}

for (const [name, viewport] of Object.entries(VIEWPORTS)) {
  test.describe(`doubt and fit at ${name} width`, () => {
    test.use({ viewport });

    test('a fact whose sources disagree says so, as on the garment page; one backed only by unverified claims says that', async ({
      page,
    }) => {
      // The tee's lowest price, its claims marked unverified in the twin the page reads.
      const tee = commerce(TEE);
      const unverified = JSON.parse(JSON.stringify(tee)) as CommerceRecord;
      for (const claim of unverified.claims) claim.verification = 'not_verified';
      await page.route(`**/garments/${TEE}/svc.json`, (route) => route.fulfill({ json: unverified }));
      await page.goto(`/compare/?g=${TEE}&g=${HOODIE}&g=${JACKET}`);
      const shown = await comparison(page);
      const [, hoodieWeights, jacketWeights] = shown.rows['Fabric weight']!;
      expect(hoodieWeights).toContain('9 oz/yd² (305 g/m²) (sources disagree: 9 or 8.5 oz/yd²)');
      expect(jacketWeights).not.toContain('disagree');
      // The jacket's lining, which its sources disagree on, is named with the disagreement though its fibres are not stated.
      expect(shown.rows.Fabric![2]).toContain(
        'Body lining (sources disagree: line_sheet: unlined; listing_photo_5: quilted lining visible)',
      );
      expect(shown.rows['Price from']![0]).toMatch(/\(not verified\)$/);
      expect(shown.rows['Price from']![1]).not.toContain('verified');
    });

    test('fits the screen: two garments side by side in view, more scrolling inside their own box, which the keyboard scrolls', async ({
      page,
    }) => {
      await page.goto(`/compare/?g=${TEE}&g=${HOODIE}`);
      await comparison(page);
      const cells = page.locator('.compare-table tr[data-row="weight"] td');
      const [tee, hoodie] = [(await cells.nth(0).boundingBox())!, (await cells.nth(1).boundingBox())!];
      expect(hoodie.y).toBe(tee.y);
      expect(hoodie.x).toBeGreaterThanOrEqual(tee.x + tee.width);
      expect(hoodie.x + hoodie.width).toBeLessThanOrEqual(viewport.width);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

      await page.goto(`/compare/?g=${TEE}&g=${HOODIE}&g=${JACKET}&g=hostile-tee`);
      await comparison(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      const box = page.getByRole('region', { name: 'The garments compared' });
      const wider = await box.evaluate((element) => element.scrollWidth > element.clientWidth);
      // On a phone four garments are wider than the screen: their box scrolls, from the keyboard too.
      if (name === 'phone') expect(wider).toBe(true);
      if (wider) {
        await box.focus();
        await expect(box).toBeFocused();
        await page.keyboard.press('ArrowRight');
        await expect.poll(() => box.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
      }
      expect(await page.evaluate(() => [window.scrollX, document.documentElement.scrollWidth])).toEqual([0, viewport.width]);
    });
  });
}

test('says what it left out: a garment the site does not have, one asked twice, a value that is no slug, a fifth garment', async ({
  page,
}) => {
  await page.goto(`/compare/?g=${TEE}&g=no-such-garment&g=${TEE}&g=..%2Fetc&g=${HOODIE}&g=${JACKET}&g=hostile-tee`);
  const shown = await comparison(page);
  expect(shown.names).toHaveLength(3);
  const notes = page.locator('.compare-notes');
  await expect(notes).toContainText('No garment named no-such-garment on this site.');
  await expect(notes).toContainText(`shown once: ${TEE}.`);
  await expect(notes).toContainText('Not a garment’s name, left out: ../etc.');
  await expect(notes).toContainText('At most four garments side by side; left out: hostile-tee.');
});

test("a hostile record's text is shown as text, and runs nothing", async ({ page }) => {
  const hostile = builtRecords().find(({ record }) => record.slug === 'hostile-tee' && record.projection === 'svc')!.record;
  const { dialogs, errors } = watchForScripts(page);
  await page.goto(`/compare/?g=hostile-tee&g=${TEE}`);
  const shown = await comparison(page);
  // As its pages show it: the characters HTML forbids (here U+0001, U+007F, U+0085, U+FDD0, U+FFFF, U+1FFFE, U+10FFFF) each as U+FFFD.
  const brand = hostile.data.identity.brand!.replace(/[\0-\x08\x0B\x0E-\x1F\x7F-\x9F\p{Noncharacter_Code_Point}]/gu, '\uFFFD');
  expect(brand).toContain('\uFFFD'.repeat(7));
  expect(shown.rows.Brand![0]).toBe(brand.trim().replace(/\s+/g, ' '));
  const tags = await page
    .locator('.compare-table')
    .evaluate((table) => [...new Set([...table.querySelectorAll('*')].map((element) => element.tagName.toLowerCase()))]);
  expect(tags.filter((tag) => !['thead', 'tbody', 'tr', 'th', 'td', 'p', 'a', 'span'].includes(tag))).toEqual([]);
  const links = await page.locator('.compare-table a').evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href')!));
  expect(links.filter((href) => !href.startsWith('/'))).toEqual([]);
  // Its long words break inside their cells rather than running under the next garment's.
  const overflowing = await page
    .locator('.compare-table :is(th, td)')
    .evaluateAll((cells) => cells.filter((cell) => cell.scrollWidth > cell.clientWidth + 1).map((cell) => cell.textContent!.slice(0, 40)));
  expect(overflowing).toEqual([]);
  expect(dialogs).toEqual([]);
  expect(errors).toEqual([]);
});

for (const [name, viewport] of Object.entries(VIEWPORTS)) {
  test.describe(`without JavaScript at ${name} width`, () => {
    test.use({ javaScriptEnabled: false, viewport });

    test('says how to compare and links every garment', async ({ page }) => {
      await page.goto(`/compare/?g=${TEE}&g=${HOODIE}`);
      await expect(page.locator('[data-compare-static]')).toContainText('needs JavaScript');
      await expect(page.locator('[data-compare-static]')).toBeInViewport({ ratio: 0.1 });
      const slugs = [...new Set(builtRecords().map(({ record }) => record.slug))];
      const links = await page.locator('.compare-garments a').evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href')));
      expect(links.sort()).toEqual(slugs.map((slug) => `/garments/${slug}/`).sort());
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    });
  });
}
