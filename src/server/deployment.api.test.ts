/**
 * What a deployment gets from its configuration: demo mode only where it belongs, a broadcaster
 * secret nobody else knows, and the headers of a server facing the internet.
 */
import { afterEach, describe, expect, inject, it } from 'vitest';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { SETTING, readSetting } from './db/app-settings.js';
import { decideDemoSeed, isDemoMode } from './db/demo-mode.js';
import { seedDemo } from './db/seed.js';
import { hashPassword } from './lib/crypto.js';
import { ACME, SARA } from '../../test-support/accounts.js';
import { createTestDatabase, type TestDatabase } from '../../test-support/databases.js';
import { APP_KEY, signIn } from '../../test-support/test-app.js';
import { paths } from '../shared/paths.js';

const dialect = inject('database');
const base = { APP_KEY, LOG_LEVEL: 'silent', REDIS_URL: '' };

let databases: TestDatabase[] = [];
const freshDatabase = async () => {
  const database = await createTestDatabase(dialect);
  databases.push(database);
  return database;
};
afterEach(async () => {
  await Promise.all(databases.map((database) => database.drop()));
  databases = [];
});

const addRealUser = (database: TestDatabase) =>
  hashPassword('a real secret').then((hash) =>
    database.db.kysely
      .insertInto('users')
      .values({
        role: 'company',
        name: 'Real Company',
        email: 'hr@real.example',
        password_hash: hash,
        image_url: null,
        logo: null,
        created_at: new Date().toISOString(),
      })
      .execute(),
  );

describe(`demo mode (${dialect})`, () => {
  it('auto seeds an empty database outside production, and keeps it a demo at the next start', async () => {
    const database = await freshDatabase();
    const config = loadConfig({ ...base, DEMO_SEED: 'auto', NODE_ENV: 'development' });
    expect(await decideDemoSeed(config, database.db)).toEqual({ seed: true });
    await seedDemo(database.db);
    expect(await isDemoMode(config, database.db)).toBe(true);
    expect(await decideDemoSeed(config, database.db)).toEqual({ seed: true });
  });

  it('auto never seeds a database that holds users, nor anything under production', async () => {
    const database = await freshDatabase();
    await addRealUser(database);
    const development = loadConfig({ ...base, DEMO_SEED: 'auto', NODE_ENV: 'development' });
    expect((await decideDemoSeed(development, database.db)).seed).toBe(false);
    expect(await isDemoMode(development, database.db)).toBe(false);

    const empty = await freshDatabase();
    const production = loadConfig({
      ...base,
      DEMO_SEED: 'auto',
      NODE_ENV: 'production',
      PUSHER_SECRET: 'a-secret-of-this-deployment',
    });
    expect(await decideDemoSeed(production, empty.db)).toEqual({
      seed: false,
      reason: 'NODE_ENV=production',
    });
    // A demo database later run in production (auto) is not in demo mode either.
    await seedDemo(empty.db);
    expect(await isDemoMode(production, empty.db)).toBe(false);
  });

  it('on seeds in production only with a loud warning', async () => {
    const database = await freshDatabase();
    const production = loadConfig({
      ...base,
      DEMO_SEED: 'on',
      NODE_ENV: 'production',
      PUSHER_SECRET: 'a-secret-of-this-deployment',
    });
    const decision = await decideDemoSeed(production, database.db);
    expect(decision.seed).toBe(true);
    expect(decision.seed && decision.warning).toMatch(/production/);
  });

  it('outside demo mode there is no demo-accounts call and demo passwords do not work', async () => {
    const database = await freshDatabase();
    await addRealUser(database);
    const config = loadConfig({ ...base, DEMO_SEED: 'auto' });
    const { app } = await buildApp({ config, db: database.db });
    try {
      const response = await app.inject({ method: 'GET', url: paths.demoAccounts });
      expect(response.statusCode).toBe(404);
      const users = await database.db.kysely.selectFrom('users').select('email').execute();
      expect(users.map((user) => user.email)).toEqual(['hr@real.example']);
    } finally {
      await app.close();
    }
  });
});

