import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { settings } from './test-support/settings.js';

/**
 * Projects:
 * - unit: fast server/shared tests without a database.
 * - api-sqlite / api-postgres: every `*.api.test.ts` runs once per database (fresh, migrated DB per file).
 * - realtime: live-channel tests over real sockets, PostgreSQL and Redis.
 * - web: React components in jsdom.
 * - e2e: the real server and Debian's Chromium through playwright-core.
 * - bench-smoke: every benchmark scenario once at a tiny size (no timing assertions).
 * - faults: crashes, outages, races, disconnects and attacks against real server processes.
 * - faults-waiting: the long disconnects of the fault suite (run beside `faults`, see `test:faults`).
 */
/**
 * The fault file that spends minutes waiting (pages offline for 3 minutes while a peer sends one
 * message every 10 s): a project of its own, so that `test:faults` can run it in a vitest process
 * beside the other fault files instead of after them (`fileParallelism: false` runs a project's
 * files one after another, and projects that disable it one after another too).
 */
const FAULTS_WAITING = 'faults/disconnects.faults.test.ts';
/**
 * The container check builds the image (minutes of CPU on a cold machine): a project of its own,
 * run beside the benchmark smoke test (which checks counts and shapes, never timings) and not beside
 * the fault suites, so that the build does not slow their timing-sensitive cases.
 */
const CONTAINER_CHECK = 'faults/container.faults.test.ts';

/**
 * The API projects' per-test limit: the default 5 s was hit on a loaded machine by tests that sign
 * in a dozen times (scrypt) and build two apps; a hang still fails, well inside the run's budget.
 */
const API_TEST_TIMEOUT_MS = 20_000;

export default defineConfig({
  plugins: [react()],
  test: {
    globals: true,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          include: ['src/server/**/*.test.ts', 'src/shared/**/*.test.ts', 'bench/lib/*.test.ts'],
          exclude: ['**/*.api.test.ts', '**/*.realtime.test.ts', '**/*.faults.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'api-sqlite',
          environment: 'node',
          include: ['src/**/*.api.test.ts'],
          provide: { database: 'sqlite' },
          // a call is milliseconds; scrypt sign-ins and fresh apps on a loaded 2-core machine are not
          testTimeout: API_TEST_TIMEOUT_MS,
        },
      },
      {
        extends: true,
        test: {
          name: 'api-postgres',
          environment: 'node',
          include: ['src/**/*.api.test.ts'],
          provide: { database: 'postgres' },
          // a call is milliseconds; scrypt sign-ins and fresh apps on a loaded 2-core machine are not
          testTimeout: API_TEST_TIMEOUT_MS,
        },
      },
      {
        extends: true,
        test: {
          name: 'realtime',
          environment: 'node',
          include: ['src/server/**/*.realtime.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['src/web/**/*.test.{ts,tsx}', 'src/embed/**/*.test.{ts,tsx}'],
          exclude: ['**/*.api.test.ts'],
          setupFiles: ['test-support/web/setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['e2e/**/*.e2e.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'bench-smoke',
          environment: 'node',
          include: ['bench/**/*.bench-smoke.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'faults',
          environment: 'node',
          include: ['faults/**/*.faults.test.ts'],
          exclude: [FAULTS_WAITING, CONTAINER_CHECK],
          testTimeout: 240_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // Servers of several workers (TEST_SERVER_WORKERS) are four processes or more each: a
          // file's concurrent tests two at a time, so that two cores start them in time.
          ...(settings.serverWorkers > 1 ? { maxConcurrency: 2 } : {}),
        },
      },
      {
        extends: true,
        test: {
          name: 'container',
          environment: 'node',
          include: [CONTAINER_CHECK],
          testTimeout: 1_500_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'faults-waiting',
          environment: 'node',
          include: [FAULTS_WAITING],
          testTimeout: 240_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
