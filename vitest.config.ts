// Vitest projects, each runnable alone: `unit` (pure and in-process: no child process, no socket),
// `integration` (the built dist/ and the real server, Redis and nginx as processes) and `browser` (Chromium).
import { defineConfig } from 'vitest/config';

/** What the integration and browser projects share: the build under test made current once per run, files one at a time. */
const processes = {
  environment: 'node' as const,
  globalSetup: ['tests/helpers/global-setup.ts'],
  testTimeout: 60_000,
  hookTimeout: 180_000,
  fileParallelism: false,
};

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/helpers/unit-setup.ts'],
          setupFiles: ['tests/helpers/no-io.ts'],
        },
      },
      { test: { name: 'integration', include: ['tests/integration/**/*.test.ts'], ...processes } },
      { test: { name: 'browser', include: ['tests/browser/**/*.test.ts'], ...processes } },
    ],
  },
});
