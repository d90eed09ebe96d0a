import { axeViolations } from './axe.ts';
import { expect, test } from './fixtures.ts';

// The tee's commerce record has an earlier revision in records/.revisions/.
const record = '/garments/ridgeline-rk6210-heavyweight-tee/svc';
const pages = { 'the history': `${record}/revisions/`, 'what revision 2 changed': `${record}/revisions/2/` };

for (const [width, height] of [
  [390, 844],
  [1280, 800],
] as const) {
  // axe runs its checks as a script in the page, so these run with JavaScript on; the pages use none.
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height } });

    for (const [name, path] of Object.entries(pages)) {
      test(`${name} has no accessibility violations and does not scroll sideways`, async ({ page }) => {
        // axe checks the contrast of every text node, slowly on a loaded machine.
        test.setTimeout(180_000);
        await page.goto(path);
        expect(await axeViolations(page)).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      });
    }
  });

  test.describe(`at ${width} px, without JavaScript`, () => {
    test.use({ viewport: { width, height }, javaScriptEnabled: false });

    test('the history lists both revisions newest first and leads to each one’s changes and JSON', async ({ page }) => {
      await page.goto(`${record}/revisions/`);
      await expect(page.getByRole('heading', { level: 2 })).toHaveText([/Revision 2/, /Revision 1/]);
      await expect(page.locator('.revision-item').first()).toContainText('1 text block reworded');
      await page.getByRole('link', { name: 'Revision 2', exact: true }).click();
      await expect(page).toHaveURL(/\/revisions\/2\/$/);
      await expect(page.getByRole('heading', { level: 1 })).toContainText('Revision 2');
      const json = await page.request.get(`${record}/revisions/1.json`);
      expect((await json.json()).record_revision).toBe('2026-11-02.1');
    });

    test('what revision 2 changed reads as words: the reworded sentence, the price before and after, the status', async ({ page }) => {
      await page.goto(`${record}/revisions/2/`);
      const sentence = page.locator('.revision-text', { hasText: 'Standard US shipping' });
      await expect(sentence.locator('del').first()).toHaveText('[removed: $4.50 ]');
      await expect(sentence.locator('ins').first()).toHaveText('[added: $4.75 ]');
      const price = page.locator('.revision-fact', { hasText: 'Price' });
      await expect(price.locator('.revision-side--before')).toContainText('From $11.95 at Carolina Print Co.');
      await expect(price.locator('.revision-side--after')).toContainText('From $11.42 at Carolina Print Co.');
      await expect(page.locator('#changed-status + .revision-fact')).toContainText(/In progress.*Complete/s);
    });

    test('what revision 2 changed says a claimed price as the page says it, not in minor units', async ({ page }) => {
      await page.goto(`${record}/revisions/2/`);
      const claims = page.getByRole('region', { name: 'Claims' });
      const start = claims.getByRole('listitem').filter({ hasText: 'clm-podtwo-start' });
      await expect(start.locator('del')).toHaveText('$11.95 (Checked against source)');
      await expect(start.locator('ins')).toHaveText('$11.42 (Checked against source)');
      await expect(claims.getByRole('listitem').filter({ hasText: 'clm-ship-standard' }).locator('ins')).toHaveText(
        'First item: $4.75; Each additional item: $2.40 (Checked against source)',
      );
      await expect(claims).not.toContainText('minor units');
    });
  });
}

test('a record page says which revision it shows, links its history, and cites the revision’s permalink', async ({ page }) => {
  await page.goto(`${record}/`);
  await expect(page.locator('.record-revision')).toContainText('Revision 2 of 2');
  await page.locator('.record-revision a').click();
  await expect(page).toHaveURL(/\/svc\/revisions\/$/);
  await page.goBack();
  await page.locator('details.cite summary').click();
  await expect(page.locator('.cite-text').first()).toContainText('/garments/ridgeline-rk6210-heavyweight-tee/svc/revisions/2.json');
  await expect(page.locator('.cite-text').nth(1)).toContainText('author = {{garment-press}}');
});
