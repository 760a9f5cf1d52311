import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, {
  type FastifyInstance,
  type InjectOptions,
  type LightMyRequestResponse,
} from 'fastify';
import { afterEach } from 'vitest';
import { buildApp, type App, type BuildAppOptions } from '../src/server/app.js';
import { loadConfig, type Config } from '../src/server/config.js';
import type { DialectName } from '../src/server/db/database.js';
import { seedDemo } from '../src/server/db/seed.js';
import { XSRF_COOKIE } from '../src/server/plugins/auth.js';
import { createRealtime } from '../src/server/realtime/create-realtime.js';
import type { Realtime, RealtimeOptions } from '../src/server/realtime/index.js';
import { paths } from '../src/shared/paths.js';
import { DEMO_PASSWORD } from './accounts.js';
import { createTestDatabase, type TestDatabase } from './databases.js';
import { withKey } from './http-session.js';
import { assertExchangesMatchDocument, createExchangeRecorder } from './openapi-contract.js';
import { disconnectPusher, type PusherJs } from './pusher-js.js';
import { pusherSocketUrl, RawSocket } from './raw-socket.js';
import { pusherCredentials, sandboxedDefaults, UNLIMITED_SENDING } from './server-process.js';

/** In-process apps: the whole product (requests through `app.inject()`), and the live endpoint alone. */

export const APP_KEY = 'test-app-key';

export interface TestContext {
  app: FastifyInstance;
  realtime: Realtime;
  /** The durable outbox and this app's worker. */
  outbox: App['outbox'];
  /** Readiness (`beginDraining` as a stop does). */
  health: App['health'];
  metrics: App['metrics'];
  database: TestDatabase;
  config: Config;
  close: () => Promise<void>;
}

/**
 * The real app on a fresh, migrated and seeded database. Closing it fails (throws) when a request
 * answered 2xx, or its answer, does not match the OpenAPI document (test-support/openapi-contract.ts).
 */
export const createTestApp = async (
  dialect: DialectName,
  overrides: Record<string, string | undefined> = {},
  options: Pick<BuildAppOptions, 'webRoot' | 'onRoute' | 'startOutboxWorker'> = {},
): Promise<TestContext> => {
  const database = await createTestDatabase(dialect);
  await seedDemo(database.db);
  // uploads and e-mails of its own (the sweep of unused files must never see a developer's
  // ./data/uploads, and no test e-mail lands in ./data/mail)
  const sandbox = mkdtempSync(join(tmpdir(), 'messenger-app-'));
  const config = loadConfig({
    // (the app gets its database directly; DATABASE_URL is not read here)
    STORAGE_URL: sandboxedDefaults(sandbox).STORAGE_URL,
    MAIL_DIR: sandboxedDefaults(sandbox).MAIL_DIR,
    APP_KEY: APP_KEY,
    LOG_LEVEL: 'silent',
    DEMO_SEED: 'on',
    REDIS_URL: '',
    // Tests that are not about rate limits send hundreds of messages at once; those that are set their own.
    ...UNLIMITED_SENDING,
    ...overrides,
  });
  // Every 2xx exchange is recorded and, when the app closes, checked against the OpenAPI document.
  const recorder = createExchangeRecorder();
  const { app, realtime, outbox, health, metrics } = await buildApp({
    config,
    db: database.db,
    ...(options.webRoot === undefined ? {} : { webRoot: options.webRoot }),
    ...(options.startOutboxWorker === undefined
      ? {}
      : { startOutboxWorker: options.startOutboxWorker }),
    onRoute: (route) => {
      options.onRoute?.(route);
      recorder.instrument(route);
    },
  });
  await app.ready();
  return {
    app,
    realtime,
    outbox,
    health,
    metrics,
    database,
    config,
    close: async () => {
      await app.close();
      await database.drop();
      rmSync(sandbox, { recursive: true, force: true });
      assertExchangesMatchDocument(recorder.exchanges);
    },
  };
};

/** The test app listening on a free port of 127.0.0.1 (for real sockets); its base URL. */
export const listen = async (app: FastifyInstance): Promise<string> => {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
};

export interface Session {
  user: { id: number; name: string; role: string };
  cookies: Record<string, string>;
  csrf: string;
  /** A messaging call with the app key, the session cookie and the CSRF header. */
  call: (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
    headers?: Record<string, string>,
  ) => Promise<LightMyRequestResponse>;
}

const cookiesOf = (response: LightMyRequestResponse): Record<string, string> =>
  Object.fromEntries(response.cookies.map((cookie) => [cookie.name, cookie.value]));

/** A messaging call's URL for the test app (its APP_KEY unless told). */
export const withTestKey = (url: string, key = APP_KEY): string => withKey(url, key);

