import { defineConfig } from 'vitest/config';

// `npm run test:docker`: deploy/compose.yaml against a Docker daemon (test/docker/compose.docker.ts).
// Apart from the suite: it needs the daemon, builds an image and runs for minutes.
export default defineConfig({
  test: {
    include: ['test/docker/**/*.docker.ts'],
    environment: 'node',
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 20 * 60_000,
    hookTimeout: 50 * 60_000,
    reporters: ['verbose'],
  },
});
