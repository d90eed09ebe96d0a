// The strict Content Security Policy a publisher may serve the site under (README, "What the site
// holds"), as the browser tests put the site under it.
import type { BrowserContext, Page } from '@playwright/test';

export const STRICT_POLICY =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src * data:; object-src 'none'; base-uri 'none'; form-action 'self'";

/** Every response of the site at `baseURL` carries the policy, as the publisher's server would send it. */
export async function serveUnderStrictPolicy(context: BrowserContext, baseURL: string): Promise<void> {
  const origin = new URL(baseURL).origin;
  await context.route(
    (url) => url.origin === origin,
    async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': STRICT_POLICY } });
    },
  );
}

/** Takes the policy off: a request still in flight when a test ends (Pagefind fetches ahead) must not fail the run. */
export async function stopStrictPolicy(context: BrowserContext): Promise<void> {
  await context.unrouteAll({ behavior: 'ignoreErrors' });
}

/** The policy violations the browser reports on a page from now on. */
export function watchForViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}
