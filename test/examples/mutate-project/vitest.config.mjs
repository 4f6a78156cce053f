// The example project's own vitest configuration (not the svc-cli repository's): one worker,
// as a small project has, and no results cache: `svc-cli mutate --jobs 2` runs two at once.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['*.test.mjs'],
    pool: 'threads',
    maxWorkers: 1,
    minWorkers: 1,
    testTimeout: 30_000,
    cache: false,
  },
});
