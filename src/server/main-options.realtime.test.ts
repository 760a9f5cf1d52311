import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from '../../test-support/server-process.js';
import { SETTING_NAMES } from './config.js';

const MAIN = resolve(import.meta.dirname, '../../dist/server/main.js');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The built main.js with these arguments, in an environment of only these variables (and PATH),
 * from `cwd`: how it exits and what it printed.
 */
const runMain = (args: string[], env: Record<string, string>, cwd: string): Promise<Run> =>
  new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolveRun({ code, stdout, stderr }));
  });

/** Addresses that fail if anything tries them: a database file under a folder that does not exist, ports nobody listens on. */
const untouchable = (sandbox: string) => ({
  DATABASE_URL: `sqlite:${join(sandbox, 'never', 'messenger.db')}`,
  STORAGE_URL: `file:${join(sandbox, 'never-uploads')}`,
  MAIL_DIR: join(sandbox, 'never-mail'),
  REDIS_URL: 'redis://127.0.0.1:1',
});

describe('main.js --help and --check', () => {
  const sandbox = mkdtempSync(join(tmpdir(), 'main-options-'));
  afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

  it('--help (and -h) prints every setting and exits 0, touching nothing', async () => {
    for (const flag of ['--help', '-h']) {
      const run = await runMain([flag], untouchable(sandbox), sandbox);
      expect(run.code).toBe(0);
      expect(run.stderr).toBe('');
      for (const name of SETTING_NAMES)
        expect(run.stdout).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
      expect(run.stdout).toMatch(/^ {2}PORT +default: 3000$/m);
      expect(run.stdout).not.toContain('Messenger is running');
    }
    // no database, uploads or e-mail folder was made, in the sandbox or under ./data
    expect(readdirSync(sandbox)).toEqual([]);
  });

  it('--help does not mind a bad environment', async () => {
    const run = await runMain(['--help'], { PORT: 'abc' }, sandbox);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('PORT');
  });

  it('--check says the configuration is valid and what is on, without connecting anywhere', async () => {
    const key = randomBytes(32).toString('hex');
    const run = await runMain(
      ['--check'],
      {
        ...untouchable(sandbox),
        DATABASE_URL: 'postgres://nobody:hunter2@127.0.0.1:1/none',
        INTEGRATION_KEYS: `${key},${randomBytes(32).toString('hex')}`,
        SMTP_URL: 'smtp://mailer:hunter2@127.0.0.1:1',
        METRICS_PORT: '9464',
      },
      sandbox,
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^The configuration is valid\.$/m);
    expect(run.stdout).toMatch(/^ +integration API: +on \(2 keys\)$/m);
    expect(run.stdout).toMatch(/^ +database: +PostgreSQL at 127\.0\.0\.1:1\/none$/m);
    expect(run.stdout).toMatch(/^ +Redis: +on at 127\.0\.0\.1:1$/m);
    expect(run.stdout).toMatch(/^ +e-mail: +sent through SMTP at 127\.0\.0\.1:1$/m);
    expect(run.stdout).toMatch(/^ +metrics: +on port 9464$/m);
    expect(run.stdout).not.toContain('hunter2');
    expect(run.stdout).not.toContain(key);
    expect(readdirSync(sandbox)).toEqual([]);
  });

  it('--check shows look-alike variables as warnings and still exits 0', async () => {
    const run = await runMain(
      ['--check'],
      { ...untouchable(sandbox), INTEGRATION_KEY: 'k', HOME: '/home/me', NODE_OPTIONS: '' },
      sandbox,
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      'INTEGRATION_KEY is not a setting of this server: did you mean INTEGRATION_KEYS?',
    );
    expect(run.stdout).not.toMatch(/HOME|NODE_OPTIONS/);
  });

  it('--check exits 1 naming every bad variable in a sentence of its own, never JSON', async () => {
    const run = await runMain(
      ['--check'],
      { ...untouchable(sandbox), PORT: 'abc', BRAND_COLOR: 'blue', WEB_CONCURRENCY: '0' },
      sandbox,
    );
    expect(run.code).toBe(1);
    const lines = run.stderr.split('\n').map((line) => line.trim());
    expect(lines).toContain('PORT must be a whole number from 0 to 65535 (got "abc").');
    expect(lines).toContain('BRAND_COLOR must be a colour written #rrggbb (got "blue").');
    expect(lines).toContain(
      'WEB_CONCURRENCY must be auto, or a whole number from 1 to 256 (got "0").',
    );
    expect(run.stderr).not.toMatch(/[{}[\]]/);
    expect(readdirSync(sandbox)).toEqual([]);
  });

  it('refuses an option it does not know', async () => {
    const run = await runMain(['--serve-faster'], untouchable(sandbox), sandbox);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--help');
    expect(readdirSync(sandbox)).toEqual([]);
  });
});

describe('starting the server', () => {
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.stop();
  });

  it('with a bad environment, says what is wrong in the same sentences and exits 1', async () => {
    const sandbox = mkdtempSync(join(tmpdir(), 'main-start-'));
    const run = await runMain(
      [],
      { ...untouchable(sandbox), PORT: 'abc', LOG_LEVEL: 'loud' },
      sandbox,
    );
    expect(run.code).toBe(1);
    const lines = run.stderr.split('\n').map((line) => line.trim());
    expect(lines).toContain('PORT must be a whole number from 0 to 65535 (got "abc").');
    expect(lines).toContain(
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud").',
    );
    expect(run.stderr).not.toMatch(/[{}[\]]/);
    expect(existsSync(join(sandbox, 'never'))).toBe(false);
    rmSync(sandbox, { recursive: true, force: true });
  });

  it('warns about look-alike variables and names what is on, without its secrets', async () => {
    const key = randomBytes(32).toString('hex');
    const ssoSecret = randomBytes(32).toString('hex');
    const webhookSecret = `whsec_${randomBytes(32).toString('base64')}`;
    server = await startServer({
      env: {
        DEMO_SEED: 'off',
        INTEGRATION_KEYS: key,
        INTEGRATION_KEY: key,
        SSO_SECRET: ssoSecret,
        WEBHOOK_URL: 'http://127.0.0.1:9/hooks/private-path',
        WEBHOOK_SECRET: webhookSecret,
        LOGIN_URL: 'https://jobs.example/login',
        EMBED_ORIGINS: 'https://jobs.example',
      },
    });
    const output = server.output();
    expect(output).toContain(
      'INTEGRATION_KEY is not a setting of this server: did you mean INTEGRATION_KEYS?',
    );
    expect(output).toMatch(/^ +integration API: +on \(1 key\)$/m);
    expect(output).toMatch(/^ +sign-in links: +on \(\/sso\)$/m);
    expect(output).toMatch(/^ +sign-in page: +https:\/\/jobs\.example\/login$/m);
    expect(output).toMatch(/^ +webhooks: +on, to 127\.0\.0\.1:9$/m);
    expect(output).toMatch(/^ +e-mail: +written as \.eml files in .+ \(no SMTP_URL\)$/m);
    expect(output).toMatch(/^ +reply by e-mail: +off \(not available yet\)$/m);
    expect(output).toMatch(/^ +embedding: +on, for https:\/\/jobs\.example \(\/embed\.js\)$/m);
    expect(output).toMatch(/^ +workers: +\d+$/m);
    expect(output).toMatch(/^ +storage: +files in /m);
    expect(output).toMatch(/^ +database: +SQLite file /m);
    for (const secret of [key, ssoSecret, webhookSecret, 'private-path'])
      expect(output).not.toContain(secret);
    expect(await server.stop()).toBe(0);
    server = undefined;
  });
});
