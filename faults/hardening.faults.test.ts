/**
 * What an attacker found in the running server (issue "Hardening"), kept fixed: demo accounts in a
 * database with real users, the published broadcaster secret, sign-in throttling that one address
 * could turn against everyone behind it, tokens that never died, generous send limits not shared
 * between instances, and headers built from the request. Each test failed on the code before the fix.
 */
import { randomBytes } from 'node:crypto';
import SqliteDatabase from 'better-sqlite3';
import { SignJWT } from 'jose';
import { hashPassword } from '../src/server/lib/crypto.js';
import { loadConfig } from '../src/server/config.js';
import { CHAT_MESSAGE_EVENT, userChannelName } from '../src/shared/events.js';
import { paths } from '../src/shared/paths.js';
import { signChannel } from '../src/server/realtime/signatures.js';
import { DEMO } from '../test-support/accounts.js';
import {
  postLogin,
  requestToken,
  signInOverHttp,
  tokenCall,
} from '../test-support/http-session.js';
import { conversationWith, sendMessage, uploadFile } from '../test-support/messaging.js';
import { pusherSocketUrl, RawSocket } from '../test-support/raw-socket.js';
import { uniqueAppId } from '../test-support/server-process.js';
import { settings } from '../test-support/settings.js';
import { closeAllLiveClients } from './support/live-client.js';
import { freshSqlite, type FaultDatabase } from './support/databases.js';
import { postTrigger, signTrigger } from './support/pusher-http.js';
import { pusherKey, startFaultServer, stopServer, type ServerProcess } from './support/servers.js';

const PUBLISHED_SECRET = 'local-pusher-secret';

const databases: FaultDatabase[] = [];
const servers: ServerProcess[] = [];
const fresh = (): FaultDatabase => {
  const database = freshSqlite();
  databases.push(database);
  return database;
};
const start = async (options: Parameters<typeof startFaultServer>[0]) => {
  const server = await startFaultServer(options);
  servers.push(server);
  return server;
};
const stop = async (server: ServerProcess) => {
  await stopServer(server);
  servers.splice(servers.indexOf(server), 1);
};

afterAll(async () => {
  await closeAllLiveClients();
  await Promise.all(servers.map((server) => stopServer(server)));
  await Promise.all(databases.map((database) => database.drop()));
});

const loginAttempt = (
  baseUrl: string,
  email: string,
  password: string,
  headers: Record<string, string> = {},
) => postLogin(baseUrl, { email, password }, headers);

describe('1. demo accounts never land in a database with real users', () => {
  test('a production server on SQLite with one real user, restarted without DEMO_SEED, gains no demo account', async () => {
    const database = fresh();
    // First start: nothing seeded (DEMO_SEED=off), the schema is migrated. Then a real user signs up.
    const first = await start({ databaseUrl: database.url, env: { DEMO_SEED: 'off' } });
    await stop(first);
    const file = database.url.slice('sqlite:'.length);
    const sqlite = new SqliteDatabase(file);
    sqlite
      .prepare(
        'insert into users (role, name, email, password_hash, created_at) values (?, ?, ?, ?, ?)',
      )
      .run(
        'company',
        'Real Company',
        'hr@real.example',
        await hashPassword('real secret'),
        new Date().toISOString(),
      );
    sqlite.close();

    const restarts: Record<string, string>[] = [
      { NODE_ENV: 'production', DEMO_SEED: 'auto', PUSHER_SECRET: randomBytes(24).toString('hex') },
      { NODE_ENV: 'development', DEMO_SEED: 'auto' },
    ];
    for (const env of restarts) {
      const server = await start({ databaseUrl: database.url, env });
      try {
        expect((await fetch(`${server.url}${paths.demoAccounts}`)).status, env.NODE_ENV).toBe(404);
        expect((await loginAttempt(server.url, DEMO.owner, 'password')).status).toBe(401);
        expect((await loginAttempt(server.url, 'hr@real.example', 'real secret')).status).toBe(200);
        expect(server.output()).not.toMatch(/Demo accounts/);
      } finally {
        await stop(server);
      }
    }
    const check = new SqliteDatabase(file, { readonly: true });
    const emails = check.prepare('select email from users').all() as { email: string }[];
    check.close();
    expect(emails.map((row) => row.email)).toEqual(['hr@real.example']);
  });

  test('DEMO_SEED=on under production seeds, and says so loudly', async () => {
    const server = await start({
      databaseUrl: fresh().url,
      env: {
        NODE_ENV: 'production',
        DEMO_SEED: 'on',
        PUSHER_SECRET: randomBytes(24).toString('hex'),
      },
    });
    expect(server.output()).toMatch(/WARNING: DEMO_SEED=on under NODE_ENV=production/);
    expect((await fetch(`${server.url}${paths.demoAccounts}`)).status).toBe(200);
    await stop(server);
  });
});

