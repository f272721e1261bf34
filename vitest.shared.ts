import { defineProject } from 'vitest/config';

/**
 * The vitest project of one workspace package: its tests sit beside the code in `src/`, and
 * workspace packages are resolved to their TypeScript sources (the `@partonfit/source` export
 * condition) so tests never wait on a build.
 */
export function packageProject(name: string) {
  return defineProject({
    resolve: { conditions: ['@partonfit/source', 'node', 'import', 'default'] },
    ssr: { resolve: { conditions: ['@partonfit/source', 'node', 'import', 'default'] } },
    test: {
      name,
      include: ['src/**/*.test.ts'],
      environment: 'node',
      testTimeout: 60_000,
    },
  });
}
