// Issue 35, points 7 and 8: the tee's commerce page on a phone is at most half as tall as it was
// (67,241 px) with nothing removed, its long evidence folded and opened by any link into it; printed,
// it takes at most half its 35 A4 pages, no table is wider than the paper, and the permalink,
// revision and publication date come first.
import { expect, test } from './fixtures.ts';
import { sampleRecords } from './site.ts';

const VIEWPORTS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } };
const TEE = sampleRecords().find(({ record }) => record.slug === 'ridgeline-rk6210-heavyweight-tee' && record.projection === 'svc')!.record;
const TEE_PAGE = `/garments/${TEE.slug}/svc/`;
/** The phone height and printed pages of the tee's commerce page before issue 35. */
const PHONE_HEIGHT_BEFORE = 67_241;
const PRINTED_PAGES_BEFORE = 35;
/** A4's width less the page's print margins (10 mm each side), in CSS pixels. */
const PAPER_WIDTH = Math.floor(((210 - 20) / 25.4) * 96);

test("on a phone the tee's commerce page is at most half as tall as before, every claim and source still in it", async ({ page }) => {
  await page.setViewportSize(VIEWPORTS.phone);
  await page.goto(TEE_PAGE);
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  expect(height).toBeLessThanOrEqual(PHONE_HEIGHT_BEFORE / 2);
  await expect(page.locator('ol.claims > li.claim')).toHaveCount(TEE.claims.length);
  await expect(page.locator('ol.sources > li.source')).toHaveCount(TEE.sources.length);
  // Folded, not gone: the claims and sources parts say how many they hold, one click away.
  await expect(page.locator('#claims > details.fold > summary')).toHaveText(`Show all ${TEE.claims.length}`);
  await expect(page.locator('#claims li.claim').first()).toBeHidden();
});

for (const [name, viewport] of Object.entries(VIEWPORTS)) {
  test.describe(`folded evidence at ${name} width`, () => {
    test.use({ viewport });

    test('an address pointing into a folded part opens it on load', async ({ page }) => {
      const claim = TEE.claims.at(-1)!;
      await page.goto(`${TEE_PAGE}#claim-${claim.id}`);
      await expect(page.locator(`#claim-${claim.id}`)).toBeVisible();
      await expect(page.locator(`#claim-${claim.id}`)).toBeInViewport();
    });

    test('the contents, a changed #fragment and a link to the address already shown open the folds', async ({ page }) => {
      await page.goto(TEE_PAGE);
      const claims = page.locator('#claims > details.fold');
      const sources = page.locator('#sources > details.fold');
      await expect(claims).not.toHaveAttribute('open');
      // The contents: on a phone the list is at the top of the page.
      await page.locator('.contents a[href="#claims"]').click();
      await expect(claims).toHaveAttribute('open', '');
      await expect(page.locator('ol.claims > li.claim').first()).toBeVisible();
      // An address changed in place (hashchange).
      const source = TEE.sources.at(-1)!;
      await page.evaluate((id) => {
        location.hash = `#source-${id}`;
      }, source.id);
      await expect(sources).toHaveAttribute('open', '');
      await expect(page.locator(`#source-${source.id}`)).toBeInViewport();
      // A link into a fold the reader closed again, to the address already shown: the click opens it.
      await page.evaluate(() => {
        for (const fold of document.querySelectorAll('details.fold')) (fold as HTMLDetailsElement).open = false;
      });
      await page.locator('.contents a[href="#claims"]').click();
      await expect(claims).toHaveAttribute('open', '');
    });
  });
}

