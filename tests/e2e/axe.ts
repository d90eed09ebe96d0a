// The one accessibility check the browser tests run on a page as it is shown now.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import type axe from 'axe-core';

/** An axe violation, with the first few elements it was found on. */
export interface AxeViolation {
  id: string;
  impact: string | null | undefined;
  help: string;
  nodes: string[];
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe's default rules plus WCAG 2.2 AA's target size, which axe leaves off by default. Only
 * violations are gathered: gathering the passes too took a quarter of each run on a record page of
 * thousands of elements.
 */
const OPTIONS: axe.RunOptions = { resultTypes: ['violations'], rules: { 'target-size': { enabled: true } } };

/**
 * Every violation of any impact on the page. axe runs in the page itself (`axe.run`): the pages
 * have no frames, and @axe-core/playwright's frame-by-frame run (`runPartial`, then `finishRun` in a
 * blank page) made the tee's commerce page's test take 21.8 s where it now takes 9 to 12.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated, not added as a script element: the dashboard's Content-Security-Policy allows no inline script.
  await page.evaluate(axeSource);
  const results = await page.evaluate((options) => (window as unknown as { axe: typeof axe }).axe.run(document, options), OPTIONS);
  return results.violations.map((violation) => ({
    id: violation.id,
    impact: violation.impact,
    help: violation.help,
    nodes: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')),
  }));
}
