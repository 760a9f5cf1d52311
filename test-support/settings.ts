/**
 * Where the harness finds its services, read from the environment here and nowhere else in the
 * harness (the product reads its own settings through src/server/config.ts).
 */
export const settings = {
  /** The PostgreSQL the harness makes its throw-away schemas and databases in. */
  postgresUrl: process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  /** The Redis of the fan-out, limit-store and multi-instance tests. */
  redisUrl: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
  /**
   * Workers of every server process the harness starts (WEB_CONCURRENCY): 1 unless a run asks for
   * more, to run the realtime, browser and fault suites against a cluster.
   */
  serverWorkers: Number(process.env.TEST_SERVER_WORKERS ?? '1'),
  /** Running in CI (`.ci/run` sets CI=true): a missing service fails the run, never skips it. */
  ci: process.env.CI === 'true' || process.env.CI === '1',
} as const;

/** The environment a server process starts with: this process's, then the overrides. */
export const serverEnvironment = (overrides: Record<string, string>): NodeJS.ProcessEnv => ({
  ...process.env,
  ...overrides,
});
