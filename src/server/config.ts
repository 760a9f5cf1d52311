import { z } from 'zod';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { EDIT_WINDOW_SECONDS_DEFAULT } from '../shared/working-faster-paths.js';
import { clusterAddressOf } from './lib/redis-address.js';

/** Secrets published in earlier versions' defaults: never accepted, in any environment. */
const WELL_KNOWN_PUSHER_SECRETS = new Set(['local-pusher-secret']);

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const positiveNumber = (fallback: number) => z.coerce.number().positive().default(fallback);

const envSchema = z.object({
  NODE_ENV: z.string().default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_URL: z.string().url().optional(),
  DATABASE_URL: z.string().default('sqlite:./data/messenger.db'),
  REDIS_URL: z.string().optional(),
  REALTIME_ROUTING: z.enum(['per-user', 'broadcast']).default('per-user'),
  REALTIME_REDIS_URL: z.string().optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  APP_KEY: z.string().min(1).default('local-app-key'),
  PUSHER_APP_ID: z.string().min(1).default('local-app'),
  PUSHER_KEY: z.string().min(1).default('local-pusher-key'),
  PUSHER_SECRET: z.string().optional(),
  PUSHER_HOST: z.string().optional(),
  PUSHER_PORT: z.coerce.number().int().optional(),
  PUSHER_SCHEME: z.enum(['http', 'https']).optional(),
  PUSHER_CLUSTER: z.string().optional(),
  ALLOWED_ORIGINS: z.string().optional(),
  DEMO_SEED: z.enum(['on', 'off', 'auto', 'true', 'false', '1', '0']).default('auto'),
  TRUST_PROXY: z.string().optional(),
  SEND_RATE_BURST: positiveInt(30),
  SEND_RATE_PER_SECOND: positiveNumber(2),
  SEND_RATE_CONVERSATION_BURST: positiveInt(20),
  SEND_RATE_CONVERSATION_PER_SECOND: positiveNumber(1),
  LOGIN_FAILURES_PER_ACCOUNT: positiveInt(5),
  LOGIN_FAILURES_PER_ADDRESS: positiveInt(50),
  TOKEN_TTL_DAYS: positiveNumber(90),
  TOKENS_PER_USER: positiveInt(20),
  WS_MAX_CONNECTIONS: positiveInt(50_000),
  WS_MAX_CONNECTIONS_PER_ADDRESS: positiveInt(200),
  WS_AUTH_TIMEOUT: positiveNumber(30),
  WS_FRAME_RATE_BURST: positiveInt(30),
  WS_FRAME_RATE_PER_SECOND: positiveNumber(10),
  INTEGRATION_KEYS: z.string().optional(),
  SSO_SECRET: z.string().optional(),
  /** Where the host's photos and logos (`image_url`) may load from: img-src of the page's CSP. */
  IMAGE_ORIGINS: z.string().optional(),
  LOG_LEVEL: z.string().default('info'),
  /** Where `/metrics` is served (Prometheus text format), on HOST; unset: not served. */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /**
   * A stop (SIGTERM/SIGINT) answers `/readyz` 503 at once and keeps serving this long before it
   * refuses new work, so that a load balancer sees the instance leave first.
   */
  SHUTDOWN_DELAY_SECONDS: z.coerce.number().min(0).max(300).default(5),
  /** How long a sender may edit or delete a message, in seconds. */
  EDIT_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(31_536_000)
    .default(EDIT_WINDOW_SECONDS_DEFAULT),
  /** Worker processes sharing PORT: a number, or `auto` (the CPUs available). */
  WEB_CONCURRENCY: z.union([z.literal('auto'), z.coerce.number().int().min(1).max(256)]).default(1),
  WS_ACTIVITY_TIMEOUT: z.coerce.number().int().positive().default(120),
  WS_PONG_TIMEOUT: z.coerce.number().int().positive().default(30),
  OUTBOX_POLL_MS: positiveInt(1000),
  OUTBOX_LEASE_SECONDS: positiveNumber(300),
  OUTBOX_RETRY_BASE_SECONDS: positiveNumber(30),
  OUTBOX_RETENTION_DAYS: positiveNumber(14),
  OUTBOX_CONCURRENCY: positiveInt(10),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().min(1).default('Messages <no-reply@localhost>'),
  /** Without SMTP_URL, e-mails are written as .eml files here. */
  MAIL_DIR: z.string().min(1).default('./data/mail'),
  /** The site's name: the page's title and header, the server's pages, e-mail subjects and footers. */
  SITE_NAME: z
    .string()
    .trim()
    .max(100)
    // eslint-disable-next-line no-control-regex
    .refine((name) => !/[\u0000-\u001f\u007f]/.test(name), 'may not hold control characters')
    .optional(),
  /** The host's sign-in page: a visitor without a session is sent there with `return_to`. */
  LOGIN_URL: z.string().optional(),
  /** An `https:` or same-origin (`/…`) image for the header, the server's pages and e-mails. */
  BRAND_LOGO_URL: z.string().optional(),
  /** `#rrggbb`: the accent colour of the page, the server's pages and e-mails. */
  BRAND_COLOR: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour written #rrggbb')
    .optional(),
  /** Messages the host may send through the integration API, per key and second. */
  HOST_SEND_RATE_PER_SECOND: positiveNumber(50),
  NOTIFICATIONS: z.enum(['on', 'off']).default('on'),
  NOTIFY_EMAIL_DELAY_SECONDS: z.coerce.number().min(0).default(300),
  NOTIFY_EMAIL_MIN_INTERVAL_SECONDS: z.coerce.number().min(0).default(900),
  WEBHOOK_URL: z.string().optional(),
  WEBHOOK_SECRET: z.string().optional(),
  /** How long a user stays online after their last live socket closed (contract: 15 s; tests shorten it). */
  PRESENCE_GRACE_SECONDS: z.coerce.number().min(0).max(3600).default(15),
  STORAGE_URL: z.string().min(1).default('file:./data/uploads'),
  /** How often unused uploads (and bytes nothing points at) are looked for; tests shorten it. */
  ATTACHMENT_SWEEP_SECONDS: z.coerce.number().positive().default(3600),
  /** Where uploads are streamed before they are stored (one directory per upload). */
  UPLOAD_TMP_DIR: z.string().min(1).optional(),
  AWS_ACCESS_KEY_ID: z.string().optional(),
  AWS_SECRET_ACCESS_KEY: z.string().optional(),
});

