import type { z } from 'zod';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { clusterAddressOf } from '../lib/redis-address.js';
import { DEFAULT_BRAND_COLOR, DEFAULT_SITE_NAME } from './brand-settings.js';
import { ConfigError } from './config-error.js';
import { problemSentences } from './config-problems.js';
import type { Config } from './config-shape.js';
import { envSchema } from './env-schema.js';
import {
  ANY_HTTPS_IMAGE,
  LOOPBACK_HOSTS,
  toEmbedOrigins,
  toImageSources,
  toIntegrationKeys,
  toLoginUrl,
  toLogoUrl,
  toSeedMode,
  toSmtpUrl,
  toSsoSecret,
  toTrustProxy,
  toWebhook,
} from './value-converters.js';

/**
 * The environment as text, as the process holds it. It is handed in: only src/server/config.ts
 * reads the process's own.
 */
export type Environment = Record<string, string | undefined>;

type Settings = z.infer<typeof envSchema>;

/** Secrets published in earlier versions' defaults: never accepted, in any environment. */
const WELL_KNOWN_PUSHER_SECRETS = new Set(['local-pusher-secret']);

/** Where `publicUrl` points while HOST is wrong (the start fails anyway, naming HOST). */
const FALLBACK_PUBLIC_URL = 'http://localhost:3000';

/** The problems found so far, in the order found: every check runs, and all are reported at once. */
class Problems {
  readonly sentences: string[] = [];

  add(sentence: string): void {
    this.sentences.push(sentence);
  }

  /** A check that throws its sentence: kept, and the next check runs. */
  attempt<T>(check: () => T, otherwise: T): T {
    try {
      return check();
    } catch (error) {
      this.add((error as Error).message);
      return otherwise;
    }
  }
}

/** The settings by their schemas; a bad variable is a problem, and its default takes its place. */
const parseSettings = (input: Environment, problems: Problems): Settings => {
  const parsed = envSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  for (const sentence of problemSentences(parsed.error.issues, envSchema.shape, input))
    problems.add(sentence);
  // the rest is checked too, with the bad variables' defaults in their place
  const bad = new Set(parsed.error.issues.map((issue) => String(issue.path[0])));
  return envSchema.parse(Object.fromEntries(Object.entries(input).filter(([k]) => !bad.has(k))));
};

/** PUBLIC_URL, or the address the server listens on. */
const publicAddressOf = (env: Settings): string => {
  const ownAddress = `http://${env.HOST === '0.0.0.0' ? 'localhost' : env.HOST}:${env.PORT}`;
  if (env.PUBLIC_URL === undefined && !URL.canParse(ownAddress))
    throw new Error(
      `HOST must be a host name or an IP address (got ${JSON.stringify(env.HOST)}), or set PUBLIC_URL to the address users reach.`,
    );
  return env.PUBLIC_URL ?? ownAddress;
};

