import {
  ConfigError,
  loadConfig,
  OWN_PREFIXES,
  SETTING_NAMES,
  unknownSettingWarnings,
} from '../config.js';
import { editDistance } from './config-problems.js';

/** The sentences a bad environment gets (loadConfig throws them all at once). */
const problemsOf = (env: Record<string, string | undefined>): readonly string[] => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('the environment was accepted');
};

describe('a bad environment, in plain sentences', () => {
  it('names a bad number with what it accepts and what it got', () => {
    expect(problemsOf({ PORT: 'abc' })).toEqual([
      'PORT must be a whole number from 0 to 65535 (got "abc").',
    ]);
    expect(problemsOf({ SEND_RATE_BURST: '0' })).toEqual([
      'SEND_RATE_BURST must be a whole number greater than 0 (got "0").',
    ]);
    expect(problemsOf({ SHUTDOWN_DELAY_SECONDS: '999' })).toEqual([
      'SHUTDOWN_DELAY_SECONDS must be a number from 0 to 300 (got "999").',
    ]);
    expect(problemsOf({ NOTIFY_EMAIL_DELAY_SECONDS: '-1' })).toEqual([
      'NOTIFY_EMAIL_DELAY_SECONDS must be a number of 0 or more (got "-1").',
    ]);
  });

  it('names a HOST that cannot make an address (without PUBLIC_URL) instead of throwing a raw error', () => {
    expect(problemsOf({ HOST: 'my host', PUBLIC_URL: undefined })).toEqual([
      'HOST must be a host name or an IP address (got "my host"), or set PUBLIC_URL to the address users reach.',
    ]);
    expect(loadConfig({ HOST: 'my host', PUBLIC_URL: 'https://jobs.example' }).publicUrl.href).toBe(
      'https://jobs.example/',
    );
  });

  it('names a bad choice with the choices, and uses a setting’s own wording where it has one', () => {
    expect(problemsOf({ REALTIME_ROUTING: 'sideways' })).toEqual([
      'REALTIME_ROUTING must be one of per-user, broadcast (got "sideways").',
    ]);
    expect(problemsOf({ WEB_CONCURRENCY: 'many' })).toEqual([
      'WEB_CONCURRENCY must be auto, or a whole number from 1 to 256 (got "many").',
    ]);
    expect(problemsOf({ BRAND_COLOR: 'red' })).toEqual([
      'BRAND_COLOR must be a colour written #rrggbb (got "red").',
    ]);
    expect(problemsOf({ PUBLIC_URL: 'chat.example.com' })).toEqual([
      'PUBLIC_URL must be an absolute URL (https://…) (got "chat.example.com").',
    ]);
  });

  it('collects every problem, one sentence per bad variable, never JSON', () => {
    const problems = problemsOf({
      PORT: 'abc',
      LOG_LEVEL: 'loud',
      DATABASE_URL: 'mysql://root:hunter2@db/app',
      LOGIN_URL: 'ftp://jobs.example/login',
      SSO_SECRET: 'short',
      TRUST_PROXY: '2',
    });
    expect(problems).toHaveLength(6);
    expect(problems.map((problem) => problem.split(' ')[0])).toEqual([
      'PORT',
      'DATABASE_URL',
      'LOG_LEVEL',
      'TRUST_PROXY',
      'SSO_SECRET',
      'LOGIN_URL',
    ]);
    for (const problem of problems) {
      expect(problem).not.toMatch(/[{}[\]]|"code"|Invalid input/);
      expect(problem.split('\n')).toHaveLength(1);
    }
  });

  it('does not repeat a secret’s value', () => {
    const [database] = problemsOf({ DATABASE_URL: 'mysql://root:hunter2@db/app' });
    expect(database).toBe('DATABASE_URL must start with sqlite: or postgres://.');
    const [smtp] = problemsOf({ SMTP_URL: 'http://user:hunter2@mail' });
    expect(smtp).toMatch(/^SMTP_URL must/);
    expect(smtp).not.toContain('hunter2');
  });

  it('checks the rest with a bad variable’s default in its place', () => {
    // WEB_CONCURRENCY is bad, so the workers' need of Redis is not claimed; PORT's default is used
    expect(
      problemsOf({ WEB_CONCURRENCY: 'x', PORT: '-1', BRAND_LOGO_URL: 'http://x/l.png' }),
    ).toEqual([
      'PORT must be a whole number from 0 to 65535 (got "-1").',
      'WEB_CONCURRENCY must be auto, or a whole number from 1 to 256 (got "x").',
      expect.stringMatching(/^BRAND_LOGO_URL must be an https: address/),
    ]);
  });
});

