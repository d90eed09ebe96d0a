import { expect, test } from './fixtures.ts';
import { builtRecords } from './site.ts';

/** Each garment's title as the site lists it: the first projection's title. */
function garments(): Map<string, string[]> {
  const bySlug = new Map<string, string[]>();
  for (const { record } of builtRecords()) bySlug.set(record.slug, [...(bySlug.get(record.slug) ?? []), record.projection]);
  return bySlug;
}

test('the index lists every garment once, with a link to each of its projections', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Garments' })).toBeVisible();
  for (const [slug, projections] of garments()) {
    await expect(page.locator(`a[href="/garments/${slug}/"]`), slug).toHaveCount(1);
    for (const projection of projections)
      await expect(page.locator(`a[href="/garments/${slug}/${projection}/"]`), `${slug}/${projection}`).toHaveCount(1);
  }
  await expect(page.locator('li.garment')).toHaveCount(garments().size);
});

test('every garment shows its research status in words', async ({ page }) => {
  await page.goto('/');
  const badges = page.locator('li.garment .badge');
  await expect(badges).toHaveCount(builtRecords().length);
  for (const text of await badges.allInnerTexts()) expect(text).toMatch(/Complete|In progress|Identity unresolved|Incomplete/);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the projection filter narrows the list to garments with that projection, and can be undone', async ({ page }) => {
    const all = garments();
    const withTech = [...all].filter(([, projections]) => projections.includes('tech')).map(([slug]) => slug);
    await page.goto('/');
    await page
      .getByRole('navigation', { name: 'Narrow the list' })
      .getByRole('link', { name: /^Technical/ })
      .click();
    await expect(page).toHaveURL(/#only-tech$/);
    for (const [slug] of all) {
      const card = page.locator(`li.garment:has(a[href="/garments/${slug}/"])`);
      if (withTech.includes(slug)) await expect(card, slug).toBeVisible();
      else await expect(card, slug).toBeHidden();
    }
    await page.getByRole('link', { name: 'Show all garments' }).click();
    await expect(page.locator('li.garment:visible')).toHaveCount(all.size);
  });

  test('the category filter shows only that category', async ({ page }) => {
    await page.goto('/');
    const categories = page.getByRole('navigation', { name: 'Narrow the list' }).locator('a[href^="#category-"]');
    const first = categories.first();
    const target = (await first.getAttribute('href'))!.slice(1);
    await first.click();
    await expect(page.locator(`section.category-group[id="${target}"]`)).toBeVisible();
    await expect(page.locator('section.category-group:visible')).toHaveCount(1);
  });

  test('the status filter shows only garments with a record of that status', async ({ page }) => {
    await page.goto('/');
    await page
      .getByRole('navigation', { name: 'Narrow the list' })
      .getByRole('link', { name: /^Complete \(/ })
      .click();
    await expect(page).toHaveURL(/#status-complete$/);
    const statuses = await page.locator('li.garment:visible').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-statuses')!));
    expect(statuses.length).toBeGreaterThan(0);
    for (const status of statuses) expect(status.split(' ')).toContain('complete');
  });
});