/** The origins that may open the live socket: the product's own first, then ALLOWED_ORIGINS. */
const allowedOriginsOf = (env: Settings, publicUrl: string): string[] => {
  const ownOrigins = [new URL(publicUrl).origin];
  if (env.HOST === '127.0.0.1' || env.HOST === 'localhost' || env.HOST === '0.0.0.0') {
    ownOrigins.push(`http://localhost:${env.PORT}`, `http://127.0.0.1:${env.PORT}`);
  }
  const extraOrigins = (env.ALLOWED_ORIGINS ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  return [...new Set([...ownOrigins, ...extraOrigins])];
};

/** How many processes serve and how the live events travel (WEB_CONCURRENCY, PUSHER_*). */
interface Deployment {
  webConcurrency: number;
  pusherSecret: string | undefined;
  externalPusher: boolean;
}

const deploymentOf = (env: Settings): Deployment => ({
  webConcurrency: env.WEB_CONCURRENCY === 'auto' ? availableParallelism() : env.WEB_CONCURRENCY,
  pusherSecret: env.PUSHER_SECRET || undefined,
  externalPusher: Boolean(env.PUSHER_HOST ?? env.PUSHER_CLUSTER),
});

/** The settings' combinations that cannot work: workers without Redis, a hosted broadcaster without its secret… */
const checkDeployment = (env: Settings, deployment: Deployment, problems: Problems): void => {
  const { webConcurrency, pusherSecret, externalPusher } = deployment;
  if (pusherSecret !== undefined && WELL_KNOWN_PUSHER_SECRETS.has(pusherSecret)) {
    problems.add(
      'PUSHER_SECRET is a published default: set a secret of your own, or leave it unset to have one generated.',
    );
  }
  if (webConcurrency > 1 && !env.REDIS_URL) {
    problems.add(
      `WEB_CONCURRENCY=${env.WEB_CONCURRENCY} (${webConcurrency} workers) needs REDIS_URL: the workers share live events, presence and limits through Redis. Set REDIS_URL, or WEB_CONCURRENCY=1.`,
    );
  }
  // a malformed cluster address fails here, at start, not when the first socket connects
  const { REALTIME_REDIS_URL: realtimeRedisUrl, REDIS_URL: redisUrl } = env;
  if (realtimeRedisUrl) problems.attempt(() => clusterAddressOf(realtimeRedisUrl), undefined);
  if (redisUrl && problems.attempt(() => clusterAddressOf(redisUrl), undefined)) {
    problems.add(
      'REDIS_URL must be one Redis (limits, presence and sign-ins use it): a Redis Cluster can carry the live events, as REALTIME_REDIS_URL=redis-cluster://host:port,….',
    );
  }
  if (env.REALTIME_REDIS_URL && !env.REDIS_URL) {
    problems.add(
      'REALTIME_REDIS_URL needs REDIS_URL too: the instances share limits, presence and sign-ins through it.',
    );
  }
  if (webConcurrency > 1 && /^sqlite:(:memory:)?$/.test(env.DATABASE_URL)) {
    problems.add(
      `WEB_CONCURRENCY=${env.WEB_CONCURRENCY} needs a database the workers share: SQLite in memory is one per process. Use a file (sqlite:./data/messenger.db) or PostgreSQL.`,
    );
  }
  if (externalPusher && pusherSecret === undefined) {
    problems.add(
      'PUSHER_SECRET must be set when a hosted broadcaster (PUSHER_HOST / PUSHER_CLUSTER) is used.',
    );
  }
};

/** The settings the value converters turn into more than their text. */
type ConvertedValues = Pick<
  Config,
  | 'trustProxy'
  | 'integrationKeys'
  | 'ssoSecret'
  | 'imageSources'
  | 'embedOrigins'
  | 'webhook'
  | 'loginUrl'
> & { smtpUrl: URL | undefined; logoUrl: string | undefined };

const convertValues = (env: Settings, publicUrl: string, problems: Problems): ConvertedValues => {
  const trustProxy = problems.attempt(() => toTrustProxy(env.TRUST_PROXY), false);
  const integrationKeys = problems.attempt(() => toIntegrationKeys(env.INTEGRATION_KEYS), []);
  const ssoSecret = problems.attempt(() => toSsoSecret(env.SSO_SECRET), undefined);
  const imageSources = problems.attempt(() => toImageSources(env.IMAGE_ORIGINS), [ANY_HTTPS_IMAGE]);
  const embedOrigins = problems.attempt(() => toEmbedOrigins(env.EMBED_ORIGINS), []);
  const { protocol, hostname } = new URL(publicUrl);
  if (embedOrigins.length > 0 && protocol !== 'https:' && !LOOPBACK_HOSTS.has(hostname))
    problems.add(
      `EMBED_ORIGINS needs PUBLIC_URL to be https (or http://localhost / http://127.0.0.1): the embedded page's session cookie must be Secure, and browsers refuse that over plain http.`,
    );
  const smtpUrl = problems.attempt(() => toSmtpUrl(env.SMTP_URL), undefined);
  const webhook = problems.attempt(
    () => toWebhook(env.WEBHOOK_URL || undefined, env.WEBHOOK_SECRET || undefined),
    undefined,
  );
  const loginUrl = problems.attempt(() => toLoginUrl(env.LOGIN_URL), undefined);
  const logoUrl = problems.attempt(() => toLogoUrl(env.BRAND_LOGO_URL), undefined);
  return {
    trustProxy,
    integrationKeys,
    ssoSecret,
    imageSources,
    embedOrigins,
    smtpUrl,
    webhook,
    loginUrl,
    logoUrl,
  };
};

/** The checked settings, in the shape the server uses. */
const assembleConfig = (
  env: Settings,
  publicUrl: string,
  deployment: Deployment,
  values: ConvertedValues,
): Config => ({
  env: env.NODE_ENV,
  production: env.NODE_ENV === 'production',
  port: env.PORT,
  host: env.HOST,
  publicUrl: new URL(publicUrl),
  trustProxy: values.trustProxy,
  allowedOrigins: allowedOriginsOf(env, publicUrl),
  databaseUrl: env.DATABASE_URL,
  redisUrl: env.REDIS_URL || undefined,
  databasePoolSize: env.DATABASE_POOL_SIZE,
  realtimeRouting: env.REALTIME_ROUTING,
  realtimeRedisUrl: env.REALTIME_REDIS_URL || env.REDIS_URL || undefined,
  appKey: env.APP_KEY,
  pusher: {
    appId: env.PUSHER_APP_ID,
    key: env.PUSHER_KEY,
    secret: deployment.pusherSecret,
    external: deployment.externalPusher
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
  websocket: {
    // The instance's: with workers, their primary counts for all of them.
    maxConnections: env.WS_MAX_CONNECTIONS,
    maxConnectionsPerAddress: env.WS_MAX_CONNECTIONS_PER_ADDRESS,
    authTimeoutSeconds: env.WS_AUTH_TIMEOUT,
    frameRate: { burst: env.WS_FRAME_RATE_BURST, perSecond: env.WS_FRAME_RATE_PER_SECOND },
  },
  demoSeed: toSeedMode(env.DEMO_SEED),
  sendRate: {
    perUser: { burst: env.SEND_RATE_BURST, perSecond: env.SEND_RATE_PER_SECOND },
    perConversation: {
      burst: env.SEND_RATE_CONVERSATION_BURST,
      perSecond: env.SEND_RATE_CONVERSATION_PER_SECOND,
    },
  },
  login: {
    failuresPerAccount: env.LOGIN_FAILURES_PER_ACCOUNT,
    failuresPerAddress: env.LOGIN_FAILURES_PER_ADDRESS,
  },
  tokens: { ttlDays: env.TOKEN_TTL_DAYS, perUser: env.TOKENS_PER_USER },
  integrationKeys: values.integrationKeys,
  ssoSecret: values.ssoSecret,
  imageSources: values.imageSources,
  embedOrigins: values.embedOrigins,
  logLevel: env.LOG_LEVEL,
  metricsPort: env.METRICS_PORT,
  shutdownDelayMs: env.SHUTDOWN_DELAY_SECONDS * 1000,
  editWindowMs: env.EDIT_WINDOW_SECONDS * 1000,
  webConcurrency: deployment.webConcurrency,
  secureCookies: publicUrl.startsWith('https:'),
  outbox: {
    pollMs: env.OUTBOX_POLL_MS,
    leaseMs: env.OUTBOX_LEASE_SECONDS * 1000,
    retryBaseMs: env.OUTBOX_RETRY_BASE_SECONDS * 1000,
    retentionMs: env.OUTBOX_RETENTION_DAYS * 24 * 3600_000,
    concurrency: env.OUTBOX_CONCURRENCY,
  },
  presenceGraceMs: env.PRESENCE_GRACE_SECONDS * 1000,
  storage: {
    url: env.STORAGE_URL,
    sweepMs: env.ATTACHMENT_SWEEP_SECONDS * 1000,
    uploadTempDir: env.UPLOAD_TMP_DIR ?? join(tmpdir(), 'messenger-uploads'),
    credentials:
      env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
        ? { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY }
        : undefined,
  },
  notifications: {
    enabled: env.NOTIFICATIONS === 'on',
    smtpUrl: values.smtpUrl,
    mailFrom: env.MAIL_FROM,
    mailDir: resolve(env.MAIL_DIR),
    emailDelayMs: env.NOTIFY_EMAIL_DELAY_SECONDS * 1000,
    emailMinIntervalMs: env.NOTIFY_EMAIL_MIN_INTERVAL_SECONDS * 1000,
  },
  webhook: values.webhook,
  loginUrl: values.loginUrl,
  brand: {
    siteName: env.SITE_NAME || DEFAULT_SITE_NAME,
    logoUrl: values.logoUrl,
    color: (env.BRAND_COLOR ?? DEFAULT_BRAND_COLOR).toLowerCase(),
  },
  hostSendRatePerSecond: env.HOST_SEND_RATE_PER_SECOND,
});

/** The environment, checked and converted. Throws a `ConfigError` naming every problem. */
export const configFromEnvironment = (input: Environment): Config => {
  const problems = new Problems();
  const env = parseSettings(input, problems);
  const publicUrl = problems.attempt(() => publicAddressOf(env), FALLBACK_PUBLIC_URL);
  const deployment = deploymentOf(env);
  checkDeployment(env, deployment, problems);
  const values = convertValues(env, publicUrl, problems);
  if (problems.sentences.length > 0) throw new ConfigError(problems.sentences);
  return assembleConfig(env, publicUrl, deployment, values);
};
