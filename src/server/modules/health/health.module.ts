import { redisForCommands } from '../../lib/redis.js';
import type { ModuleBasics } from '../module-basics.js';
import { createHealthRepository } from './health.repository.js';
import { createHealthService } from './health.service.js';

/** Readiness: the database, and Redis when REDIS_URL is set (asked without a queue while it connects). */
export const createHealthModule = ({ config, db }: ModuleBasics) =>
  createHealthService({
    db: db.kysely,
    repository: createHealthRepository(db),
    redis: config.redisUrl
      ? redisForCommands(config.redisUrl, `readiness:${config.pusher.appId}`, {
          queueWhileConnecting: false,
        })
      : undefined,
  });
