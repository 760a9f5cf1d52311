import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../app.js';
import { randomToken } from '../lib/crypto.js';
import { loadConfig, type Config } from '../config.js';
import type { DialectName } from '../db/database.js';
import { DEMO_PASSWORD, seedDemo } from '../db/seed.js';
import type { Realtime } from '../realtime/index.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

export const APP_KEY = 'test-app-key';

export interface TestContext {
  app: FastifyInstance;
  realtime: Realtime;
  database: TestDatabase;
  config: Config;
  close: () => Promise<void>;
}

/** The real app on a fresh, migrated and seeded database; requests go through `app.inject()`. */
export const createTestApp = async (
  dialect: DialectName,
  overrides: Record<string, string | undefined> = {},
): Promise<TestContext> => {
  const database = await createTestDatabase(dialect);
  await seedDemo(database.db);
  const config = loadConfig({
    APP_KEY: APP_KEY,
    LOG_LEVEL: 'silent',
    DEMO_SEED: 'on',
    REDIS_URL: '',
    ...overrides,
  });
  const { app, realtime } = await buildApp({ config, db: database.db });
  await app.ready();
  return {
    app,
    realtime,
    database,
    config,
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
};

const withKey = (url: string, key = APP_KEY) =>
  `${url}${url.includes('?') ? '&' : '?'}key=${key}&token=`;

export interface Session {
  user: { id: number; name: string; role: string };
  cookies: Record<string, string>;
  csrf: string;
  /** A messaging call with the app key, the session cookie and the CSRF header. */
  call: (
    method: 'GET' | 'POST',
    url: string,
    body?: unknown,
    headers?: Record<string, string>,
  ) => Promise<LightMyRequestResponse>;
}

const cookiesOf = (response: LightMyRequestResponse): Record<string, string> =>
  Object.fromEntries(response.cookies.map((cookie) => [cookie.name, cookie.value]));

/**
 * Signs in as a browser would (XSRF-TOKEN cookie echoed in X-XSRF-TOKEN; the cookie is what the login
 * page sets, made up here so API tests do not need the built client) and returns a session helper.
 */
export const signIn = async (
  app: FastifyInstance,
  email: string,
  password = DEMO_PASSWORD,
): Promise<Session> => {
  const xsrf = randomToken(24);
  const response = await app.inject({
    method: 'POST',
    url: '/login',
    payload: { email, password },
    cookies: { 'XSRF-TOKEN': xsrf },
    headers: { 'x-xsrf-token': xsrf },
  });
  if (response.statusCode !== 200)
    throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  const cookies = cookiesOf(response);
  const csrf = cookies['XSRF-TOKEN'] ?? '';
  const session: Session = {
    user: (response.json() as { user: Session['user'] }).user,
    cookies,
    csrf,
    call: (method, url, body, headers = {}) => {
      const options: InjectOptions = {
        method,
        url: withKey(url),
        cookies,
        headers: { 'x-xsrf-token': csrf, ...headers },
      };
      if (body !== undefined) options.payload = body as InjectOptions['payload'];
      return app.inject(options);
    },
  };
  return session;
};

export { withKey };
