import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    restoreMocks: true,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: more workers only fight over them.
    maxWorkers: 2,
  },
});
