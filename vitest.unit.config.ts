import { defineConfig } from 'vitest/config';

/**
 * The fast tier (`npm run test:unit`): the pure tests under test/unit, with no external process
 * (no Redis, no simulator, no browser), so it runs in seconds on every change. `npm test` runs
 * these and everything else.
 */
export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts'],
    testTimeout: 30_000,
    pool: 'threads',
    setupFiles: ['test/helpers/leak-guard.ts'],
  },
});
