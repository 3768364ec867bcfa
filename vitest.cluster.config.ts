import { defineConfig } from 'vitest/config';

// `npm run test:cluster` (test/cluster/cluster.test.ts): one file, run alone, against the built dist/.
export default defineConfig({
  test: {
    include: ['test/cluster/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    maxWorkers: 1,
    minWorkers: 1,
    testTimeout: 600_000,
    hookTimeout: 180_000,
    reporters: ['default'],
  },
});
