import { z } from 'zod';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { EDIT_WINDOW_SECONDS_DEFAULT } from '../shared/message-changes-paths.js';
import { lookAlikeWarnings, problemSentences } from './config-problems.js';
import { clusterAddressOf } from './lib/redis-address.js';

/** Secrets published in earlier versions' defaults: never accepted, in any environment. */
const WELL_KNOWN_PUSHER_SECRETS = new Set(['local-pusher-secret']);

/**
 * What a setting is, for people: docs/configuration.md, `--help` and `--check` are made from it
 * (`npm run docs:config` writes the file; a test fails when it differs).
 */
export interface SettingAbout {
  /** What it does, in a sentence or two (Markdown backticks allowed). */
  description: string;
  /** What being unset means, for a setting without a zod default (e.g. "no webhooks"). */
  unset?: string;
  /** Its value is never printed (errors say only that it is wrong). */
  secret?: boolean;
}

/** A setting: its zod schema, described (`.meta()`, read back by config-reference.ts). */
const setting = <T extends z.ZodType>(schema: T, about: SettingAbout): T =>
  schema.meta({ ...about });

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const positiveNumber = (fallback: number) => z.coerce.number().positive().default(fallback);

/*
 * Every environment variable the server reads, by group: the name, the zod schema (with its
 * default) and its description. A variable is read here or nowhere. A new one goes into the group
 * it belongs to, as `NAME: setting(zodSchema, { description, unset?, secret? })`; then
 * `npm run docs:config` rewrites docs/configuration.md (and `--help` shows it at once).
 */

const serverSettings = {
  NODE_ENV: setting(z.string().default('development'), {
    description:
      '`production`: no demo data unless `DEMO_SEED=on` (`auto` never seeds in production).',
  }),
  PORT: setting(z.coerce.number().int().min(0).max(65535).default(3000), {
    description: 'The port the server listens on.',
  }),
  HOST: setting(z.string().default('127.0.0.1'), {
    description: 'The address the server listens on (`0.0.0.0`: every interface).',
  }),
  PUBLIC_URL: setting(z.string().url().optional(), {
    description:
      'The address users reach (links in e-mails, the live endpoint, `return_to`); `https:` makes cookies secure.',
    unset: '`http://HOST:PORT`',
  }),
  TRUST_PROXY: setting(z.string().optional(), {
    description:
      '`true` (every proxy) or the proxies’ addresses / CIDRs (`10.0.0.0/8,127.0.0.1`) whose `X-Forwarded-*` headers are believed.',
    unset: 'off',
  }),
  ALLOWED_ORIGINS: setting(z.string().optional(), {
    description:
      'Comma-separated origins, besides `PUBLIC_URL`’s, whose pages may open the live socket.',
    unset: 'only `PUBLIC_URL`’s',
  }),
  IMAGE_ORIGINS: setting(z.string().optional(), {
    description:
      'Comma-separated origins (`https://cdn.jobs.example`) the host’s photos and logos (`image_url`) may load from: the page’s CSP `img-src`.',
    unset: 'any `https:` address',
  }),
  EMBED_ORIGINS: setting(z.string().optional(), {
    description:
      'Comma-separated origins (`https://jobs.example`) whose pages may embed the messenger (`/messages…` in an iframe, `/embed.js`): exact origins, https (http only for `localhost` / `127.0.0.1`).',
    unset: "no embedding: `frame-ancestors 'self'`",
  }),
  EDIT_WINDOW_SECONDS: setting(
    z.coerce.number().int().min(0).max(31_536_000).default(EDIT_WINDOW_SECONDS_DEFAULT),
    { description: 'How long a sender may edit or delete a message, in seconds.' },
  ),
};

