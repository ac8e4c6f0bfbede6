import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The default reporter only counts skips; this one also lists them, with the reason their names carry.
    reporters: ['default', './test/support/skip-reporter.ts'],
    restoreMocks: true,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: more workers only fight over them.
    maxWorkers: 2,
  },
});
