import type { Kysely } from 'kysely';
import type { Redis } from 'ioredis';
import type { Database } from '../../db/schema.js';
import type { HealthRepository } from './health.repository.js';

/** A dependency that does not answer within this long counts as down. */
export const READINESS_TIMEOUT_MS = 1000;

export type CheckResult = 'ok' | 'error' | 'off';

export interface Readiness {
  status: 'ready' | 'draining' | 'unavailable';
  checks: { database: CheckResult; redis: CheckResult };
}

export interface HealthServiceOptions {
  db: Kysely<Database>;
  repository: HealthRepository;
  /** The connection readiness pings (undefined: no REDIS_URL, so Redis is `off`). */
  redis?: Pick<Redis, 'ping' | 'quit'> | undefined;
}

const within = async (work: Promise<unknown>): Promise<CheckResult> => {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'error'>((resolve) => {
    timer = setTimeout(() => resolve('error'), READINESS_TIMEOUT_MS);
  });
  try {
    return await Promise.race([work.then((): CheckResult => 'ok'), late]);
  } catch {
    return 'error';
  } finally {
    clearTimeout(timer);
  }
};

/**
 * Liveness and readiness for a load balancer or an orchestrator: ready while the database (and Redis,
 * when configured) answer within a second; draining from the first moment of a stop, whatever they say.
 */
export const createHealthService = ({ db, repository, redis }: HealthServiceOptions) => {
  let draining = false;
  return {
    /** A stop began: readiness answers `draining` from now on. */
    beginDraining() {
      draining = true;
    },
    get draining() {
      return draining;
    },
    async readiness(): Promise<Readiness> {
      const [database, redisCheck] = await Promise.all([
        within(repository.ping(db)),
        redis ? within(redis.ping()) : Promise.resolve<CheckResult>('off'),
      ]);
      const checks = { database, redis: redisCheck };
      if (draining) return { status: 'draining', checks };
      const up = database === 'ok' && redisCheck !== 'error';
      return { status: up ? 'ready' : 'unavailable', checks };
    },
    async close() {
      await redis?.quit().catch(() => undefined);
    },
  };
};

export type HealthService = ReturnType<typeof createHealthService>;
