import { defineProject } from 'vitest/config';

const conditions = ['@partonfit/source', 'node', 'import', 'default'];

/** The packages' TSDoc `@example` blocks, type-checked and run (doctest-style). */
export default defineProject({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    name: 'doctest',
    include: ['doctest.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
  },
});
