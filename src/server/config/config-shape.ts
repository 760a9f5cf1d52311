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
