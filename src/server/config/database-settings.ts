import { z } from 'zod';
import { setting } from './setting.js';

export const databaseSettings = {
  DATABASE_URL: setting(
    z
      .string()
      .regex(/^(sqlite:|postgres:\/\/|postgresql:\/\/)/, 'must start with sqlite: or postgres://')
      .default('sqlite:./data/messenger.db'),
    {
      description:
        '`sqlite:<file>` (`sqlite::memory:` for a throw-away one) or `postgres://user:pass@host:port/db`.',
      secret: true,
    },
  ),
  DATABASE_POOL_SIZE: setting(z.coerce.number().int().min(1).max(1000).default(10), {
    description: 'PostgreSQL connections of each process’s request pool (each worker has its own).',
  }),
  DEMO_SEED: setting(z.enum(['on', 'off', 'auto', 'true', 'false', '1', '0']).default('auto'), {
    description:
      'The demo accounts: `auto` seeds them only into an empty database and never in production; `on` always (with a warning in production); `off` never.',
  }),
};
