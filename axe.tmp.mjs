import { chromium } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const paths = ['/garments/hostile-tee/', '/garments/hostile-tee/tech/', '/garments/hostile-tee/svc/', '/garments/fieldline-fl300-twill-work-jacket/tech/', '/garments/harbor-pike-hp450-fleece-pullover-hoodie/svc/', '/search/?q=tee', '/'];
for (const colorScheme of ['light', 'dark']) for (const width of [1280, 320]) {
  const context = await browser.newContext({ colorScheme, viewport: { width, height: 800 } });
  const page = await context.newPage();
  for (const p of paths) {
    await page.goto('http://localhost:4398' + p);
    if (p.startsWith('/search')) await page.waitForTimeout(1500);
    const r = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']).analyze();
    if (r.violations.length) console.log(colorScheme, width, p, r.violations.map((v) => `${v.id}(${v.impact}) ${v.nodes.length}: ${v.nodes[0].target.join(' ')}`));
  }
  await context.close();
}
await browser.close(); console.log('done');
