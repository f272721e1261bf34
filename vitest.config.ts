import { defineConfig } from 'vitest/config';
import { integrationProject } from './vitest.shared.js';

export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.ts', 'bench', 'scripts/doctest', integrationProject()],
    reporters: ['default', './scripts/summary-reporter.ts'],
  },
});
