/**
 * Bad input against the real server process, on SQLite and on PostgreSQL: ids of 2^31 and more,
 * socket ids of more than 20 digits a part, NUL characters, messages of only invisible characters
 * and replayed trigger requests each get a 4xx and store nothing; then property-based fuzzing
 * (fast-check) throws random bodies, path ids and query strings at every route and expects no 5xx
 * and a server that stays up.
 *
 * Seeded: the seed is printed; `FUZZ_SEED=<seed> npx vitest run --project faults
 * faults/input-fuzz.faults.test.ts` replays a run. `FUZZ_RUNS` changes the runs per route.
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { CHAT_MESSAGE_EVENT, userChannelName } from '../src/shared/events.js';
import { paths } from '../src/shared/paths.js';
import { DEMO } from '../test-support/accounts.js';
import {
  authorizeOverHttp,
  DEFAULT_APP_KEY,
  requestToken,
  signInOverHttp,
  type HttpSession,
} from '../test-support/http-session.js';
import {
  conversationOf,
  conversationRecord,
  initialData,
  newClientId,
  type Conversation,
} from '../test-support/messaging.js';
import { pusherSocketUrl, RawSocket } from '../test-support/raw-socket.js';
import { pusherCredentials } from '../test-support/server-process.js';
import { sleep } from '../test-support/wait.js';
import { freshDatabase, type FaultDatabase } from './support/databases.js';
import { postTrigger, signTrigger, type PusherCredentials } from './support/pusher-http.js';
import { isAlive, startFaultServer, stopServer, type ServerProcess } from './support/servers.js';

const SEED = Number(process.env.FUZZ_SEED ?? randomBytes(4).readUInt32BE(0) % 2 ** 31);
const RUNS = Number(process.env.FUZZ_RUNS ?? 100);
console.log(`input fuzz: seed ${SEED}, ${RUNS} runs per route (FUZZ_SEED=${SEED} to replay)`);

const TWO_31 = 2 ** 31;

/** A value as it would appear in a path or a query string. */
const asText = (value: unknown): string =>
  typeof value === 'string' ? value : (JSON.stringify(value) ?? '');

/** encodeURIComponent that also takes lone surrogates (sent as the invalid UTF-8 they would be). */
const encode = (text: string): string =>
  [...text]
    .map((char) => (/^[\ud800-\udfff]$/.test(char) ? '%ED%A0%80' : encodeURIComponent(char)))
    .join('');

// ---------------------------------------------------------------------------
// Arbitraries
// ---------------------------------------------------------------------------

/** Characters that break things: NUL, zero-width, bidi, soft hyphen, lone surrogates, escapes. */
const NASTY_CHARS = [
  '\u0000',
  '\u0001',
  '\u001f',
  '\u007f',
  '\u200b',
  '\u200c',
  '\u200d',
  '\u200e',
  '\u200f',
  '\u202a',
  '\u202e',
  '\u2060',
  '\u2066',
  '\u2069',
  '\u061c',
  '\ufeff',
  '\u00ad',
  '\u2800',
  '\u3164',
  '\ud800',
  '\udfff',
  '\u{e0001}',
  ' ',
  '\n',
  '\t',
  'a',
  'م',
  '😀',
  '%',
  '\\',
  '"',
  "'",
  '<',
  '.',
  '0',
  '9',
];

const nastyString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.array(fc.constantFrom(...NASTY_CHARS), { maxLength: 30 }).map((chars) => chars.join('')),
  fc.constantFrom('', ' ', '\u0000', '\u200b\u200f', 'null', 'true', '[]', '{}', '1e3', '-0'),
  fc.nat({ max: 6000 }).map((length) => 'x'.repeat(length)),
);

/** Ids as a client might (or should not) send them. */
const idLike = (real: number[]) =>
  fc.oneof(
    fc.constantFrom(...real),
    fc.integer({ min: -TWO_31, max: TWO_31 }),
    fc.constantFrom(
      0,
      -1,
      1,
      TWO_31 - 1,
      TWO_31,
      TWO_31 + 1,
      2 ** 32,
      2 ** 53,
      2 ** 53 + 2,
      Number.MAX_SAFE_INTEGER,
      1e21,
      1e308,
      -1e308,
      0.5,
      1.5,
      -0,
    ),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.stringMatching(/^-?\d{1,30}(\.\d{1,3})?$/),
    nastyString,
    fc.constantFrom(null, true, false, [], [1], {}, { id: 1 }),
  );