/** Fastify's `trustProxy`: off, on (every proxy), or the proxies' addresses / CIDRs. */
export type TrustProxy = boolean | string[];

export interface Config {
  env: string;
  production: boolean;
  port: number;
  host: string;
  /** The address users reach (links, the live endpoint's host in /messenger/config). */
  publicUrl: URL;
  trustProxy: TrustProxy;
  /** Origins allowed to open the live socket (the product's own first). */
  allowedOrigins: string[];
  databaseUrl: string;
  /** PostgreSQL connections of each process's request pool (each worker has its own). */
  databasePoolSize: number;
  redisUrl: string | undefined;
  /** With Redis: live events go only to the instances holding the user (`per-user`), or to all. */
  realtimeRouting: 'per-user' | 'broadcast';
  /**
   * The Redis of the live events' fan-out (default `redisUrl`): may be a Redis Cluster,
   * `redis-cluster://host:port,…`, while `redisUrl` stays one Redis (limits, presence, sign-ins).
   */
  realtimeRedisUrl: string | undefined;
  appKey: string;
  pusher: {
    appId: string;
    key: string;
    /** Unset: the embedded endpoint uses the secret kept in the database (generated on first start). */
    secret: string | undefined;
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
  /** Limits of the embedded live endpoint. */
  websocket: {
    maxConnections: number;
    maxConnectionsPerAddress: number;
    /** A socket with no authorized subscription for this long is closed. */
    authTimeoutSeconds: number;
    frameRate: { burst: number; perSecond: number };
  };
  demoSeed: 'on' | 'off' | 'auto';
  sendRate: {
    perUser: { burst: number; perSecond: number };
    perConversation: { burst: number; perSecond: number };
  };
  login: { failuresPerAccount: number; failuresPerAddress: number };
  tokens: { ttlDays: number; perUser: number };
  /** Secrets for the integration API (`Authorization: Bearer …`); empty: the API answers 404. */
  integrationKeys: string[];
  /** Shared secret for sign-in links (`/sso`); unset: `/sso` answers 404. */
  ssoSecret: string | undefined;
  /**
   * Sources the page may load images from besides its own origin (the CSP's `img-src`): the host's
   * photos and logos (`image_url`). IMAGE_ORIGINS: origins (`https://cdn.jobs.example`), or `https:`
   * for any https address (the default).
   */
  imageSources: string[];
  logLevel: string;
  /** `/metrics` on this port (undefined: not served). */
  metricsPort: number | undefined;
  /** How long a stop keeps serving after `/readyz` turned 503. */
  shutdownDelayMs: number;
  /** How long a sender may edit or delete a message (`EDIT_WINDOW_SECONDS`). */
  editWindowMs: number;
  /** Worker processes sharing the port (`node:cluster`); above 1, live events go through Redis. */
  webConcurrency: number;
  secureCookies: boolean;
  /**
   * The durable outbox's worker (ADR 013): how often it looks for due tasks, how long a claimed
   * task stays one instance's, the first retry's delay (it doubles, up to an hour), and how long
   * finished tasks are kept.
   */
  outbox: {
    pollMs: number;
    leaseMs: number;
    retryBaseMs: number;
    retentionMs: number;
    /** Tasks one instance runs at once. */
    concurrency: number;
  };
  /** Presence: online while a live socket is open, and for this long after the last one closed. */
  presenceGraceMs: number;
  /** Where attachments live: `file:<dir>` or `s3://bucket?endpoint=…&region=…&forcePathStyle=true`. */
  storage: {
    url: string;
    sweepMs: number;
    /** Where uploads are streamed before they are stored (`UPLOAD_TMP_DIR`). */
    uploadTempDir: string;
    credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  };
  /** Reaching people who are not on the page (docs/notifications.md). */
  notifications: {
    /** Off: no notification e-mails and no `message.unseen` webhooks (`message.created` stays). */
    enabled: boolean;
    /** Unset: e-mails are written as .eml files under `mailDir` and logged. */
    smtpUrl: URL | undefined;
    mailFrom: string;
    /** Where e-mails go without SMTP (`MAIL_DIR`, default `./data/mail`), resolved from the working directory. */
    mailDir: string;
    /** `SITE_NAME`: the site's name before each e-mail's subject (undefined: none). */
    siteName: string | undefined;
    emailDelayMs: number;
    emailMinIntervalMs: number;
  };
  /** Unset: no webhooks. */
  webhook: { url: URL; secret: string } | undefined;
  /**
   * The host's sign-in page (`LOGIN_URL`): every way of reaching the page without a session ends
   * there, with `return_to`; undefined: the messenger's own `/login`.
   */
  loginUrl: URL | undefined;
  /** Whose site this is: on the page, every page the server renders, and e-mails. */
  brand: {
    /** `SITE_NAME` (default `Messages`). */
    siteName: string;
    /** `BRAND_LOGO_URL`: an `https:` address or a same-origin path; undefined: the product's mark. */
    logoUrl: string | undefined;
    /** `BRAND_COLOR` (`#rrggbb`, lower case); default the product's blue. */
    color: string;
  };
  /** Messages the host sends through the integration API, per key and second. */
  hostSendRatePerSecond: number;
}

/** The product's own accent (the page's `--color-primary`). */
export const DEFAULT_BRAND_COLOR = '#2563eb';
export const DEFAULT_SITE_NAME = 'Messages';

const toLoginUrl = (value: string | undefined): URL | undefined => {
  if (!value) return undefined;
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:'))
    throw new Error(
      `LOGIN_URL must be an absolute http(s) address of the host's sign-in page (https://jobs.example/login), not ${JSON.stringify(value)}.`,
    );
  return url;
};

const toLogoUrl = (value: string | undefined): string | undefined => {
  if (!value) return undefined;
  if (/^\/(?![/\\])/.test(value)) return value;
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (!url || url.protocol !== 'https:')
    throw new Error(
      `BRAND_LOGO_URL must be an https: address (https://jobs.example/logo.svg) or a path of this server (/logo.svg), not ${JSON.stringify(value)}.`,
    );
  return url.href;
};

/** Shortest integration key / sign-in secret accepted: a guessable secret is refused at start. */
const MIN_SECRET_BYTES = 32;

const toIntegrationKeys = (value: string | undefined): string[] => {
  const keys = (value ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter(Boolean);
  for (const key of keys) {
    if (Buffer.byteLength(key) < MIN_SECRET_BYTES)
      throw new Error(
        `Each INTEGRATION_KEYS entry must be at least ${MIN_SECRET_BYTES} bytes (for example \`openssl rand -hex 32\`).`,
      );
  }
  return keys;
};

const toSsoSecret = (value: string | undefined): string | undefined => {
  if (!value) return undefined;
  if (Buffer.byteLength(value) < MIN_SECRET_BYTES)
    throw new Error(`SSO_SECRET must be at least ${MIN_SECRET_BYTES} bytes.`);
  return value;
};

/** The default of IMAGE_ORIGINS: photos from any https address (a host's CDN may be anywhere). */
const ANY_HTTPS_IMAGE = 'https:';

const toImageSources = (value: string | undefined): string[] => {
  if (value === undefined || value.trim() === '') return [ANY_HTTPS_IMAGE];
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      if (entry === ANY_HTTPS_IMAGE) return entry;
      // An origin and nothing else: no path, no wildcard, nothing that could end the directive.
      const url = URL.canParse(entry) ? new URL(entry) : undefined;
      if (
        !url ||
        (url.protocol !== 'https:' && url.protocol !== 'http:') ||
        url.origin === 'null' ||
        entry.replace(/\/$/, '') !== url.origin
      )
        throw new Error(
          `IMAGE_ORIGINS: ${JSON.stringify(entry)} is not an origin (https://cdn.example.com) or "https:".`,
        );
      return url.origin;
    });
};

