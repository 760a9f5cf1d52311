/**
 * Finding 3 of the hardening probe, kept fixed: nothing limited WebSocket connections. 500 sockets
 * from one address were all accepted, a socket that never subscribed to anything authorized stayed
 * open forever while it answered pings, anyone could pin public channels, and frames had no rate
 * limit. Against the real server process with small limits; each test failed on the code before.
 */
import { CHAT_MESSAGE_EVENT, userChannelName } from '../src/shared/events.js';
import { DEMO } from '../test-support/accounts.js';
import { authorizeOverHttp, signInOverHttp } from '../test-support/http-session.js';
import { conversationWith, sendMessage } from '../test-support/messaging.js';
import { pusherSocketUrl, RawSocket } from '../test-support/raw-socket.js';
import { sleep, within } from '../test-support/wait.js';
import { freshSqlite, type FaultDatabase } from './support/databases.js';
import { pusherKey, startFaultServer, stopServer, type ServerProcess } from './support/servers.js';

const PER_ADDRESS = 20;
const TOTAL = 45;
const AUTH_TIMEOUT_SECONDS = 1.5;

let db: FaultDatabase;
const sockets: RawSocket[] = [];

beforeAll(() => {
  db = freshSqlite();
});

afterEach(async () => {
  await Promise.all(sockets.splice(0).map((socket) => socket.close()));
});

afterAll(async () => {
  await db?.drop();
});

const startLimited = (env: Record<string, string>): Promise<ServerProcess> =>
  startFaultServer({ databaseUrl: db.url, env });

const open = async (server: ServerProcess, key: string, headers: Record<string, string> = {}) => {
  const socket = await RawSocket.open(pusherSocketUrl(server.port, key), { headers });
  sockets.push(socket);
  return socket;
};

const openMany = (
  server: ServerProcess,
  key: string,
  count: number,
  headers: Record<string, string> = {},
): Promise<RawSocket[]> =>
  Promise.all(Array.from({ length: count }, () => open(server, key, headers)));

/**
 * A socket the server must refuse after the upgrade: what it was told, and its close code. One the
 * server accepts never closes, and this fails after 10 s.
 */
const refusal = async (
  server: ServerProcess,
  key: string,
  headers: Record<string, string> = {},
): Promise<{ code: number; socket: RawSocket }> => {
  const socket = await RawSocket.connect(pusherSocketUrl(server.port, key), { headers });
  try {
    const { code } = await within(
      socket.closed,
      'the server closing the socket over the cap',
      10_000,
    );
    return { code, socket };
  } finally {
    socket.ws.terminate();
  }
};

const expectOverCapacity = (refused: { code: number; socket: RawSocket }): void => {
  expect(refused.code).toBe(4100);
  expect(refused.socket.errorCodes()).toEqual([4100]);
  expect(
    refused.socket.frames.some((frame) => frame.event === 'pusher:connection_established'),
  ).toBe(false);
};

describe('connection caps', () => {
  let server: ServerProcess;
  let key: string;

  // A server per test: the counts of one test never leak into the next.
  beforeEach(async () => {
    server = await startLimited({
      WS_MAX_CONNECTIONS_PER_ADDRESS: String(PER_ADDRESS),
      WS_MAX_CONNECTIONS: String(TOTAL),
      TRUST_PROXY: '127.0.0.1',
    });
    key = await pusherKey(server);
  });

  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((socket) => socket.close()));
    await stopServer(server);
  });

  test(`the ${PER_ADDRESS + 1}st socket from one address is refused with 4100; the first ${PER_ADDRESS} stay open`, async () => {
    const held = await openMany(server, key, PER_ADDRESS);
    expectOverCapacity(await refusal(server, key));
    for (const socket of held) {
      expect(socket.isOpen).toBe(true);
      await socket.ping();
    }
  });

  test('behind the trusted proxy each X-Forwarded-For address has its own cap, and the total holds', async () => {
    const client = (address: string) => ({ 'x-forwarded-for': address });
    await openMany(server, key, PER_ADDRESS, client('198.51.100.1'));
    expectOverCapacity(await refusal(server, key, client('198.51.100.1')));
    // Another address has its own cap: the proxy's 127.0.0.1 is not what counts.
    await openMany(server, key, PER_ADDRESS, client('198.51.100.2'));
    expectOverCapacity(await refusal(server, key, client('198.51.100.2')));
    const rest = TOTAL - 2 * PER_ADDRESS;
    await openMany(server, key, rest, client('198.51.100.3'));
    // TOTAL open now: a new address is refused too.
    expectOverCapacity(await refusal(server, key, client('198.51.100.4')));
    for (const socket of sockets) expect(socket.isOpen).toBe(true);
  });
});

describe('unauthorized sockets, public channels, frame floods', () => {
  let server: ServerProcess;
  let key: string;

  beforeAll(async () => {
    server = await startLimited({
      WS_AUTH_TIMEOUT: String(AUTH_TIMEOUT_SECONDS),
      WS_FRAME_RATE_BURST: '5',
      WS_FRAME_RATE_PER_SECOND: '2',
    });
    key = await pusherKey(server);
  });

  afterAll(async () => {
    await stopServer(server);
  });

  test('a socket that only pings is closed with 4202 after the auth timeout; an authorized one stays', async () => {
    const candidate = await signInOverHttp(server.url, DEMO.candidate);
    const channel = userChannelName(candidate.userId);
    const authorized = await open(server, key);
    const response = await authorizeOverHttp(server.url, candidate, authorized.socketId, channel);
    expect(response.status).toBe(200);
    const { auth } = (await response.json()) as { auth: string };
    expect((await authorized.subscribe(channel, auth)).event).toBe(
      'pusher_internal:subscription_succeeded',
    );

    // It answers pings and pings on its own, as a library does; it never subscribes.
    const pinger = await open(server, key);
    await pinger.ping();
    // (Under the frame rate of 2 a second.)
    const pinging = setInterval(() => {
      if (pinger.isOpen) pinger.send({ event: 'pusher:ping', data: {} });
    }, 600);
    try {
      expect((await within(pinger.closed, 'the pinging socket closed', 15_000)).code).toBe(4202);
    } finally {
      clearInterval(pinging);
    }
    expect(pinger.errorCodes()).toEqual([4202]);

    // Twice the timeout later the authorized socket is still open, and still hears its messages.
    await sleep(2 * AUTH_TIMEOUT_SECONDS * 1000);
    expect(authorized.isOpen).toBe(true);
    const company = await signInOverHttp(server.url, DEMO.company);
    const sent = await sendMessage(
      company,
      await conversationWith(company, candidate.userId),
      'still listening',
    );
    expect(sent.ok).toBe(true);
    await authorized.next((frame) => frame.event === CHAT_MESSAGE_EVENT, 'the message');
  });

  test('a public channel subscription is refused (403)', async () => {
    const socket = await open(server, key);
    const answer = await socket.subscribe('news');
    expect(answer.event).toBe('pusher:subscription_error');
    expect(answer.data).toMatchObject({ status: 403 });
  });

  test('a frame flood gets 4301, then a 4100 close; another socket is not affected', async () => {
    const flooder = await open(server, key);
    const bystander = await open(server, key);
    for (let i = 0; i < 500; i++) flooder.send({ event: 'pusher:ping', data: {} });
    expect((await within(flooder.closed, 'the flooder closed', 10_000)).code).toBe(4100);
    expect(flooder.errorCodes()).toEqual([4301, 4100]);
    // Only the burst was answered.
    expect(flooder.frames.filter((frame) => frame.event === 'pusher:pong').length).toBeLessThan(10);
    await bystander.ping();
  });
});
