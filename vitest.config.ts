import os from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    // One worker per core: vitest's default leaves one core idle (cores - 1),
    // which on CI's 2 cores ran every file on one (stop 25: 16.5 min, against
    // the 20-minute limit).
    maxWorkers: Math.max(1, os.availableParallelism()),
    testTimeout: 120_000,
    hookTimeout: 60_000,
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: process.env.CI ? { json: 'out/vitest.json' } : undefined,
  },
});