const toSmtpUrl = (value: string | undefined): URL | undefined => {
  if (!value) return undefined;
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (!url || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || !url.hostname)
    throw new Error('SMTP_URL must look like smtp://user:pass@host:port or smtps://…');
  return url;
};

/** Standard Webhooks secrets are `whsec_` and the base64 of 24 to 64 random bytes. */
const MIN_WEBHOOK_SECRET_BYTES = 24;

const toWebhook = (
  url: string | undefined,
  secret: string | undefined,
): Config['webhook'] | undefined => {
  if (!url) return undefined;
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
    throw new Error('WEBHOOK_URL must be an http(s) address.');
  const encoded = secret?.startsWith('whsec_') ? secret.slice('whsec_'.length) : undefined;
  if (
    encoded === undefined ||
    !/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) ||
    Buffer.from(encoded, 'base64').length < MIN_WEBHOOK_SECRET_BYTES
  )
    throw new Error(
      `WEBHOOK_SECRET must be set with WEBHOOK_URL: "whsec_" and the base64 of at least ${MIN_WEBHOOK_SECRET_BYTES} random bytes (for example \`echo whsec_$(openssl rand -base64 32)\`).`,
    );
  return { url: parsed, secret: secret as string };
};

const toSeedMode = (value: string): Config['demoSeed'] => {
  if (value === 'on' || value === 'true' || value === '1') return 'on';
  if (value === 'off' || value === 'false' || value === '0') return 'off';
  return 'auto';
};