/** Mostly a valid value (so that requests get past the first check), sometimes a wild one. */
const mostly = <T>(valid: fc.Arbitrary<T>, wild: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> =>
  fc.oneof({ weight: 3, arbitrary: valid }, { weight: 2, arbitrary: wild });

/** Digits of 1 to 30 characters, every length as likely (socket id parts). */
const digits = fc
  .integer({ min: 1, max: 30 })
  .chain((length) =>
    fc
      .array(fc.constantFrom(...'0123456789'), { minLength: length, maxLength: length })
      .map((chars) => chars.join('')),
  );

/** Any JSON value, with nasty strings and id-like numbers inside, nested a little. */
const anyJson = (real: number[]): fc.Arbitrary<unknown> =>
  fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      idLike(real),
      nastyString,
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(nastyString, tie('value'), { maxKeys: 4 }),
    ),
  })).value;

/** A raw body: JSON (an object most of the time), or text JSON.stringify cannot make. */
const rawBody = (object: fc.Arbitrary<Record<string, unknown>>, real: number[]) =>
  fc.oneof(
    { weight: 6, arbitrary: object.map((value) => JSON.stringify(value)) },
    { weight: 2, arbitrary: anyJson(real).map((value) => JSON.stringify(value) ?? 'null') },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        '{',
        'null',
        '[]',
        '"text"',
        '{"receiver_id": 1e400, "messenger_user": 1e400, "job_id": null, "message": "x"}',
        '{"receiver_id": 123456789012345678901234567890, "message": "x"}',
        '{"id": -0, "before": 2147483648}',
        '{"__proto__": {"polluted": true}}',
        '{"constructor": {"prototype": {"polluted": true}}}',
        '{"message": "\\u0000"}',
        '{"message": "\\ud800"}',
        `${'['.repeat(5000)}${']'.repeat(5000)}`,
        `{"socket_id": "${'1'.repeat(25)}.1", "channel_name": "private-chat.1"}`,
      ),
    },
  );

/** A path segment: ids, big numbers, fractions, encoded nasty strings, broken escapes. */
const pathId = (real: number[]) =>
  fc.oneof(
    idLike(real).map((value) => encode(asText(value))),
    fc.constantFrom('%00', '%E0', '%', '-1', '1.5', '0x10', '1e3', '%20', '..', '%2F', '00001'),
    fc.stringMatching(/^\d{10,40}$/),
  );

/** Header values fetch can send (printable ASCII). */
const headerValue = fc.oneof(
  fc.stringMatching(/^[\x20-\x7e]{0,60}$/),
  fc.constantFrom(`${'1'.repeat(21)}.1`, '1.2', `${'9'.repeat(20)}.${'9'.repeat(20)}`),
);

// ---------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------

interface FuzzRequest {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path with its query string. */
  path: string;
  body?: string;
  contentType?: string;
  /** `session`: the signed-in demo user's cookie and CSRF header; `xsrf`: a CSRF pair only. */
  as: 'session' | 'xsrf' | 'none';
  headers?: Record<string, string>;
}

interface FuzzContext {
  session: HttpSession;
  conversation: Conversation;
  credentials: PusherCredentials;
  /** Ids that exist, so that random requests also get past validation. */
  real: number[];
}

const keyQuery = fc.oneof(
  { weight: 8, arbitrary: fc.constant(`key=${DEFAULT_APP_KEY}&token=`) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(nastyString, nastyString)
      .map(([key, token]) => `key=${encode(key)}&token=${encode(token)}`),
  },
);

const jsonPost = (
  path: string,
  body: fc.Arbitrary<string>,
  as: FuzzRequest['as'],
): fc.Arbitrary<FuzzRequest> =>
  fc
    .tuple(body, keyQuery, fc.constantFrom('application/json', 'application/json; charset=utf-8'))
    .map(([text, query, contentType]) => ({
      method: 'POST',
      path: `${path}?${query}`,
      body: text,
      contentType,
      as,
    }));