describe(`broadcaster secret (${dialect})`, () => {
  it('is generated on first start, kept in the database and shared by every instance', async () => {
    const database = await freshDatabase();
    await seedDemo(database.db);
    const config = loadConfig({ ...base, DEMO_SEED: 'on' });
    expect(config.pusher.secret).toBeUndefined();
    const first = await buildApp({ config, db: database.db });
    const second = await buildApp({ config, db: database.db });
    try {
      const secret = await readSetting(database.db.kysely, SETTING.pusherSecret);
      expect(secret).toMatch(/^[\w-]{40,}$/);
      // Both instances sign a subscription the same way, with the stored secret.
      const session = await signIn(first.app, SARA.email);
      const body = { socket_id: '123.456', channel_name: `private-chat.${session.user.id}` };
      const signed = await Promise.all(
        [first.app, second.app].map(async (app) =>
          (
            await app.inject({
              method: 'POST',
              url: paths.broadcastingAuth,
              payload: body,
              cookies: session.cookies,
              headers: { 'x-xsrf-token': session.csrf },
            })
          ).json(),
        ),
      );
      expect(signed[0]).toEqual(signed[1]);
      const { signChannel } = await import('./realtime/signatures.js');
      expect(signed[0].auth).toBe(
        signChannel(
          { key: config.pusher.key, secret: String(secret) },
          '123.456',
          body.channel_name,
        ),
      );
    } finally {
      await first.app.close();
      await second.app.close();
    }
  });

  it('refuses the published default secret in every environment', () => {
    for (const NODE_ENV of ['development', 'test', 'production'])
      expect(() => loadConfig({ ...base, NODE_ENV, PUSHER_SECRET: 'local-pusher-secret' })).toThrow(
        /PUSHER_SECRET/,
      );
  });
});

describe(`headers of a public deployment (${dialect})`, () => {
  it('sends HSTS under https, no-store on signed-in JSON, and the live endpoint from PUBLIC_URL', async () => {
    const database = await freshDatabase();
    await seedDemo(database.db);
    const config = loadConfig({
      ...base,
      DEMO_SEED: 'on',
      PUBLIC_URL: 'https://chat.jobs.example',
    });
    const { app } = await buildApp({ config, db: database.db });
    try {
      const publicConfig = await app.inject({
        method: 'GET',
        url: paths.config,
        headers: { host: 'attacker.example:8080' },
      });
      expect(publicConfig.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      expect(publicConfig.json().broadcaster).toMatchObject({
        wsHost: 'chat.jobs.example',
        wsPort: 443,
        wssPort: 443,
        forceTLS: true,
      });
      const session = await signIn(app, ACME.email);
      expect(session.cookies).toBeTruthy();
      const data = await session.call('GET', paths.initialData);
      expect(data.statusCode).toBe(200);
      expect(data.headers['cache-control']).toBe('no-store');
      expect(data.headers['strict-transport-security']).toBeTruthy();
    } finally {
      await app.close();
    }
  });

  /** The sources of the CSP's `img-src` on the messages page. */
  const imageSourcesOfPage = async (overrides: Record<string, string>) => {
    const database = await freshDatabase();
    await seedDemo(database.db);
    const { app } = await buildApp({
      config: loadConfig({ ...base, DEMO_SEED: 'on', ...overrides }),
      db: database.db,
    });
    try {
      const session = await signIn(app, SARA.email);
      const page = await app.inject({ method: 'GET', url: '/messages', cookies: session.cookies });
      const csp = String(page.headers['content-security-policy']);
      const directive = csp
        .split(';')
        .map((part) => part.trim())
        .find((part) => part.startsWith('img-src '));
      return directive?.split(' ').slice(1) ?? [];
    } finally {
      await app.close();
    }
  };

  it('lets the host’s photos (image_url on another origin) load on the page: any https address unless IMAGE_ORIGINS narrows it', async () => {
    expect(await imageSourcesOfPage({})).toEqual(["'self'", 'data:', 'blob:', 'https:']);
    expect(
      await imageSourcesOfPage({
        IMAGE_ORIGINS: 'https://cdn.jobs.example, https://img.jobs.example:8443/',
      }),
    ).toEqual([
      "'self'",
      'data:',
      'blob:',
      'https://cdn.jobs.example',
      'https://img.jobs.example:8443',
    ]);
  });
});
