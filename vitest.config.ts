import react from '@vitejs/plugin-react';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

const cores = os.availableParallelism();

const alias = {
  '@common': path.resolve(import.meta.dirname, 'common'),
  '@web': path.resolve(import.meta.dirname, 'web'),
};

/**
 * Three projects: `unit` (no database; web components in jsdom), `integration` (a real PostgreSQL: the
 * embedded engine, or TEST_DATABASE_URL) and `e2e` (the built app in headless Chromium).
 */
export default defineConfig({
  test: {
    projects: [
      {
        plugins: [react()],
        resolve: { alias },
        test: {
          name: 'unit',
          include: ['common/**/*.test.ts', 'server/**/*.test.ts', 'web/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts', 'test/conformance/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
          environment: 'node',
          setupFiles: ['test/setup-unit.ts'],
          // jsdom renders of whole pages take seconds on a busy 2-core machine: the 5 s default failed
          // tests that pass, and no unit test waits on anything slower than its own work.
          testTimeout: 20_000,
          // One worker a core (vitest's default leaves one core free: on 2 cores the project took 5 min, 2 with two).
          maxWorkers: cores,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'integration',
          include: ['server/**/*.int.test.ts', 'test/**/*.int.test.ts', 'bench/**/*.int.test.ts'],
          environment: 'node',
          globalSetup: ['test/global-db.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
          // Each file has its own database, so files run side by side: one more worker than cores, as the
          // files wait on PostgreSQL and their peers about half of the time (measured: one worker left a
          // 2-core machine 48 % idle; three ran the project in 3m20 against 12m with one).
          maxWorkers: cores + 1,
          // Files share their worker's modules: importing the server's module graph took about half of
          // each file's time when every file loaded it afresh. Each file still has its own database and
          // app; test/setup-integration.ts resets the process-wide state an earlier file may leave.
          isolate: false,
          setupFiles: ['test/setup-integration.ts'],
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.test.ts'],
          environment: 'node',
          globalSetup: ['e2e/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // expect.poll waits on the browser and the server; its 1 s default is too short for a busy 2-core
          // machine (a page that answers in 1.2 s under load is not a failure of the journey).
          expect: { poll: { timeout: 15_000 } },
          pool: 'forks',
          // Each journey starts its own server (on a copy of one migrated data directory) and browser, so
          // journeys run side by side: one per core. A worker loads the harness once for its journeys.
          // One at a time they left half of a 2-core machine idle (waiting on the browser and the server).
          maxWorkers: cores,
          isolate: false,
        },
      },
    ],
  },
});
