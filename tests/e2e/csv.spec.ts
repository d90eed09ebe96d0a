// Issue 35, point 5: every table of a record page has a CSV beside it, listed with the twins, whose
// rows are the table's rows as a CSV parser reads them; /records.csv lists the site's records.
import type { Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import type { GarmentRecord } from '../../src/lib/record/types.ts';
import { expect, test } from './fixtures.ts';
import { builtRecords } from './site.ts';

const VIEWPORTS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } };
const pathOf = (record: GarmentRecord) => `/garments/${record.slug}/${record.projection}/`;
/** A field a spreadsheet would run as a formula, unless it starts with the guard's quote. */
const FORMULA = /^[=+\-@\t\r]/;

/** Each table of the page with its CSV link: the link, the header cells' text and the body rows' cells' text, as a reader sees them. */
function pageTables(page: Page) {
  return page.evaluate(() => {
    const text = (cell: Element) => {
      const copy = cell.cloneNode(true) as Element;
      // Markers inside a cell point to claims; the CSV keeps the values (a claims column keeps its numbers).
      for (const hidden of copy.querySelectorAll('.claim-refs--marker, .visually-hidden')) hidden.remove();
      const shown = (copy.textContent ?? '').replace(/\s+/g, ' ').trim();
      return shown === '–' ? '' : shown;
    };
    return [...document.querySelectorAll('.table-scroll + .table-csv a')].map((link) => {
      const table = link.closest('.table-csv')!.previousElementSibling!.querySelector('table')!;
      return {
        href: link.getAttribute('href')!,
        name: link.textContent!,
        header: [...table.querySelectorAll('thead th')].map(text),
        rows: [...table.querySelectorAll('tbody tr')].map((row) => [...row.querySelectorAll('th, td')].map(text)),
      };
    });
  });
}

/** A CSV file's rows as a CSV parser reads them (strict RFC 4180 quoting, CRLF rows). */
function csvRows(text: string): string[][] {
  return parse(text, { record_delimiter: '\r\n', relax_quotes: false, relax_column_count: false });
}

for (const [width, viewport] of Object.entries(VIEWPORTS)) {
  test.describe(`tables as CSV at ${width} width`, () => {
    test.use({ viewport });

    for (const { file, record } of builtRecords()) {
      test(`every table of ${file} has a CSV with the table's header and rows, listed with the twins`, async ({ page }) => {
        await page.goto(pathOf(record));
        const tables = await pageTables(page);
        expect(tables.length, 'the page has tables').toBeGreaterThan(0);
        // The list beside the JSON and Markdown links names every table's CSV, in the page's order.
        const listed = await page
          .locator('.twin-downloads .csv-downloads a')
          .evaluateAll((links) => links.map((link) => link.getAttribute('href')));
        expect(listed).toEqual(tables.map((table) => table.href));
        await expect(page.locator('.twin-downloads .csv-downloads summary')).toHaveText(
          `CSV (${tables.length} table${tables.length === 1 ? '' : 's'})`,
        );
        for (const table of tables) {
          const response = await page.request.get(table.href);
          expect(response.status(), table.href).toBe(200);
          const bytes = await response.body();
          // UTF-8, no byte order mark, every record ended by CRLF.
          expect(bytes.subarray(0, 3).toString('hex')).not.toBe('efbbbf');
          const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
          expect(text.endsWith('\r\n'), table.href).toBe(true);
          const [header, ...rows] = csvRows(text);
          for (const row of [header!, ...rows])
            for (const field of row) expect(FORMULA.test(field) && !/^-?\d+(\.\d+)?$/.test(field), `${table.href}: ${field}`).toBe(false);
          // The guard's quote undone, and whitespace as the page shows it: the table's own cells.
          const shown = (field: string) =>
            field
              .replace(/^'(?=[=+\-@\t\r])/, '')
              .replace(/\s+/g, ' ')
              .trim();
          expect(header!.map(shown), `${table.name}: header`).toEqual(table.header);
          expect(
            rows.map((row) => row.map(shown)),
            `${table.name}: rows`,
          ).toEqual(table.rows);
        }
      });
    }

    test('/records.csv lists every record of records.json, with its addresses', async ({ page }) => {
      const response = await page.request.get('/records.csv');
      expect(response.headers()['content-type']).toMatch(/^text\/csv; charset=utf-8/);
      const [header, ...rows] = csvRows(await response.text());
      const index = (await (await page.request.get('/records.json')).json()) as {
        records: { slug: string; projection: string; title: string; links: { page: string } }[];
      };
      expect(header).toEqual([
        'slug',
        'projection',
        'title',
        'category',
        'brand',
        'record_revision',
        'published_at',
        'research_status',
        'page',
        'json',
        'markdown',
      ]);
      expect(rows.map((row) => [row[0], row[1], row[8]])).toEqual(
        index.records.map((entry) => [entry.slug, entry.projection, entry.links.page]),
      );
      // Titles as records.json has them, but for the characters a page cannot show either (U+FFFD in both).
      const shown = (title: string) =>
        title.replace(/[\u0000-\u0008\u000B\u000E-\u001F\u007F-\u009F\p{Noncharacter_Code_Point}]/gu, '\uFFFD');
      expect(rows.map((row) => row[2]!.replace(/^'(?=[=+\-@\t\r])/, ''))).toEqual(index.records.map((entry) => shown(entry.title)));
      // The docs say how fields a spreadsheet would run are guarded.
      await page.goto('/docs/api/');
      await expect(page.locator('section[aria-labelledby="csv"]')).toContainText('OWASP');
    });
  });
}
