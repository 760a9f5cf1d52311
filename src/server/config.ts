import { z } from 'zod';

const DEFAULT_PUSHER_SECRET = 'local-pusher-secret';

const envSchema = z.object({
  NODE_ENV: z.string().default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_URL: z.string().url().optional(),
  DATABASE_URL: z.string().default('sqlite:./data/messenger.db'),
  REDIS_URL: z.string().optional(),
  APP_KEY: z.string().min(1).default('local-app-key'),
  PUSHER_APP_ID: z.string().min(1).default('local-app'),
  PUSHER_KEY: z.string().min(1).default('local-pusher-key'),
  PUSHER_SECRET: z.string().min(1).default(DEFAULT_PUSHER_SECRET),
  PUSHER_HOST: z.string().optional(),
  PUSHER_PORT: z.coerce.number().int().optional(),
  PUSHER_SCHEME: z.enum(['http', 'https']).optional(),
  PUSHER_CLUSTER: z.string().optional(),
  ALLOWED_ORIGINS: z.string().optional(),
  DEMO_SEED: z.enum(['on', 'off', 'auto', 'true', 'false', '1', '0']).default('auto'),
  SEND_RATE_BURST: z.coerce.number().int().positive().default(150),
  SEND_RATE_PER_SECOND: z.coerce.number().positive().default(20),
  LOG_LEVEL: z.string().default('warn'),
  WS_ACTIVITY_TIMEOUT: z.coerce.number().int().positive().default(120),
  WS_PONG_TIMEOUT: z.coerce.number().int().positive().default(30),
  TEST_DATABASE: z.enum(['sqlite', 'postgres']).optional(),
  TEST_POSTGRES_URL: z.string().default('postgres://postgres@127.0.0.1:5432/test'),
  TEST_REDIS_URL: z.string().default('redis://127.0.0.1:6379'),
  CI: z.string().optional(),
});

export interface Config {
  env: string;
  port: number;
  host: string;
  /** Origins allowed to open the live socket (the product's own first). */
  allowedOrigins: string[];
  databaseUrl: string;
  redisUrl: string | undefined;
  appKey: string;
  pusher: {
    appId: string;
    key: string;
    secret: string;
    /** Set when a hosted / external Pusher-compatible service is used instead of the embedded one. */
    external:
      | {
          host: string | undefined;
          port: number | undefined;
          scheme: 'http' | 'https';
          cluster: string;
        }
      | undefined;
    activityTimeoutSeconds: number;
    pongTimeoutSeconds: number;
  };
  demoSeed: 'on' | 'off' | 'auto';
  sendRate: { burst: number; perSecond: number };
  logLevel: string;
  secureCookies: boolean;
  test: {
    database: 'sqlite' | 'postgres' | undefined;
    postgresUrl: string;
    redisUrl: string;
    ci: boolean;
  };
}

const toSeedMode = (value: string): Config['demoSeed'] => {
  if (value === 'on' || value === 'true' || value === '1') return 'on';
  if (value === 'off' || value === 'false' || value === '0') return 'off';
  return 'auto';
};

/** Parses the environment once; overrides are for tests and harnesses. */
export const loadConfig = (overrides: Record<string, string | undefined> = {}): Config => {
  const env = envSchema.parse({ ...process.env, ...overrides });
  const publicUrl =
    env.PUBLIC_URL ?? `http://${env.HOST === '0.0.0.0' ? 'localhost' : env.HOST}:${env.PORT}`;
  const ownOrigins = [new URL(publicUrl).origin];
  if (env.HOST === '127.0.0.1' || env.HOST === 'localhost' || env.HOST === '0.0.0.0') {
    ownOrigins.push(`http://localhost:${env.PORT}`, `http://127.0.0.1:${env.PORT}`);
  }
  const extraOrigins = (env.ALLOWED_ORIGINS ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  const externalPusher = Boolean(env.PUSHER_HOST ?? env.PUSHER_CLUSTER);
  if (env.NODE_ENV === 'production' && env.PUSHER_SECRET === DEFAULT_PUSHER_SECRET) {
    throw new Error('PUSHER_SECRET must be set in production (refusing the default secret).');
  }
  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    allowedOrigins: [...new Set([...ownOrigins, ...extraOrigins])],
    databaseUrl: env.DATABASE_URL,
    redisUrl: env.REDIS_URL || undefined,
    appKey: env.APP_KEY,
    pusher: {
      appId: env.PUSHER_APP_ID,
      key: env.PUSHER_KEY,
      secret: env.PUSHER_SECRET,
      external: externalPusher
        ? {
            host: env.PUSHER_HOST,
            port: env.PUSHER_PORT,
            scheme: env.PUSHER_SCHEME ?? 'https',
            cluster: env.PUSHER_CLUSTER ?? 'mt1',
          }
        : undefined,
      activityTimeoutSeconds: env.WS_ACTIVITY_TIMEOUT,
      pongTimeoutSeconds: env.WS_PONG_TIMEOUT,
    },
    demoSeed: toSeedMode(env.DEMO_SEED),
    sendRate: { burst: env.SEND_RATE_BURST, perSecond: env.SEND_RATE_PER_SECOND },
    logLevel: env.LOG_LEVEL,
    secureCookies: publicUrl.startsWith('https:'),
    test: {
      database: env.TEST_DATABASE,
      postgresUrl: env.TEST_POSTGRES_URL,
      redisUrl: env.TEST_REDIS_URL,
      ci: env.CI === 'true' || env.CI === '1',
    },
  };
};

/** The environment to hand to a child process (harnesses start real server processes). */
export const inheritedEnvironment = (): Record<string, string | undefined> => ({ ...process.env });
