import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts'],
    testTimeout: 30_000,
    // Integration suites build a site before their tests; on a busy 2-core machine that can pass 10 s.
    hookTimeout: 60_000,
    // The PostgreSQL cluster first: its folder must sit in a /tmp the postgres user can enter.
    globalSetup: ['tests/support/postgres.ts', 'tests/support/temp-root.ts'],
  },
});