describe('2. the published broadcaster secret opens nothing', () => {
  let server: ServerProcess;
  const appId = uniqueAppId('faults');
  beforeAll(async () => {
    // No PUSHER_SECRET, not production: the case that used to fall back to the published default.
    server = await start({ databaseUrl: fresh().url, appId, env: { NODE_ENV: 'development' } });
  });

  test('a subscription to another user’s channel signed with it is refused, and nothing is heard', async () => {
    const victim = await signInOverHttp(server.url, DEMO.candidate);
    const sender = await signInOverHttp(server.url, DEMO.company);
    const key = await pusherKey(server);
    const attacker = await RawSocket.open(pusherSocketUrl(server.port, key));
    const channel = userChannelName(victim.userId);
    const forged = signChannel({ key, secret: PUBLISHED_SECRET }, attacker.socketId, channel);
    const answer = await attacker.subscribe(channel, forged);
    expect(answer.event).toBe('pusher:subscription_error');
    expect(
      (await sendMessage(sender, await conversationWith(sender, victim.userId), 'private')).ok,
    ).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(attacker.eventsOn(channel)).toEqual([]);
    await attacker.close();
  });

  test('the trigger API refuses an event signed with it (401)', async () => {
    const victim = await signInOverHttp(server.url, DEMO.candidate2);
    const key = await pusherKey(server);
    const body = JSON.stringify({
      name: CHAT_MESSAGE_EVENT,
      channels: [userChannelName(victim.userId)],
      data: JSON.stringify({ chatMessage: { message: 'forged' } }),
    });
    // The app id is no secret (it is in every trigger URL); the published secret must not sign.
    const forged = signTrigger({ appId, key, secret: PUBLISHED_SECRET }, body);
    expect((await postTrigger(server.url, forged)).status).toBe(401);
  });

  test('the server refuses to start with the published secret, in any environment', async () => {
    expect(() => loadConfig({ PUSHER_SECRET: PUBLISHED_SECRET, NODE_ENV: 'development' })).toThrow(
      /PUSHER_SECRET/,
    );
    await expect(
      startFaultServer({
        databaseUrl: fresh().url,
        env: { PUSHER_SECRET: PUBLISHED_SECRET },
      }).then((started) => {
        servers.push(started);
        return started;
      }),
    ).rejects.toThrow();
  });
});

