import { z } from 'zod';
import { setting } from './setting.js';

export const operationSettings = {
  LOG_LEVEL: setting(
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    {
      description: 'The JSON log’s level (`info`: one line per answered request).',
    },
  ),
  METRICS_PORT: setting(z.coerce.number().int().min(1).max(65535).optional(), {
    description: 'Where `/metrics` is served (Prometheus text format), on `HOST`.',
    unset: 'not served',
  }),
  SHUTDOWN_DELAY_SECONDS: setting(z.coerce.number().min(0).max(300).default(5), {
    description:
      'A stop (SIGTERM/SIGINT) answers `/readyz` 503 at once and keeps serving this long before it refuses new work, so that a load balancer sees the instance leave first.',
  }),
  WEB_CONCURRENCY: setting(
    z.union([z.literal('auto'), z.coerce.number().int().min(1).max(256)]).default(1),
    {
      description:
        'Worker processes sharing `PORT`: a number, or `auto` (the CPUs available); above 1 needs `REDIS_URL`.',
    },
  ),
};