for (const [name, viewport] of Object.entries(VIEWPORTS)) {
  test.describe(`printed from ${name} width`, () => {
    test.use({ viewport });

    test(`the tee's commerce page prints on at most half its ${PRINTED_PAGES_BEFORE} A4 pages, every table within the paper`, async ({
      page,
    }) => {
      await page.goto(TEE_PAGE);
      await page.emulateMedia({ media: 'print' });
      const pdf = await page.pdf({ format: 'A4' });
      const pages = pdf.toString('latin1').match(/\/Type\s*\/Page(?!s)/g) ?? [];
      expect(pages.length).toBeGreaterThan(1);
      expect(pages.length).toBeLessThanOrEqual(PRINTED_PAGES_BEFORE / 2);

      // Laid out at the paper's width, every table and every cell stays within it (none scrolls, none is cut).
      await page.setViewportSize({ width: PAPER_WIDTH, height: 1000 });
      const tables = await page.evaluate((paper) => {
        const tables = [...document.querySelectorAll('main table')];
        return {
          count: tables.length,
          wider: tables
            .filter((table) => table.getBoundingClientRect().right > paper + 1 || table.scrollWidth > table.clientWidth + 1)
            .map((table) => table.closest('[id]')?.id),
        };
      }, PAPER_WIDTH);
      expect(tables.count).toBeGreaterThan(10);
      expect(tables.wider).toEqual([]);
      // Folded evidence prints: the last claim and source are on paper.
      await expect(page.locator('ol.claims > li.claim').last()).toBeVisible();
      await expect(page.locator('ol.sources > li.source').last()).toBeVisible();
    });

    test("on paper the size chart's link prints its address apart from its words, free to wrap", async ({ page }) => {
      await page.goto(TEE_PAGE);
      await page.emulateMedia({ media: 'print' });
      const link = page.locator('.key-facts .fact-link', { hasText: 'Size chart' });
      const printed = await link.evaluate((a: HTMLAnchorElement) => ({
        address: getComputedStyle(a, '::after').content,
        wraps: getComputedStyle(a).whiteSpace !== 'nowrap',
        href: a.href,
      }));
      // A no-break space: a plain one collapsed, and the paper read "Size chart<https://…>".
      expect(printed.address).toBe(`"\u00a0<${printed.href}>"`);
      expect(printed.wraps).toBe(true);
    });

    test("on paper a key fact's evidence is its claims' numbers, not a link, and a picture that failed prints nothing", async ({
      page,
    }) => {
      await page.goto(TEE_PAGE);
      // Outside addresses are blocked here: the tee's pictures fail, and their placeholders name it on screen.
      const placeholder = page.locator('.record-intro .image-placeholder');
      await expect(placeholder).toBeVisible();
      const evidence = page.locator('.key-facts .fact-evidence');
      await expect(evidence.first()).toBeVisible();
      const rows = await page
        .locator('.key-facts dt:has(.fact-evidence)')
        .evaluateAll((dts) => dts.map((dt) => dt.querySelector('.fact-evidence')!.getAttribute('data-claims')!.split(' ').map(Number)));
      await page.emulateMedia({ media: 'print' });
      await expect(placeholder).toBeHidden();
      await expect(page.locator('main .image-placeholder:visible')).toHaveCount(0);
      for (const link of await evidence.all()) await expect(link).toBeHidden();
      // Each row prints its claims' numbers as the page's markers do: runs of three or more as a range.
      const printed = page.locator('.key-facts dt .fact-evidence-print');
      await expect(printed).toHaveCount(rows.length);
      const runs = (numbers: number[]) => {
        const all: number[][] = [];
        for (const n of numbers) {
          if (all.at(-1)?.at(-1) === n - 1) all.at(-1)!.push(n);
          else all.push([n]);
        }
        return all
          .flatMap((run) => (run.length === 2 ? [[run[0]!], [run[1]!]] : [run]))
          .map((run) => (run.length === 1 ? `${run[0]}` : `${run[0]}–${run.at(-1)}`))
          .join(', ');
      };
      for (const [i, numbers] of rows.entries()) {
        await expect(printed.nth(i)).toBeVisible();
        expect(
          await printed
            .nth(i)
            .evaluate((span) => getComputedStyle(span, '::before').content + span.textContent + getComputedStyle(span, '::after').content),
        ).toBe(`"["${runs(numbers)}"]"`);
      }
      // The price's 27 claims print as one short line of numbers.
      expect(await printed.first().textContent()).toMatch(/^[\d, –]+$/);
    });

    test('a printed page starts with its permalink, revision and publication date, which the screen leaves to the citation', async ({
      page,
    }) => {
      await page.goto(TEE_PAGE);
      const head = page.locator('.print-head');
      await expect(head).toBeHidden();
      await page.emulateMedia({ media: 'print' });
      await expect(head).toBeVisible();
      const text = (await head.textContent()) ?? '';
      expect(text).toMatch(new RegExp(`Permalink: http\\S+/garments/${TEE.slug}/svc/revisions/\\d+\\.json`));
      expect(text).toContain(`record revision ${TEE.record_revision}`);
      expect(text).toMatch(/Published \w+ \d{1,2}, \d{4}/);
      // It comes before the title.
      const [headBox, titleBox] = [await head.boundingBox(), await page.locator('h1').boundingBox()];
      expect(headBox!.y).toBeLessThan(titleBox!.y);
    });
  });
}