const toTrustProxy = (value: string | undefined): TrustProxy => {
  const text = (value ?? '').trim();
  if (text === '' || text === 'false' || text === '0' || text === 'off') return false;
  if (text === 'true' || text === 'on') return true;
  // Fastify 5 ignores hop counts (it cannot tell a proxy from a client that way) and trusts nobody.
  if (/^\d+$/.test(text))
    throw new Error(
      'TRUST_PROXY takes true or the proxies’ addresses / CIDRs (e.g. 10.0.0.0/8), not a hop count.',
    );
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
};

/** Parses the environment once; overrides are for tests. */
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
  const pusherSecret = env.PUSHER_SECRET || undefined;
  if (pusherSecret !== undefined && WELL_KNOWN_PUSHER_SECRETS.has(pusherSecret)) {
    throw new Error(
      'PUSHER_SECRET is a published default: set a secret of your own, or leave it unset to have one generated.',
    );
  }
  const webConcurrency =
    env.WEB_CONCURRENCY === 'auto' ? availableParallelism() : env.WEB_CONCURRENCY;
  if (webConcurrency > 1 && !env.REDIS_URL) {
    throw new Error(
      `WEB_CONCURRENCY=${env.WEB_CONCURRENCY} (${webConcurrency} workers) needs REDIS_URL: the workers share live events, presence and limits through Redis. Set REDIS_URL, or WEB_CONCURRENCY=1.`,
    );
  }
  // a malformed cluster address fails here, at start, not when the first socket connects
  if (env.REALTIME_REDIS_URL) clusterAddressOf(env.REALTIME_REDIS_URL);
  if (env.REDIS_URL && clusterAddressOf(env.REDIS_URL)) {
    throw new Error(
      'REDIS_URL must be one Redis (limits, presence and sign-ins use it): a Redis Cluster can carry the live events, as REALTIME_REDIS_URL=redis-cluster://host:port,….',
    );
  }
  if (env.REALTIME_REDIS_URL && !env.REDIS_URL) {
    throw new Error(
      'REALTIME_REDIS_URL needs REDIS_URL too: the instances share limits, presence and sign-ins through it.',
    );
  }
  if (webConcurrency > 1 && /^sqlite:(:memory:)?$/.test(env.DATABASE_URL)) {
    throw new Error(
      `WEB_CONCURRENCY=${env.WEB_CONCURRENCY} needs a database the workers share: SQLite in memory is one per process. Use a file (sqlite:./data/messenger.db) or PostgreSQL.`,
    );
  }
  if (externalPusher && pusherSecret === undefined) {
    throw new Error(
      'PUSHER_SECRET must be set when a hosted broadcaster (PUSHER_HOST / PUSHER_CLUSTER) is used.',
    );
  }
  return {
    env: env.NODE_ENV,
    production: env.NODE_ENV === 'production',
    port: env.PORT,
    host: env.HOST,
    publicUrl: new URL(publicUrl),
    trustProxy: toTrustProxy(env.TRUST_PROXY),
    allowedOrigins: [...new Set([...ownOrigins, ...extraOrigins])],
    databaseUrl: env.DATABASE_URL,
    redisUrl: env.REDIS_URL || undefined,
    databasePoolSize: env.DATABASE_POOL_SIZE,
    realtimeRouting: env.REALTIME_ROUTING,
    realtimeRedisUrl: env.REALTIME_REDIS_URL || env.REDIS_URL || undefined,
    appKey: env.APP_KEY,
    pusher: {
      appId: env.PUSHER_APP_ID,
      key: env.PUSHER_KEY,
      secret: pusherSecret,
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
    integrationKeys: toIntegrationKeys(env.INTEGRATION_KEYS),
    ssoSecret: toSsoSecret(env.SSO_SECRET),
    imageSources: toImageSources(env.IMAGE_ORIGINS),
    logLevel: env.LOG_LEVEL,
    metricsPort: env.METRICS_PORT,
    shutdownDelayMs: env.SHUTDOWN_DELAY_SECONDS * 1000,
    editWindowMs: env.EDIT_WINDOW_SECONDS * 1000,
    webConcurrency,
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
      smtpUrl: toSmtpUrl(env.SMTP_URL),
      mailFrom: env.MAIL_FROM,
      mailDir: resolve(env.MAIL_DIR),
      siteName: env.SITE_NAME || undefined,
      emailDelayMs: env.NOTIFY_EMAIL_DELAY_SECONDS * 1000,
      emailMinIntervalMs: env.NOTIFY_EMAIL_MIN_INTERVAL_SECONDS * 1000,
    },
    webhook: toWebhook(env.WEBHOOK_URL || undefined, env.WEBHOOK_SECRET || undefined),
    loginUrl: toLoginUrl(env.LOGIN_URL),
    brand: {
      siteName: env.SITE_NAME || DEFAULT_SITE_NAME,
      logoUrl: toLogoUrl(env.BRAND_LOGO_URL),
      color: (env.BRAND_COLOR ?? DEFAULT_BRAND_COLOR).toLowerCase(),
    },
    hostSendRatePerSecond: env.HOST_SEND_RATE_PER_SECOND,
  };
};
