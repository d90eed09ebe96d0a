// The one accessibility check the browser tests run on a page as it is shown now.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/** An axe violation, with the first few elements it was found on. */
export interface AxeViolation {
  id: string;
  impact: string | null | undefined;
  help: string;
  nodes: string[];
}

/**
 * Every violation of any impact: axe's default rules plus WCAG 2.2 AA's target size, which axe
 * leaves off by default. Only violations are gathered: gathering the passes too took a quarter
 * of each run on a record page of thousands of elements.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  const results = await new AxeBuilder({ page })
    .options({ resultTypes: ['violations'], rules: { 'target-size': { enabled: true } } })
    .analyze();
  return results.violations.map((violation) => ({
    id: violation.id,
    impact: violation.impact,
    help: violation.help,
    nodes: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')),
  }));
}