const ROUTES: { name: string; request: (ctx: FuzzContext) => fc.Arbitrary<FuzzRequest> }[] = [
  {
    name: 'GET /load/messengers/initial/data',
    request: ({ real }) =>
      fc
        .tuple(
          fc.oneof(
            idLike(real).map((value) => `job_id=${encode(asText(value))}`),
            fc.constantFrom('job_id=', 'job_id=1&job_id=2', 'job_id[]=1', 'job_id=%00', ''),
          ),
          keyQuery,
        )
        .map(([jobQuery, query]) => ({
          method: 'GET',
          path: `${paths.initialData}?${jobQuery}&${query}`,
          as: 'session',
        })),
  },
  {
    name: 'POST /user/get/message',
    request: ({ real, conversation }) =>
      jsonPost(
        paths.getMessage,
        rawBody(
          fc.record(
            {
              receiver_id: mostly(fc.constant(conversation.receiverId), idLike(real)),
              job_id: mostly(fc.constant(conversation.jobId), idLike(real)),
              before: mostly(fc.integer({ min: 1, max: 5000 }), idLike(real)),
              limit: mostly(fc.integer({ min: 1, max: 100 }), idLike([0, 101])),
            },
            { requiredKeys: ['receiver_id'] },
          ),
          real,
        ),
        'session',
      ),
  },
  {
    name: 'POST /user/send/message',
    request: ({ real, conversation }) =>
      fc
        .tuple(
          jsonPost(
            paths.sendMessage,
            rawBody(
              fc.oneof(
                // A real conversation with a random message: the message reaches the database.
                fc.record({
                  receiver_id: fc.constant(conversation.receiverId),
                  messenger_user: fc.constant(conversation.id),
                  job_id: fc.constant(conversation.jobId),
                  message: nastyString,
                  client_id: fc.oneof(fc.uuid(), nastyString),
                }),
                fc.record(
                  {
                    receiver_id: mostly(fc.constant(conversation.receiverId), idLike(real)),
                    messenger_user: mostly(fc.constant(conversation.id), idLike(real)),
                    job_id: mostly(fc.constant(conversation.jobId), idLike(real)),
                    message: mostly(nastyString, anyJson(real)),
                    client_id: mostly(fc.uuid(), anyJson(real)),
                  },
                  { requiredKeys: ['receiver_id', 'messenger_user', 'job_id', 'message'] },
                ),
              ),
              real,
            ),
            'session',
          ),
          fc.option(headerValue, { nil: undefined }),
        )
        .map(([request, socketId]) =>
          socketId === undefined ? request : { ...request, headers: { 'x-socket-id': socketId } },
        ),
  },
  ...// Literal paths: the id part is fuzzed text (any string), which `paths` does not take.
  (
    [
      ['GET', 'unseen', (id: string) => `/user/send/message/unseen/${id}`],
      ['POST', 'archive', (id: string) => `/user/messenger/${id}/archive`],
      ['POST', 'unarchive', (id: string) => `/user/messenger/${id}/unarchive`],
    ] as const
  ).map(([method, name, path]) => ({
    name: `${method} ${path(':id')} (${name})`,
    request: ({ real }: FuzzContext) =>
      fc
        .tuple(pathId(real), keyQuery, fc.option(fc.string(), { nil: undefined }))
        .map(([id, query, body]): FuzzRequest => ({
          method,
          path: `${path(id)}?${query}`,
          as: 'session',
          ...(body === undefined || method === 'GET'
            ? {}
            : { body: JSON.stringify({ id: body }), contentType: 'application/json' }),
        })),
  })),
  {
    name: 'POST /login',
    request: ({ real }) =>
      jsonPost(
        paths.login,
        rawBody(
          fc.record(
            {
              email: fc.oneof(
                nastyString,
                fc.constantFrom(DEMO.company2, ` ${DEMO.company2}\u0000`),
              ),
              password: fc.oneof(nastyString, fc.constant('password')),
            },
            { requiredKeys: [] },
          ),
          real,
        ),
        'xsrf',
      ),
  },
  {
    name: 'POST /logout',
    request: ({ real }) =>
      jsonPost(paths.logout, rawBody(fc.dictionary(nastyString, anyJson(real)), real), 'xsrf'),
  },
  {
    name: 'POST /api/tokens',
    request: ({ real }) =>
      jsonPost(
        paths.tokens,
        rawBody(
          fc.record(
            {
              email: fc.oneof(nastyString, fc.constant(DEMO.company2)),
              password: fc.oneof(nastyString, fc.constant('password')),
              name: fc.oneof(nastyString, anyJson(real)),
            },
            { requiredKeys: [] },
          ),
          real,
        ),
        'none',
      ),
  },
  {
    name: 'GET /api/tokens and DELETE /api/tokens/:id',
    request: ({ real }) =>
      fc.tuple(fc.boolean(), pathId(real), keyQuery).map(([list, id, query]): FuzzRequest =>
        list
          ? { method: 'GET', path: `${paths.tokens}?${query}`, as: 'session' }
          : // A literal path: the id part is fuzzed text, which `paths.token` does not take.
            { method: 'DELETE', path: `/api/tokens/${id}?${query}`, as: 'session' },
      ),
  },
  ...[paths.broadcastingAuth, paths.broadcastingUserAuth].map((path) => ({
    name: `POST ${path}`,
    request: ({ real, session }: FuzzContext) => {
      const socketId = mostly(
        fc.tuple(digits, digits).map(([a, b]) => `${a}.${b}`),
        fc.oneof(nastyString, anyJson(real)),
      );
      const channel = mostly(
        fc.constant(userChannelName(session.userId)),
        fc.oneof(
          idLike(real).map((id) => `private-chat.${asText(id)}`),
          nastyString,
          anyJson(real),
        ),
      );
      const fields = fc.record(
        { socket_id: socketId, channel_name: channel },
        { requiredKeys: ['socket_id'] },
      );
      return fc.oneof(
        jsonPost(path, rawBody(fields, real), 'session'),
        fields.map((value): FuzzRequest => ({
          method: 'POST',
          path,
          // pusher-js sends a form; fields that are not strings are sent as their JSON text.
          body: new URLSearchParams(
            Object.entries(value).map(([name, field]) => [
              name,
              typeof field === 'string' ? field : JSON.stringify(field),
            ]),
          ).toString(),
          contentType: 'application/x-www-form-urlencoded',
          as: 'session',
        })),
      );
    },
  })),
  ...(['events', 'batch_events'] as const).map((endpoint) => ({
    name: `POST /apps/:appId/${endpoint} (trigger API)`,
    request: ({ real, credentials, session }: FuzzContext) => {
      const channel = mostly(
        fc.constantFrom(
          userChannelName(session.userId),
          'private-chat.1',
          'public',
          'presence-x',
          '#server-to-user-1',
        ),
        nastyString,
      );
      const event = fc.record(
        {
          name: mostly(fc.constant(CHAT_MESSAGE_EVENT), nastyString),
          data: mostly(
            fc.oneof(
              nastyString,
              anyJson(real).map((value) => JSON.stringify(value)),
            ),
            anyJson(real),
          ),
          channel,
          channels: fc.array(channel, { maxLength: 4 }),
          socket_id: mostly(
            fc.tuple(digits, digits).map(([a, b]) => `${a}.${b}`),
            fc.oneof(headerValue, nastyString),
          ),
          info: nastyString,
        },
        { requiredKeys: ['name', 'data'] },
      );
      // A well-formed event with random data: it gets delivered.
      const deliverable = fc.record({
        name: fc.constant(CHAT_MESSAGE_EVENT),
        data: nastyString,
        channel: fc.constant(userChannelName(session.userId)),
      });
      const single = fc.oneof(
        deliverable,
        event.map(({ channels: _channels, ...rest }) => rest),
        event.map(({ channel: _channel, ...rest }) => rest),
        event,
      );
      const body =
        endpoint === 'events'
          ? single
          : fc.record(
              {
                batch: fc.array(
                  fc.oneof(
                    { weight: 2, arbitrary: deliverable },
                    { weight: 1, arbitrary: event.map(({ channels: _channels, ...rest }) => rest) },
                  ),
                  { maxLength: 12 },
                ),
              },
              { requiredKeys: [] },
            );
      return fc
        .tuple(
          rawBody(body as fc.Arbitrary<Record<string, unknown>>, real),
          fc.oneof(
            { weight: 8, arbitrary: fc.constant(credentials.appId) },
            { weight: 1, arbitrary: pathId(real) },
          ),
          fc.constantFrom('signed', 'signed', 'signed', 'unsigned', 'tampered'),
        )
        .map(([text, appId, signing]): FuzzRequest => {
          const path = `/apps/${appId}/${endpoint}`;
          const signed = signTrigger(credentials, text, { path });
          return {
            method: 'POST',
            path:
              signing === 'signed'
                ? signed.path
                : signing === 'tampered'
                  ? signed.path.replace(/auth_timestamp=\d+/, 'auth_timestamp=99999999999999')
                  : `${path}?auth_key=${credentials.key}`,
            body: text,
            contentType: 'application/json',
            as: 'none',
          };
        });
    },
  })),
  {
    name: 'GET pages, images and the public calls',
    request: ({ real }) =>
      fc
        .tuple(
          fc.constantFrom(
            '/',
            '/messages',
            paths.login,
            paths.config,
            paths.demoAccounts,
            '/images/logos/',
            '/images/avatars/',
          ),
          fc.oneof(pathId(real), fc.constant('')),
          fc.dictionary(nastyString, nastyString, { maxKeys: 3 }),
        )
        .map(([path, id, query]): FuzzRequest => ({
          method: 'GET',
          path: `${path}${path.endsWith('/') && path.length > 1 ? `${id}.svg` : ''}?${new URLSearchParams(query).toString()}`,
          as: 'session',
        })),
  },
];

