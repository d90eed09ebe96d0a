// The browser tests' `test`: the network is the site under test only, so pages never wait on
// outside images and nothing a record names is ever fetched.
import { test as base } from '@playwright/test';

export { expect } from '@playwright/test';

export const test = base.extend<{ siteOnly: undefined }>({
  siteOnly: [
    async ({ context, baseURL }, use) => {
      const origin = new URL(baseURL!).origin;
      await context.route(
        (url) => url.origin !== origin,
        (route) => route.abort('blockedbyclient'),
      );
      await use(undefined);
    },
    { auto: true },
  ],
});