describe('4 and 7. limits that one address cannot turn against others, shared by every instance', () => {
  let first: ServerProcess;
  let second: ServerProcess;
  beforeAll(async () => {
    const database = fresh();
    const env = {
      TRUST_PROXY: '127.0.0.1',
      LOGIN_FAILURES_PER_ADDRESS: '8',
      SEND_RATE_CONVERSATION_BURST: '4',
      SEND_RATE_CONVERSATION_PER_SECOND: '0.05',
    };
    const appId = uniqueAppId('faults');
    const redisUrl = settings.redisUrl;
    // One after the other: the first migrates and seeds, the second finds everything in place.
    first = await start({ databaseUrl: database.url, appId, redisUrl, env });
    second = await start({ databaseUrl: database.url, appId, redisUrl, env });
  });

  test('an account locked by failures from many addresses stays locked on every instance', async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 5; index += 1) {
      const target = index % 2 === 0 ? first : second;
      statuses.push(
        (
          await loginAttempt(target.url, DEMO.candidate2, `wrong-${index}`, {
            'x-forwarded-for': `198.51.100.${index + 1}`,
          })
        ).status,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    for (const target of [first, second]) {
      const right = await loginAttempt(target.url, DEMO.candidate2, 'password', {
        'x-forwarded-for': '203.0.113.9',
      });
      expect(right.status).toBe(429);
      expect(Number(right.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
  });

  test('an address that failed a lot does not keep the right password of someone else out', async () => {
    const office = { 'x-forwarded-for': '192.0.2.50' };
    const statuses: number[] = [];
    for (let index = 0; index < 12; index += 1)
      statuses.push(
        (await loginAttempt(first.url, `guess-${index}@example.com`, 'password1', office)).status,
      );
    expect(statuses.slice(0, 8).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(8)).toEqual([429, 429, 429, 429]);
    // The limit is shared: the other instance refuses the same address's next failure.
    expect((await loginAttempt(second.url, 'guess-x@example.com', 'p', office)).status).toBe(429);
    // A colleague behind the same address signs in.
    expect((await loginAttempt(second.url, DEMO.company2, 'password', office)).status).toBe(200);
  });

  test('a burst in one conversation is cut at its limit, over both instances together', async () => {
    const viaFirst = await signInOverHttp(first.url, DEMO.company);
    const viaSecond = await signInOverHttp(second.url, DEMO.company);
    const candidate = await signInOverHttp(first.url, DEMO.candidate);
    const conversation = await conversationWith(viaFirst, candidate.userId);
    const outcomes = [];
    for (let index = 0; index < 4; index += 1) {
      outcomes.push(await sendMessage(viaFirst, conversation, `burst A${index}`));
      outcomes.push(await sendMessage(viaSecond, conversation, `burst B${index}`));
    }
    const accepted = outcomes.filter((outcome) => outcome.ok).length;
    expect(accepted).toBe(4);
    for (const outcome of outcomes.filter((item) => !item.ok)) expect(outcome.status).toBe(429);
  });
});

describe('5. personal access tokens expire and can be revoked', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await start({ databaseUrl: fresh().url, env: { TOKENS_PER_USER: '2' } });
  });

  const issue = async (email: string) => {
    const response = await requestToken(server.url, { email, name: 'fault test' });
    return {
      status: response.status,
      token: ((await response.json()) as { token?: string }).token,
    };
  };
  const withToken = (token: string, method: string, path: string) =>
    tokenCall(server.url, token)(method, path);

  test('signing out with a token kills it; DELETE revokes one; a cap stops endless tokens', async () => {
    const { token: first } = await issue(DEMO.company);
    const { token: second } = await issue(DEMO.company);
    if (!first || !second) throw new Error('tokens not issued');
    expect(first.startsWith('jbm_pat_')).toBe(true);
    expect((await issue(DEMO.company)).status).toBe(422);

    const list = (await (await withToken(first, 'GET', paths.tokens)).json()) as {
      tokens: { id: number; name: string; expires_at: string }[];
    };
    expect(list.tokens).toHaveLength(2);
    expect(JSON.stringify(list)).not.toContain(first.slice(8));
    for (const item of list.tokens) expect(Date.parse(item.expires_at)).toBeGreaterThan(Date.now());

    expect((await withToken(first, 'POST', paths.logout)).status).toBe(204);
    expect((await withToken(first, 'GET', paths.initialData)).status).toBe(401);
    expect((await withToken(second, 'GET', paths.initialData)).status).toBe(200);

    const [remaining] = (
      (await (await withToken(second, 'GET', paths.tokens)).json()) as {
        tokens: { id: number }[];
      }
    ).tokens;
    expect((await withToken(second, 'DELETE', paths.token(remaining?.id ?? 0))).status).toBe(204);
    expect((await withToken(second, 'GET', paths.initialData)).status).toBe(401);
    expect((await issue(DEMO.company)).status).toBe(201);
  });
});