// ---------------------------------------------------------------------------
// The tests, once per database
// ---------------------------------------------------------------------------

const DIALECTS = ['sqlite', 'postgres'] as const;

describe.each(DIALECTS)('bad input on %s', (dialect) => {
  const credentials: PusherCredentials = pusherCredentials('faults');
  let db: FaultDatabase;
  let server: ServerProcess;
  let session: HttpSession;
  let conversation: Conversation;
  let ctx: FuzzContext;

  beforeAll(async () => {
    db = await freshDatabase(dialect);
    server = await startFaultServer({
      databaseUrl: db.url,
      appId: credentials.appId,
      env: { PUSHER_KEY: credentials.key, PUSHER_SECRET: credentials.secret },
    });
    session = await signInOverHttp(server.url, DEMO.candidate);
    const { messengerUsers, jobs } = await initialData(session);
    const record = messengerUsers.find((item) => item.job_id !== null) ?? messengerUsers[0]!;
    conversation = conversationOf(session.userId, record);
    ctx = {
      session,
      conversation,
      credentials,
      real: [
        ...new Set([
          session.userId,
          ...messengerUsers.flatMap((item) => [item.id, item.company_id]),
          ...jobs.map((job) => job.id),
        ]),
      ],
    };
  });

  afterAll(async () => {
    await stopServer(server);
    await db?.drop();
  });

  // What the server logged during the current test: an unhandled error (a 500) must not be in it.
  let outputAt = 0;
  beforeEach(() => {
    outputAt = server.output().length;
  });
  afterEach(() => {
    expect(isAlive(server), 'the server process is still running').toBe(true);
    expect(server.output().slice(outputAt)).not.toContain('unhandled error');
  });

  const raw = (method: string, path: string, body?: unknown) =>
    session.call(method, path, body === undefined ? undefined : body);
  const errorsOf = async (response: Response) =>
    ((await response.json()) as { errors?: Record<string, string[]> }).errors ?? {};
  const stored = async () => (await db.chats()).length;

  // -- one plain attack for each finding ------------------------------------------------------

  test('ids of 2^31 and more: 422 naming the field, on every call, nothing stored or changed', async () => {
    const before = await stored();
    const recordBefore = await conversationRecord(session, conversation.id);
    const valid = {
      receiver_id: conversation.receiverId,
      messenger_user: conversation.id,
      job_id: conversation.jobId,
      message: 'about a big id',
    };
    const named: Record<string, string[]> = {};
    for (const big of [TWO_31, TWO_31 + 1, 2 ** 32, 2 ** 53]) {
      for (const field of ['receiver_id', 'messenger_user', 'job_id'] as const) {
        const response = await raw('POST', paths.sendMessage, {
          ...valid,
          [field]: big,
          client_id: newClientId(),
        });
        expect(response.status, `send ${field}=${big}`).toBe(422);
        named[`send ${field}`] = Object.keys(await errorsOf(response));
      }
      for (const [field, body] of [
        ['receiver_id', { receiver_id: big, job_id: null }],
        ['job_id', { receiver_id: conversation.receiverId, job_id: big }],
        [
          'before',
          { receiver_id: conversation.receiverId, job_id: conversation.jobId, before: big },
        ],
      ] as const) {
        const response = await raw('POST', paths.getMessage, body);
        expect(response.status, `get ${field}=${big}`).toBe(422);
        named[`get ${field}`] = Object.keys(await errorsOf(response));
      }
      for (const [method, path] of [
        ['GET', paths.unseen(big)],
        ['POST', paths.archive(big)],
        ['POST', paths.unarchive(big)],
        ['DELETE', paths.token(big)],
      ] as const) {
        const response = await raw(method, path);
        expect(response.status, `${method} ${path}`).toBe(422);
        named[path.replace(String(big), '{id}')] = Object.keys(await errorsOf(response));
      }
      const query = await raw('GET', `${paths.initialData}?job_id=${big}`);
      expect(query.status, `initial data job_id=${big}`).toBe(422);
      named['initial data job_id'] = Object.keys(await errorsOf(query));
    }
    // Keyed by route template (the id in braces): labels, not calls.
    expect(named).toEqual({
      'send receiver_id': ['receiver_id'],
      'send messenger_user': ['messenger_user'],
      'send job_id': ['job_id'],
      'get receiver_id': ['receiver_id'],
      'get job_id': ['job_id'],
      'get before': ['before'],
      '/user/send/message/unseen/{id}': ['id'],
      '/user/messenger/{id}/archive': ['id'],
      '/user/messenger/{id}/unarchive': ['id'],
      '/api/tokens/{id}': ['id'],
      'initial data job_id': ['job_id'],
    });
    expect(await stored()).toBe(before);
    expect(await conversationRecord(session, conversation.id)).toEqual(recordBefore);
  });

  test('socket ids of more than 20 digits a part: 422 naming socket_id on both auth calls', async () => {
    const channel = userChannelName(session.userId);
    for (const socketId of [`${'1'.repeat(21)}.1`, `1.${'2'.repeat(21)}`, `${'9'.repeat(40)}.9`]) {
      const auth = await authorizeOverHttp(server.url, session, socketId, channel);
      expect(auth.status, socketId).toBe(422);
      expect(Object.keys(await errorsOf(auth))).toEqual(['socket_id']);
      const userAuth = await fetch(`${server.url}${paths.broadcastingUserAuth}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          cookie: session.cookie,
          'x-xsrf-token': session.csrf,
        },
        body: new URLSearchParams({ socket_id: socketId }).toString(),
      });
      expect(userAuth.status, socketId).toBe(422);
      expect(Object.keys(await errorsOf(userAuth))).toEqual(['socket_id']);
    }
    // 20 digits a part is still a socket id.
    const longest = `${'1'.repeat(20)}.${'2'.repeat(20)}`;
    expect((await authorizeOverHttp(server.url, session, longest, channel)).status).toBe(200);
  });

  test('a NUL character in a message or a token name: 422, nothing stored', async () => {
    const before = await stored();
    for (const message of ['\u0000', 'before\u0000after', 'trailing\u0000']) {
      const response = await raw('POST', paths.sendMessage, {
        receiver_id: conversation.receiverId,
        messenger_user: conversation.id,
        job_id: conversation.jobId,
        message,
        client_id: newClientId(),
      });
      expect(response.status, JSON.stringify(message)).toBe(422);
      expect(await errorsOf(response)).toEqual({
        message: ['The message may not contain a NUL character.'],
      });
    }
    expect(await stored()).toBe(before);

    const tokens = async () =>
      ((await (await raw('GET', paths.tokens)).json()) as { tokens: unknown[] }).tokens.length;
    const tokensBefore = await tokens();
    const token = await requestToken(server.url, { email: DEMO.candidate, name: 'ci\u0000' });
    expect(token.status).toBe(422);
    expect(Object.keys(await errorsOf(token))).toEqual(['name']);
    expect(await tokens()).toBe(tokensBefore);
  });

  test('a message of only invisible characters: 422 "The message field is required.", nothing stored', async () => {
    const before = await stored();
    for (const message of [
      '\u200b',
      '\u200b\u200c\u200d\u2060\ufeff',
      '\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u061c',
      ' \u00ad\u200b\n\u2800 ',
    ]) {
      const response = await raw('POST', paths.sendMessage, {
        receiver_id: conversation.receiverId,
        messenger_user: conversation.id,
        job_id: conversation.jobId,
        message,
        client_id: newClientId(),
      });
      expect(response.status, JSON.stringify(message)).toBe(422);
      expect(await errorsOf(response)).toEqual({ message: ['The message field is required.'] });
    }
    expect(await stored()).toBe(before);
    // Visible text that carries bidi marks is kept as it is.
    const arabic = '\u200fشكراً لك\u200f';
    const kept = await raw('POST', paths.sendMessage, {
      receiver_id: conversation.receiverId,
      messenger_user: conversation.id,
      job_id: conversation.jobId,
      message: arabic,
      client_id: newClientId(),
    });
    expect(kept.status).toBe(200);
    const chats = await db.chats(conversation.id);
    expect(chats.at(-1)?.message).toBe(arabic);
  });

  test('an exact replay of a signed trigger request: 401, delivered once', async () => {
    const channel = userChannelName(session.userId);
    const listener = await RawSocket.open(pusherSocketUrl(server.port, credentials.key));
    try {
      const { auth } = (await (
        await authorizeOverHttp(server.url, session, listener.socketId, channel)
      ).json()) as { auth: string };
      expect((await listener.subscribe(channel, auth)).event).toBe(
        'pusher_internal:subscription_succeeded',
      );
      const request = signTrigger(
        credentials,
        JSON.stringify({
          name: CHAT_MESSAGE_EVENT,
          channels: [channel],
          data: JSON.stringify({ text: 'once' }),
        }),
      );
      expect((await postTrigger(server.url, request)).status).toBe(200);
      await listener.next((frame) => frame.event === CHAT_MESSAGE_EVENT, 'the event');
      for (let i = 0; i < 3; i++) {
        const replay = await postTrigger(server.url, request);
        expect(replay.status).toBe(401);
        expect(((await replay.json()) as { message: string }).message).toMatch(/replay/i);
      }
      await sleep(300);
      expect(listener.eventsOn(channel)).toHaveLength(1);
    } finally {
      await listener.close();
    }
  });

  // -- property-based fuzzing of every route --------------------------------------------------

  const fire = async (request: FuzzRequest): Promise<Response> => {
    const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
    if (request.contentType) headers['content-type'] = request.contentType;
    if (request.as === 'session') {
      headers.cookie = session.cookie;
      headers['x-xsrf-token'] = session.csrf;
    } else if (request.as === 'xsrf') {
      const xsrf = randomBytes(12).toString('hex');
      headers.cookie = `XSRF-TOKEN=${xsrf}`;
      headers['x-xsrf-token'] = xsrf;
    }
    return fetch(`${server.url}${request.path}`, {
      method: request.method,
      headers,
      redirect: 'manual',
      ...(request.body === undefined ? {} : { body: request.body }),
    });
  };

  ROUTES.forEach((route, index) => {
    test(`fuzz: ${route.name} never answers 5xx`, async () => {
      const seed = SEED + index;
      const statuses = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(route.request(ctx), async (request) => {
          const response = await fire(request);
          const text = await response.text();
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          if (response.status >= 500 || !isAlive(server)) {
            throw new Error(
              `${request.method} ${request.path} → ${response.status} ${text.slice(0, 200)}\n` +
                `body: ${JSON.stringify(request.body?.slice(0, 500))}\n` +
                `server output:\n${server.output().slice(-2000)}`,
            );
          }
        }),
        { seed, numRuns: RUNS },
      );
      console.log(
        `${dialect} ${route.name} (seed ${seed}): ${[...statuses]
          .sort(([a], [b]) => a - b)
          .map(([status, count]) => `${status}×${count}`)
          .join(' ')}`,
      );
    });
  });

  test('after the fuzzing the server still serves the demo user', async () => {
    const { messengerUsers } = await initialData(session);
    expect(messengerUsers.length).toBeGreaterThan(0);
    const sent = await raw('POST', paths.sendMessage, {
      receiver_id: conversation.receiverId,
      messenger_user: conversation.id,
      job_id: conversation.jobId,
      message: 'still here',
      client_id: newClientId(),
    });
    expect(sent.status).toBe(200);
  });
});
