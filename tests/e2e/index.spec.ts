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
  for (const text of await badges.allInnerTexts()) expect(text).toMatch(/Complete|In progress|Model not confirmed|Incomplete/);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the projection and status links lead to the search narrowed so, counting every garment', async ({ page }) => {
    const all = garments();
    await page.goto('/');
    const narrowing = page.locator('details.filters');
    await narrowing.locator('summary').click();
    const technical = narrowing.getByRole('link', { name: /^Technical/ });
    await expect(technical).toHaveAttribute('href', '/search/?projection=Technical');
    await expect(technical).toHaveText(`Technical (${[...all.values()].filter((projections) => projections.includes('tech')).length})`);
    const complete = narrowing.getByRole('link', { name: /^Complete \(/ });
    await expect(complete).toHaveAttribute('href', '/search/?status=Complete');
    const completeGarments = new Set(
      builtRecords()
        .filter(({ record }) => record.research.status === 'complete')
        .map(({ record }) => record.slug),
    );
    await expect(complete).toHaveText(`Complete (${completeGarments.size})`);
  });

  test('the category filter shows only that category', async ({ page }) => {
    await page.goto('/');
    const categories = page.getByRole('navigation', { name: 'Categories' }).locator('a[href^="#category-"]');
    const first = categories.first();
    const target = (await first.getAttribute('href'))!.slice(1);
    await first.click();
    await expect(page.locator(`section.category-group[id="${target}"]`)).toBeVisible();
    await expect(page.locator('section.category-group:visible')).toHaveCount(1);
  });
});