/**
 * Signs in as a browser would (XSRF-TOKEN cookie echoed in X-XSRF-TOKEN; the cookie is what the login
 * page sets, made up here so API tests do not need the built client) and returns a session helper.
 */
export const signIn = async (
  app: FastifyInstance,
  email: string,
  password = DEMO_PASSWORD,
): Promise<Session> => {
  const xsrf = randomBytes(18).toString('base64url');
  const response = await app.inject({
    method: 'POST',
    url: paths.login,
    payload: { email, password },
    cookies: { [XSRF_COOKIE]: xsrf },
    headers: { 'x-xsrf-token': xsrf },
  });
  if (response.statusCode !== 200)
    throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  const cookies = cookiesOf(response);
  const csrf = cookies[XSRF_COOKIE] ?? '';
  return {
    user: (response.json() as { user: Session['user'] }).user,
    cookies,
    csrf,
    call: (method, url, body, headers = {}) => {
      const options: InjectOptions = {
        method,
        url: withTestKey(url),
        cookies,
        headers: { 'x-xsrf-token': csrf, ...headers },
      };
      if (body !== undefined) options.payload = body as InjectOptions['payload'];
      return app.inject(options);
    },
  };
};

/** A personal access token of a demo account (`POST /api/tokens`), for Bearer or `token=` calls. */
export const issueToken = async (
  app: FastifyInstance,
  email: string,
  password = DEMO_PASSWORD,
): Promise<string> => {
  const response = await app.inject({
    method: 'POST',
    url: paths.tokens,
    payload: { email, password },
  });
  if (response.statusCode !== 201)
    throw new Error(`token not issued: ${response.statusCode} ${response.body}`);
  return (response.json() as { token: string }).token;
};

/** The Origin the realtime instances allow. */
export const TEST_ORIGIN = 'http://app.test';

export interface Instance {
  app: FastifyInstance;
  realtime: Realtime;
  options: RealtimeOptions;
  port: number;
  /** The app key its sockets open with. */
  key: string;
  socketUrl: (key?: string) => string;
  close: () => Promise<void>;
}

/** The live endpoint alone: a Fastify server with the trigger routes and the websocket endpoint. */
export const startInstance = async (
  overrides: Partial<RealtimeOptions> & { port?: number } = {},
): Promise<Instance> => {
  const { port: wantedPort, ...rest } = overrides;
  const options: RealtimeOptions = {
    ...pusherCredentials(),
    allowedOrigins: [TEST_ORIGIN],
    activityTimeoutSeconds: 30,
    pongTimeoutSeconds: 30,
    ...rest,
  };
  const realtime = createRealtime(options);
  const app = Fastify({ logger: false });
  await app.register(realtime.triggerRoutes);
  realtime.attach(app.server);
  await app.listen({ port: wantedPort ?? 0, host: '127.0.0.1' });
  await realtime.ready();
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const port = address.port;
  let closed = false;
  return {
    app,
    realtime,
    options,
    port,
    key: options.key,
    socketUrl: (key = options.key) => pusherSocketUrl(port, key),
    close: async () => {
      if (closed) return;
      closed = true;
      await realtime.close();
      await app.close();
    },
  };
};

/**
 * Realtime instances and their clients for one test file, closed after each test: the clients
 * first (newest first), then the instances.
 */
export const useRealtimeInstances = () => {
  const clients: (() => unknown)[] = [];
  const servers: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const close of clients.splice(0).reverse()) await close();
    for (const close of servers.splice(0)) await close();
  });
  const track = <T extends { close(): unknown }>(thing: T): T => {
    clients.push(() => thing.close());
    return thing;
  };
  return {
    start: async (overrides: Parameters<typeof startInstance>[0] = {}): Promise<Instance> => {
      const instance = await startInstance(overrides);
      servers.push(() => instance.close());
      return instance;
    },
    /** A client (raw socket, …) closed after the test. */
    track,
    /** A pusher-js client disconnected after the test. */
    trackPusher: (pusher: PusherJs): PusherJs => {
      clients.push(() => disconnectPusher(pusher));
      return pusher;
    },
    /** A raw socket on `instance` subscribed to `channel` (signed by `signer`, the instance unless told). */
    subscriber: async (instance: Instance, channel: string, signer: Instance = instance) => {
      const socket = track(await RawSocket.open(instance.socketUrl()));
      const answer = await socket.subscribe(
        channel,
        signer.realtime.authorizeChannel(socket.socketId, channel).auth,
      );
      if (answer.event !== 'pusher_internal:subscription_succeeded')
        throw new Error(`subscription to ${channel} refused: ${JSON.stringify(answer)}`);
      return socket;
    },
  };
};