describe('variables that look like the server’s but are not', () => {
  it('are named, with the setting meant', () => {
    expect(
      unknownSettingWarnings({
        INTEGRATION_KEY: 'k',
        SMTP_ULR: 'smtp://mail',
        SMTP_HOST: 'mail.example',
        WS_MAX_CONNECTION: '10',
        SEND_RATE_BURSTS: '3',
        DATABSE_URL: 'sqlite:x',
        port: '3000',
      }),
    ).toEqual([
      'DATABSE_URL is not a setting of this server: did you mean DATABASE_URL?',
      'INTEGRATION_KEY is not a setting of this server: did you mean INTEGRATION_KEYS?',
      'SEND_RATE_BURSTS is not a setting of this server: did you mean SEND_RATE_BURST?',
      'SMTP_HOST is not a setting of this server: did you mean SMTP_URL?',
      'SMTP_ULR is not a setting of this server: did you mean SMTP_URL?',
      'WS_MAX_CONNECTION is not a setting of this server: did you mean WS_MAX_CONNECTIONS?',
      'port is not a setting of this server: did you mean PORT?',
    ]);
  });

  it('leave the settings themselves and other programs’ variables alone', () => {
    const others = {
      PATH: '/usr/bin',
      HOME: '/home/me',
      HOSTNAME: 'box',
      PWD: '/',
      USER: 'me',
      LOGNAME: 'me',
      MAIL: '/var/mail/me',
      MAILDIR: '~/Maildir',
      LANG: 'C.UTF-8',
      TERM: 'xterm',
      SHELL: '/bin/sh',
      TMPDIR: '/tmp',
      NODE_OPTIONS: '--max-old-space-size=512',
      NODE_PATH: '/lib',
      NODE_VERSION: '24',
      npm_config_cache: '/tmp/npm',
      npm_lifecycle_event: 'start',
      CI: 'true',
      TEST_POSTGRES_URL: 'postgres://x',
      TEST_REDIS_URL: 'redis://x',
      TEST_SERVER_WORKERS: '2',
      VITEST_POOL_ID: '1',
      AWS_REGION: 'eu-west-1',
      API_KEY: 'other',
      APP_ENV: 'prod',
      REDIS_HOST: 'redis',
      DATABASE_HOST: 'db',
      PGHOST: 'db',
    };
    const settings = {
      PORT: '3000',
      INTEGRATION_KEYS: 'k',
      SMTP_URL: 'smtp://m',
      WS_PONG_TIMEOUT: '3',
    };
    expect(unknownSettingWarnings({ ...others, ...settings })).toEqual([]);
  });

  it('are looked for only under prefixes of the server’s own settings', () => {
    for (const prefix of OWN_PREFIXES)
      expect(
        SETTING_NAMES.some((name) => name.startsWith(prefix)),
        prefix,
      ).toBe(true);
  });

  it('measure misspellings in letters', () => {
    expect(editDistance('INTEGRATION_KEY', 'INTEGRATION_KEYS')).toBe(1);
    expect(editDistance('SMTP_ULR', 'SMTP_URL')).toBe(2);
    expect(editDistance('HOME', 'HOST')).toBe(2);
    expect(editDistance('', 'PORT')).toBe(4);
  });
});