const databaseSettings = {
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

const liveEventSettings = {
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

const limitSettings = {
  SEND_RATE_BURST: setting(positiveInt(30), {
    description: 'Messages a user may send at once (token bucket, per user).',
  }),
  SEND_RATE_PER_SECOND: setting(positiveNumber(2), {
    description: 'Messages a user may send per second after the burst.',
  }),
  SEND_RATE_CONVERSATION_BURST: setting(positiveInt(20), {
    description: 'Messages a user may send into one conversation at once.',
  }),
  SEND_RATE_CONVERSATION_PER_SECOND: setting(positiveNumber(1), {
    description: 'Messages a user may send into one conversation per second after the burst.',
  }),
  HOST_SEND_RATE_PER_SECOND: setting(positiveNumber(50), {
    description: 'Messages the host may send through the integration API, per key and second.',
  }),
  LOGIN_FAILURES_PER_ACCOUNT: setting(positiveInt(5), {
    description:
      'Failed sign-ins per account (from any address) before it is locked for a while (30 s, doubling up to 15 min).',
  }),
  LOGIN_FAILURES_PER_ADDRESS: setting(positiveInt(50), {
    description:
      'Failed sign-ins per client address in 15 minutes before further failures get 429.',
  }),
  TOKEN_TTL_DAYS: setting(positiveNumber(90), {
    description: 'Days a personal access token stays valid.',
  }),
  TOKENS_PER_USER: setting(positiveInt(20), {
    description: 'Live personal access tokens one user may hold (then 422: revoke one).',
  }),
  WS_MAX_CONNECTIONS: setting(positiveInt(50_000), {
    description: 'Open live sockets per instance (with workers, for all of them).',
  }),
  WS_MAX_CONNECTIONS_PER_ADDRESS: setting(positiveInt(200), {
    description: 'Open live sockets from one client address.',
  }),
  WS_AUTH_TIMEOUT: setting(positiveNumber(30), {
    description: 'Seconds a socket may stay without an authorized subscription.',
  }),
  WS_FRAME_RATE_BURST: setting(positiveInt(30), {
    description: 'Incoming frames a socket may send at once.',
  }),
  WS_FRAME_RATE_PER_SECOND: setting(positiveNumber(10), {
    description: 'Incoming frames a socket may send per second after the burst.',
  }),
};

const integrationSettings = {
  INTEGRATION_KEYS: setting(z.string().optional(), {
    description:
      'Comma-separated secrets (at least 32 bytes each, `openssl rand -hex 32`) of the server-to-server API under `/api/v1` (`Authorization: Bearer …`).',
    unset: 'off: `/api/v1` answers 404',
    secret: true,
  }),
  SSO_SECRET: setting(z.string().optional(), {
    description:
      'The shared secret (at least 32 bytes) of sign-in links from the host site (`/sso`).',
    unset: 'off: `/sso` answers 404',
    secret: true,
  }),
  LOGIN_URL: setting(z.string().optional(), {
    description:
      'The host’s sign-in page (absolute http(s)): a visitor without a session is sent there, with `return_to`.',
    unset: 'the messenger’s own `/login`',
  }),
};

const emailAndWebhookSettings = {
  NOTIFICATIONS: setting(z.enum(['on', 'off']).default('on'), {
    description:
      '`off`: no notification e-mails and no `message.unseen` webhooks (for a host that notifies people itself).',
  }),
  SMTP_URL: setting(z.string().optional(), {
    description: 'Where e-mails are sent: `smtp://user:pass@host:port` or `smtps://…`.',
    unset: 'e-mails are written as `.eml` files in `MAIL_DIR`',
    secret: true,
  }),
  MAIL_FROM: setting(z.string().min(1).default('Messages <no-reply@localhost>'), {
    description:
      'The e-mails’ sender, an address of a domain your SMTP server may send for (`Acme Jobs <messages@jobs.acme.example>`).',
  }),
  MAIL_DIR: setting(z.string().min(1).default('./data/mail'), {
    description: 'Without `SMTP_URL`, e-mails are written here as `.eml` files.',
  }),
  NOTIFY_EMAIL_DELAY_SECONDS: setting(z.coerce.number().min(0).default(300), {
    description: 'How long a message must stay unseen before it is e-mailed.',
  }),
  NOTIFY_EMAIL_MIN_INTERVAL_SECONDS: setting(z.coerce.number().min(0).default(900), {
    description: 'At most one e-mail (and one `message.unseen`) per receiver per this interval.',
  }),
  WEBHOOK_URL: setting(z.string().optional(), {
    description: 'The host’s http(s) address that receives the webhooks (Standard Webhooks).',
    unset: 'no webhooks',
  }),
  WEBHOOK_SECRET: setting(z.string().optional(), {
    description:
      'Required with `WEBHOOK_URL`: `whsec_` and the base64 of at least 24 random bytes (`echo whsec_$(openssl rand -base64 32)`).',
    unset: 'none',
    secret: true,
  }),
  OUTBOX_POLL_MS: setting(positiveInt(1000), {
    description:
      'How often each instance looks for due background work (e-mails, webhooks), in milliseconds.',
  }),
  OUTBOX_LEASE_SECONDS: setting(positiveNumber(300), {
    description: 'How long a claimed task stays one instance’s.',
  }),
  OUTBOX_RETRY_BASE_SECONDS: setting(positiveNumber(30), {
    description: 'The first retry’s delay (it doubles, up to an hour).',
  }),
  OUTBOX_RETENTION_DAYS: setting(positiveNumber(14), {
    description: 'Finished tasks (delivered or given up) are deleted after this long.',
  }),
  OUTBOX_CONCURRENCY: setting(positiveInt(10), {
    description: 'Tasks one instance runs at once.',
  }),
};

const attachmentSettings = {
  STORAGE_URL: setting(
    z
      .string()
      .min(1)
      .regex(/^(file:|s3:\/\/)/, 'must be file:<dir> or s3://<bucket>?…')
      .default('file:./data/uploads'),
    {
      description:
        'Where attachments live: `file:<dir>`, or `s3://bucket?endpoint=…&region=…&forcePathStyle=true` (the directory or bucket is the messenger’s own).',
    },
  ),
  AWS_ACCESS_KEY_ID: setting(z.string().optional(), {
    description: 'The S3 access key (with `AWS_SECRET_ACCESS_KEY`).',
    unset: 'the SDK’s own ways: an instance role, `~/.aws`…',
    secret: true,
  }),
  AWS_SECRET_ACCESS_KEY: setting(z.string().optional(), {
    description: 'The S3 secret key.',
    unset: 'the SDK’s own ways',
    secret: true,
  }),
  ATTACHMENT_SWEEP_SECONDS: setting(z.coerce.number().positive().default(3600), {
    description: 'How often unused uploads (and bytes nothing points at) are looked for.',
  }),
  UPLOAD_TMP_DIR: setting(z.string().min(1).optional(), {
    description: 'Where uploads are streamed before they are stored (one directory per upload).',
    unset: '`messenger-uploads` in the system’s temporary directory',
  }),
};

const brandSettings = {
  SITE_NAME: setting(
    z
      .string()
      .trim()
      .max(100)
      // eslint-disable-next-line no-control-regex
      .refine((name) => !/[\u0000-\u001f\u007f]/.test(name), 'may not hold control characters')
      .optional(),
    {
      description:
        'The site’s name: the page’s title and header, the server’s pages, e-mail subjects and footers.',
      unset: '`Messages`',
    },
  ),
  BRAND_LOGO_URL: setting(z.string().optional(), {
    description:
      'An `https:` or same-origin (`/logo.svg`) image for the header, the server’s pages and e-mails.',
    unset: 'the product’s own mark',
  }),
  BRAND_COLOR: setting(
    z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour written #rrggbb')
      .optional(),
    {
      description:
        '`#rrggbb`: the accent colour of the page, the server’s pages and e-mails; text on it is black or white, whichever contrasts more (docs/branding.md).',
      unset: 'the product’s blue, `#2563eb`',
    },
  ),
};

const operationSettings = {
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

/** The groups, in the order the reference lists them. */
export const SETTING_GROUPS: readonly { title: string; settings: Record<string, z.ZodType> }[] = [
  { title: 'Server', settings: serverSettings },
  { title: 'Database', settings: databaseSettings },
  { title: 'Live events and Redis', settings: liveEventSettings },
  { title: 'Limits', settings: limitSettings },
  { title: 'Integration and sign-in', settings: integrationSettings },
  { title: 'E-mail, webhooks and background work', settings: emailAndWebhookSettings },
  { title: 'Attachments', settings: attachmentSettings },
  { title: 'Brand', settings: brandSettings },
  { title: 'Operations', settings: operationSettings },
];

export const envSchema = z.object({
  ...serverSettings,
  ...databaseSettings,
  ...liveEventSettings,
  ...limitSettings,
  ...integrationSettings,
  ...emailAndWebhookSettings,
  ...attachmentSettings,
  ...brandSettings,
  ...operationSettings,
});

/** Every variable the server reads. */
export const SETTING_NAMES: readonly string[] = Object.keys(envSchema.shape);

/**
 * Prefixes of the server's own variables: an unknown variable starting with one is a mistake (a
 * misspelling, an old name) and is warned about. Only prefixes no other program uses.
 */
export const OWN_PREFIXES = [
  'SEND_RATE_',
  'HOST_SEND_',
  'WS_',
  'OUTBOX_',
  'PUSHER_',
  'SMTP_',
  'SSO_',
  'INTEGRATION_',
  'BRAND_',
  'NOTIFY_',
  'NOTIFICATIONS',
  'WEBHOOK_',
  'MAIL_',
  'LOGIN_',
  'TOKEN_',
  'TOKENS_',
  'REALTIME_',
  'DEMO_',
  'PRESENCE_',
  'ATTACHMENT_',
  'UPLOAD_',
  'STORAGE_',
  'METRICS_',
  'SHUTDOWN_',
  'EDIT_WINDOW',
  'IMAGE_ORIGIN',
  'EMBED_',
  'SITE_NAME',
] as const;

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
  /**
   * Origins whose pages may frame `/messages…` (`EMBED_ORIGINS`, ADR 022); empty: no embedding
   * (`frame-ancestors 'self'`).
   */
  embedOrigins: string[];
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

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1']);

const toEmbedOrigins = (value: string | undefined): string[] => {
  const entries = (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const origins = entries.map((entry) => {
    // An origin and nothing else: scheme://host[:port], no path, query, wildcard or user.
    const url = URL.canParse(entry) ? new URL(entry) : undefined;
    if (
      !url ||
      url.origin === 'null' ||
      !/^[a-z0-9.-]+$|^\[[0-9a-f:.]+\]$/.test(url.hostname) ||
      entry.replace(/\/$/, '') !== url.origin
    )
      throw new Error(
        `EMBED_ORIGINS: ${JSON.stringify(entry)} is not an origin: write scheme://host[:port] with no path (https://jobs.example).`,
      );
    if (
      url.protocol !== 'https:' &&
      !(url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))
    )
      throw new Error(
        `EMBED_ORIGINS: ${JSON.stringify(entry)} must use https (http only for localhost or 127.0.0.1).`,
      );
    return url.origin;
  });
  return [...new Set(origins)];
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

/**
 * The environment is wrong: every problem found, one plain sentence each (never zod's JSON), as
 * `--check` and a start that cannot work print them.
 */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
    this.name = 'ConfigError';
  }
}

type Environment = Record<string, string | undefined>;

/**
 * Unknown variables that look like the server's (a prefix of its own, or a near-miss of a name):
 * warned about at start and by `--check`.
 */
export const unknownSettingWarnings = (env: Environment = process.env): string[] =>
  lookAlikeWarnings(env, SETTING_NAMES, OWN_PREFIXES);

/** Parses the environment once; overrides are for tests. Throws a `ConfigError` naming every problem. */
export const loadConfig = (overrides: Environment = {}): Config => {
  const input: Environment = { ...process.env, ...overrides };
  const problems: string[] = [];
  const parsed = envSchema.safeParse(input);
  let env: z.infer<typeof envSchema>;
  if (parsed.success) env = parsed.data;
  else {
    problems.push(...problemSentences(parsed.error.issues, envSchema.shape, input));
    // the rest is checked too, with the bad variables' defaults in their place
    const bad = new Set(parsed.error.issues.map((issue) => String(issue.path[0])));
    env = envSchema.parse(Object.fromEntries(Object.entries(input).filter(([k]) => !bad.has(k))));
  }
  /** A check that throws its sentence: kept, and the next check runs. */
  const attempt = <T>(check: () => T, otherwise: T): T => {
    try {
      return check();
    } catch (error) {
      problems.push((error as Error).message);
      return otherwise;
    }
  };
  const ownAddress = `http://${env.HOST === '0.0.0.0' ? 'localhost' : env.HOST}:${env.PORT}`;
  const publicUrl = attempt(() => {
    if (env.PUBLIC_URL === undefined && !URL.canParse(ownAddress))
      throw new Error(
        `HOST must be a host name or an IP address (got ${JSON.stringify(env.HOST)}), or set PUBLIC_URL to the address users reach.`,
      );
    return env.PUBLIC_URL ?? ownAddress;
  }, 'http://localhost:3000');
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
    problems.push(
      'PUSHER_SECRET is a published default: set a secret of your own, or leave it unset to have one generated.',
    );
  }
  const webConcurrency =
    env.WEB_CONCURRENCY === 'auto' ? availableParallelism() : env.WEB_CONCURRENCY;
  if (webConcurrency > 1 && !env.REDIS_URL) {
    problems.push(
      `WEB_CONCURRENCY=${env.WEB_CONCURRENCY} (${webConcurrency} workers) needs REDIS_URL: the workers share live events, presence and limits through Redis. Set REDIS_URL, or WEB_CONCURRENCY=1.`,
    );
  }
  // a malformed cluster address fails here, at start, not when the first socket connects
  const { REALTIME_REDIS_URL: realtimeRedisUrl, REDIS_URL: redisUrl } = env;
  if (realtimeRedisUrl) attempt(() => clusterAddressOf(realtimeRedisUrl), undefined);
  if (redisUrl && attempt(() => clusterAddressOf(redisUrl), undefined)) {
    problems.push(
      'REDIS_URL must be one Redis (limits, presence and sign-ins use it): a Redis Cluster can carry the live events, as REALTIME_REDIS_URL=redis-cluster://host:port,….',
    );
  }
  if (env.REALTIME_REDIS_URL && !env.REDIS_URL) {
    problems.push(
      'REALTIME_REDIS_URL needs REDIS_URL too: the instances share limits, presence and sign-ins through it.',
    );
  }
  if (webConcurrency > 1 && /^sqlite:(:memory:)?$/.test(env.DATABASE_URL)) {
    problems.push(
      `WEB_CONCURRENCY=${env.WEB_CONCURRENCY} needs a database the workers share: SQLite in memory is one per process. Use a file (sqlite:./data/messenger.db) or PostgreSQL.`,
    );
  }
  if (externalPusher && pusherSecret === undefined) {
    problems.push(
      'PUSHER_SECRET must be set when a hosted broadcaster (PUSHER_HOST / PUSHER_CLUSTER) is used.',
    );
  }
  const trustProxy = attempt(() => toTrustProxy(env.TRUST_PROXY), false);
  const integrationKeys = attempt(() => toIntegrationKeys(env.INTEGRATION_KEYS), []);
  const ssoSecret = attempt(() => toSsoSecret(env.SSO_SECRET), undefined);
  const imageSources = attempt(() => toImageSources(env.IMAGE_ORIGINS), [ANY_HTTPS_IMAGE]);
  const embedOrigins = attempt(() => toEmbedOrigins(env.EMBED_ORIGINS), []);
  const { protocol, hostname } = new URL(publicUrl);
  if (embedOrigins.length > 0 && protocol !== 'https:' && !LOOPBACK_HOSTS.has(hostname))
    problems.push(
      `EMBED_ORIGINS needs PUBLIC_URL to be https (or http://localhost / http://127.0.0.1): the embedded page's session cookie must be Secure, and browsers refuse that over plain http.`,
    );
  const smtpUrl = attempt(() => toSmtpUrl(env.SMTP_URL), undefined);
  const webhook = attempt(
    () => toWebhook(env.WEBHOOK_URL || undefined, env.WEBHOOK_SECRET || undefined),
    undefined,
  );
  const loginUrl = attempt(() => toLoginUrl(env.LOGIN_URL), undefined);
  const logoUrl = attempt(() => toLogoUrl(env.BRAND_LOGO_URL), undefined);
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    env: env.NODE_ENV,
    production: env.NODE_ENV === 'production',
    port: env.PORT,
    host: env.HOST,
    publicUrl: new URL(publicUrl),
    trustProxy,
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
    integrationKeys,
    ssoSecret,
    imageSources,
    embedOrigins,
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
      smtpUrl,
      mailFrom: env.MAIL_FROM,
      mailDir: resolve(env.MAIL_DIR),
      emailDelayMs: env.NOTIFY_EMAIL_DELAY_SECONDS * 1000,
      emailMinIntervalMs: env.NOTIFY_EMAIL_MIN_INTERVAL_SECONDS * 1000,
    },
    webhook,
    loginUrl,
    brand: {
      siteName: env.SITE_NAME || DEFAULT_SITE_NAME,
      logoUrl,
      color: (env.BRAND_COLOR ?? DEFAULT_BRAND_COLOR).toLowerCase(),
    },
    hostSendRatePerSecond: env.HOST_SEND_RATE_PER_SECOND,
  };
};