describe('8. headers do not trust the request', () => {
  test('/messenger/config comes from PUBLIC_URL with a cache lifetime; signed-in JSON is not stored; https gets HSTS', async () => {
    const server = await start({
      databaseUrl: fresh().url,
      env: { PUBLIC_URL: 'https://messages.jobs.example' },
    });
    const config = await fetch(`${server.url}${paths.config}`, {
      headers: { host: 'poisoned.example:1234' },
    });
    expect(config.headers.get('cache-control')).toMatch(/max-age=\d+/);
    expect(config.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
    const body = (await config.json()) as { broadcaster: Record<string, unknown> };
    expect(body.broadcaster).toMatchObject({
      wsHost: 'messages.jobs.example',
      wsPort: 443,
      forceTLS: true,
    });
    const session = await signInOverHttp(server.url, DEMO.candidate);
    const data = await session.call('GET', paths.initialData);
    expect(data.status).toBe(200);
    expect(data.headers.get('cache-control')).toBe('no-store');
    await stop(server);
  });
});

describe('10. issue 32: where sign-in sends you, who an address and a name can be, what a file may hold', () => {
  const SSO_SECRET = 'faults-sso-secret-0123456789abcdef-0123456789';
  const INTEGRATION_KEY = 'faults-integration-key-0123456789abcdef';
  let server: ServerProcess;
  beforeAll(async () => {
    server = await start({
      databaseUrl: fresh().url,
      env: { SSO_SECRET, INTEGRATION_KEYS: INTEGRATION_KEY },
    });
  });

  let links = 0;
  const mint = (claims: Record<string, unknown>) => {
    const iat = Math.floor(Date.now() / 1000);
    links += 1;
    return new SignJWT({ iat, exp: iat + 300, jti: randomBytes(12).toString('hex'), ...claims })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(new TextEncoder().encode(SSO_SECRET));
  };
  const follow = async (claims: Record<string, unknown>, next?: string) => {
    const query = next === undefined ? '' : `&next=${encodeURIComponent(next)}`;
    return fetch(`${server.url}${paths.sso}?token=${await mint(claims)}${query}`, {
      redirect: 'manual',
    });
  };
  const integration = (method: string, path: string, body?: unknown) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${INTEGRATION_KEY}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  const ESCAPES = [
    '/.//evil.example/phish',
    '/..//evil.example/phish',
    '/%2e//evil.example/phish',
    '/%2E%2E//evil.example/phish',
    '/a/..//evil.example/phish',
    '/a/b/../..//evil.example/phish',
    '/\\evil.example/phish',
    '/%5Cevil.example/phish',
    '/%2F/evil.example/phish',
    '/\t/evil.example/phish',
    '/\n/evil.example/phish',
    '//evil.example/phish',
    'https://evil.example/phish',
    'javascript:alert(1)',
  ];

  test('a valid link whose `next` (query or claim) would leave the site lands on /messages, signed in', async () => {
    for (const next of ESCAPES) {
      for (const [claims, query] of [
        [{ sub: `redirect-${links}`, role: 'candidate', name: 'Redirected' }, next],
        [
          { sub: `redirect-${links}`, role: 'candidate', name: 'Redirected', next },
          '/messages?tab=1',
        ],
      ] as const) {
        const response = await follow(claims, query);
        const where = response.headers.get('location') ?? '';
        expect(response.status, JSON.stringify(next)).toBe(303);
        expect(where, JSON.stringify(next)).toBe('/messages');
        expect(new URL(where, server.url).origin).toBe(new URL(server.url).origin);
        expect(response.headers.getSetCookie().join(';')).toContain('messenger_session=');
      }
    }
    // a path of this site, with dot segments, lands there normalized
    const local = await follow(
      { sub: 'redirect-local', role: 'candidate', name: 'Local' },
      '/a/%2e%2e/messages?tab=2',
    );
    expect(local.headers.get('location')).toBe('/messages?tab=2');
  });

  test('an e-mail address in another case is the same address; names with controls are refused, and so are links carrying them', async () => {
    const first = await integration('PUT', '/api/v1/users/case-1', {
      role: 'candidate',
      name: 'Lina',
      email: 'Lina7@Example.com',
    });
    expect(first.status).toBe(201);
    expect(((await first.json()) as { user: { email: string } }).user.email).toBe(
      'lina7@example.com',
    );
    const twin = await integration('PUT', '/api/v1/users/case-2', {
      role: 'candidate',
      name: 'Lina twin',
      email: 'LINA7@example.com',
    });
    expect(twin.status).toBe(422);
    expect(Object.keys(((await twin.json()) as { errors: object }).errors)).toEqual(['email']);

    for (const name of ['\u200b\u200b', 'Lina\nAdmin', 'Lina \u202eevil', '\u2066Lina']) {
      const response = await integration('PUT', '/api/v1/users/bad-name', {
        role: 'candidate',
        name,
      });
      expect(response.status, JSON.stringify(name)).toBe(422);
      const link = await follow({ sub: 'bad-name-link', role: 'candidate', name });
      expect(link.status, JSON.stringify(name)).toBe(401);
      expect(link.headers.getSetCookie()).toEqual([]);
    }
    expect((await integration('GET', '/api/v1/users/bad-name')).status).toBe(404);
    expect((await integration('GET', '/api/v1/users/bad-name-link')).status).toBe(404);
  });

  test('a change whose CSRF header matches a planted XSRF-TOKEN cookie, not the session’s, is refused (419)', async () => {
    const session = await signInOverHttp(server.url, DEMO.candidate);
    const planted = 'planted-by-a-sibling-subdomain-0123';
    const sessionOnly = session.cookie
      .split('; ')
      .find((part) => part.startsWith('messenger_session='));
    const refused = await fetch(`${server.url}${paths.logout}`, {
      method: 'POST',
      headers: { cookie: `${sessionOnly}; XSRF-TOKEN=${planted}`, 'x-xsrf-token': planted },
    });
    expect(refused.status).toBe(419);
    expect((await session.call('GET', paths.initialData)).status).toBe(200);
  });

  test('a text file with markup far past its first bytes is refused (422 html)', async () => {
    const session = await signInOverHttp(server.url, DEMO.candidate);
    const words = Buffer.alloc(500_000, 'Experience: five years. ');
    await expect(
      uploadFile(
        server.url,
        session,
        'cv.txt',
        Buffer.concat([words, Buffer.from('<details open ontoggle=alert(1)>')]),
      ),
    ).rejects.toThrow(/upload: 422 .*\(html\)/);
    expect(await uploadFile(server.url, session, 'cv.txt', words)).toBeGreaterThan(0);
  });
});
