import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts'],
    testTimeout: 30_000,
    // Vitest leaves one of two cores idle by default; most integration files wait on their child processes, so two at once finish in two thirds of the time.
    maxWorkers: 2,
    // Integration suites build a site before their tests; on a busy 2-core machine that can pass 10 s.
    hookTimeout: 60_000,
    // The PostgreSQL cluster first: its folder must sit in a /tmp the postgres user can enter.
    globalSetup: ['tests/support/postgres.ts', 'tests/support/temp-root.ts'],
  },
});
