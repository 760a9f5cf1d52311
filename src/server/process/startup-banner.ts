import type { Config } from '../config.js';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../db/demo-mode.js';

/** A URL's host (and port), without its user, password, path or query. */
const hostOf = (value: string): string => {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  return url?.host || 'an address that is not a URL';
};

const databaseLine = (url: string): string => {
  if (/^postgres(ql)?:/.test(url)) {
    const parsed = URL.canParse(url) ? new URL(url) : undefined;
    return `PostgreSQL at ${parsed ? `${parsed.host}${parsed.pathname}` : 'its address'}`;
  }
  const file = url.slice('sqlite:'.length) || ':memory:';
  return file === ':memory:' ? 'SQLite in memory (gone at exit)' : `SQLite file ${file}`;
};

const storageLine = (url: string): string => {
  if (url.startsWith('s3://')) return `S3 bucket ${hostOf(url).split(':')[0]}`;
  return `files in ${url.replace(/^file:(\/\/(?=\/))?/, '')}`;
};

const emailLine = (config: Config): string => {
  const { notifications } = config;
  if (!notifications.enabled) return 'off (NOTIFICATIONS=off)';
  if (notifications.smtpUrl) return `sent through SMTP at ${notifications.smtpUrl.host}`;
  return `written as .eml files in ${notifications.mailDir} (no SMTP_URL)`;
};

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/**
 * What is switched on, one "name: state" line each (the start-up lines and `--check`); never a
 * secret: addresses are reduced to their host.
 */
export const featureLines = (config: Config, workers = config.webConcurrency): string[] => {
  const features: [string, string][] = [
    ['database', databaseLine(config.databaseUrl)],
    [
      'Redis',
      config.redisUrl
        ? `on at ${hostOf(config.redisUrl)}` +
          (config.realtimeRedisUrl && config.realtimeRedisUrl !== config.redisUrl
            ? ` (live events through ${config.realtimeRedisUrl.startsWith('redis-cluster:') ? 'a Redis Cluster' : hostOf(config.realtimeRedisUrl)})`
            : '')
        : 'off (one instance on its own)',
    ],
    [
      'live events',
      config.pusher.external
        ? `a hosted service at ${config.pusher.external.host ?? `cluster ${config.pusher.external.cluster}`}`
        : 'the embedded endpoint',
    ],
    ['workers', String(workers)],
    [
      'integration API',
      config.integrationKeys.length > 0
        ? `on (${plural(config.integrationKeys.length, 'key', 'keys')})`
        : 'off (no INTEGRATION_KEYS)',
    ],
    ['sign-in links', config.ssoSecret ? 'on (/sso)' : 'off (no SSO_SECRET)'],
    ['sign-in page', config.loginUrl ? config.loginUrl.href : "the messenger's own /login"],
    ['e-mail', emailLine(config)],
    ['webhooks', config.webhook ? `on, to ${config.webhook.url.host}` : 'off (no WEBHOOK_URL)'],
    ['reply by e-mail', 'off (not available yet)'],
    [
      'embedding',
      config.embedOrigins.length > 0
        ? `on, for ${config.embedOrigins.join(', ')} (/embed.js)`
        : 'off (no EMBED_ORIGINS)',
    ],
    ['metrics', config.metricsPort === undefined ? 'off' : `on port ${config.metricsPort}`],
    ['storage', storageLine(config.storage.url)],
  ];
  const width = Math.max(...features.map(([name]) => name.length)) + 1;
  return features.map(([name, state]) => `  ${`${name}:`.padEnd(width)} ${state}`);
};

/** Prints where the messenger answers, what is on and, on a demo, the accounts to sign in with. */
export const announceRunning = (config: Config, demo: boolean, workers = 1) => {
  const address = `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`;
  const served = workers > 1 ? ` (${workers} workers)` : '';
  const lines = [`Messenger is running at ${address}/messages${served}`];
  lines.push(...featureLines(config, workers));
  if (demo) {
    lines.push(`Demo accounts (password "${DEMO_PASSWORD}"):`);
    for (const account of DEMO_ACCOUNTS)
      lines.push(`  ${account.email.padEnd(24)} ${account.role.padEnd(10)} ${account.name}`);
  }
  console.log(lines.join('\n'));
};
