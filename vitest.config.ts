import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/*', 'bench'],
    reporters: ['default', './scripts/summary-reporter.ts'],
  },
});
