import { z } from 'zod';
import { setting } from './setting.js';

export const liveEventSettings = {
  REDIS_URL: setting(z.string().optional(), {
    description:
      'One Redis (`redis://host:6379`) that several instances or workers share live events, presence, limits and sign-ins through.',
    unset: 'off: one instance on its own',
    secret: true,
  }),
  REALTIME_ROUTING: setting(z.enum(['per-user', 'broadcast']).default('per-user'), {
    description:
      'With Redis: a live event goes only to the instances holding its user (`per-user`), or to all (`broadcast`).',
  }),
  REALTIME_REDIS_URL: setting(z.string().optional(), {
    description:
      'The Redis of the live events’ fan-out; may be a Redis Cluster, `redis-cluster://host:port,…`. Needs `REDIS_URL`.',
    unset: '`REDIS_URL`',
    secret: true,
  }),
  APP_KEY: setting(z.string().min(1).default('local-app-key'), {
    description:
      'The `key` every messaging call carries (public: it is in the page). Set your own.',
  }),
  PUSHER_APP_ID: setting(z.string().min(1).default('local-app'), {
    description: 'The Pusher app id of the live endpoint (it names the Redis fan-out channel).',
  }),
  PUSHER_KEY: setting(z.string().min(1).default('local-pusher-key'), {
    description: 'The Pusher key the page connects with.',
  }),
  PUSHER_SECRET: setting(z.string().optional(), {
    description:
      'The Pusher secret that signs channel authorizations; required with `PUSHER_HOST` / `PUSHER_CLUSTER`.',
    unset: 'generated once and kept in the database',
    secret: true,
  }),
  PUSHER_HOST: setting(z.string().optional(), {
    description:
      'A hosted Pusher-compatible service’s host, used instead of the embedded live endpoint.',
    unset: 'the embedded live endpoint',
  }),
  PUSHER_PORT: setting(z.coerce.number().int().min(1).max(65535).optional(), {
    description: 'The hosted service’s port.',
    unset: 'the scheme’s',
  }),
  PUSHER_SCHEME: setting(z.enum(['http', 'https']).optional(), {
    description: 'The hosted service’s scheme.',
    unset: '`https`',
  }),
  PUSHER_CLUSTER: setting(z.string().optional(), {
    description:
      'The hosted Pusher cluster (`eu`, `mt1`…), used instead of the embedded live endpoint.',
    unset: '`mt1` with `PUSHER_HOST`; else the embedded endpoint',
  }),
  WS_ACTIVITY_TIMEOUT: setting(z.coerce.number().int().positive().default(120), {
    description: 'Seconds a live socket may stay silent before the server pings it.',
  }),
  WS_PONG_TIMEOUT: setting(z.coerce.number().int().positive().default(30), {
    description: 'Seconds a pinged socket has to answer before it is closed (4201).',
  }),
  PRESENCE_GRACE_SECONDS: setting(z.coerce.number().min(0).max(3600).default(15), {
    description: 'How long a user stays online after their last live socket closed.',
  }),
};
