import { chromium } from '@playwright/test';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu','--disable-background-networking','--disable-component-update','--disable-sync','--no-first-run'] });
const page = await browser.newPage();
await page.goto('http://127.0.0.1:4599/search/');
const out = await page.evaluate(async () => {
  const pf = await import('/pagefind/0/pagefind.js');
  const inst = pf.createInstance({ basePath: '/pagefind/0/' });
  const totals = await inst.filters();
  const cats = Object.keys(totals.category);
  const a = await inst.search(null, { filters: { category: [cats[0]] } });
  const b = await inst.search(null, { filters: {} }); const b2 = await inst.search("cotton", { filters: { category: { any: [cats[0]] }, projection: { any: ["Commerce", "Technical"] } } });
  const c = await inst.search(null, { filters: { category: { any: [cats[0], 'nope-unknown'] } } });
  return { totals: totals.category, proj: totals.projection, a: [a.results.length, a.filters.category], b: b && [b.results.length, b.filters], b2: [b2.results.length, b2.filters], c: c.results.length };
});
console.log(JSON.stringify(out, null, 1));
await browser.close();
