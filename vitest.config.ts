import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**', 'site/**'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
    globalSetup: ['test/global-setup.ts'],
  },
});
