import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import PusherServer from 'pusher';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRealtime } from './create-realtime.js';
import {
  RawClient,
  TEST_REDIS_URL,
  credentials,
  nextEvent,
  pusherJsClient,
  disconnectPusher,
  startInstance,
  subscribed,
  until,
  within,
  type Instance,
} from './test-kit.js';

const CHAT_EVENT = 'App\\Events\\ChatMessage';
/** One pub/sub prefix per test run, so parallel runs and other suites never cross. */
const runPrefix = `realtime-test:${randomUUID()}`;

let admin: Redis;
beforeAll(async () => {
  admin = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await admin.connect();
});
afterAll(async () => {
  await admin.quit();
});

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** Two instances of one deployment (same credentials and prefix) sharing Redis. */
const startPair = async (): Promise<[Instance, Instance]> => {
  const shared = {
    ...credentials(),
    redisUrl: TEST_REDIS_URL,
    redisPrefix: `${runPrefix}:${randomUUID()}`,
  };
  const a = await startInstance(shared);
  const b = await startInstance(shared);
  cleanups.push(
    () => a.close(),
    () => b.close(),
  );
  return [a, b];
};

const subscriber = async (instance: Instance, channel: string) => {
  const { client, socketId } = await RawClient.established(instance.socketUrl());
  cleanups.unshift(() => client.close());
  const answer = await client.subscribe(
    channel,
    instance.realtime.authorizeChannel(socketId, channel).auth,
  );
  expect(answer.event).toBe('pusher_internal:subscription_succeeded');
  return { client, socketId };
};

describe('multi-instance fan-out through Redis', () => {
  it('a pusher-js client on A receives what is published through B (broadcaster and HTTP API)', async () => {
    const [a, b] = await startPair();
    const pusher = pusherJsClient(a, (socketId, channel) =>
      b.realtime.authorizeChannel(socketId, channel),
    );
    cleanups.unshift(() => disconnectPusher(pusher));
    const channel = pusher.subscribe('private-chat.11');
    await subscribed(channel);

    const first = nextEvent(channel, CHAT_EVENT);
    await b.realtime.broadcaster.publish(['private-chat.11'], CHAT_EVENT, {
      chatMessage: { id: 1 },
    });
    expect(await first).toEqual({ chatMessage: { id: 1 } });

    const second = nextEvent(channel, CHAT_EVENT);
    const official = new PusherServer({
      appId: b.options.appId,
      key: b.options.key,
      secret: b.options.secret,
      host: '127.0.0.1',
      port: String(b.port),
      useTLS: false,
    });
    await official.trigger('private-chat.11', CHAT_EVENT, { chatMessage: { id: 2 } });
    expect(await second).toEqual({ chatMessage: { id: 2 } });
  });

  it('delivers once per socket, in publish order, and honours the exclusion on every instance', async () => {
    const [a, b] = await startPair();
    const { client: onA, socketId: senderId } = await subscriber(a, 'private-chat.12');
    const { client: onB } = await subscriber(b, 'private-chat.12');
    for (let i = 1; i <= 20; i++) {
      await b.realtime.broadcaster.publish(
        ['private-chat.12'],
        `e${i}`,
        { i },
        i % 2 === 0 ? senderId : undefined,
      );
    }
    await onA.next((f) => f.event === 'e19');
    await onB.next((f) => f.event === 'e20');
    const all = Array.from({ length: 20 }, (_, i) => `e${i + 1}`);
    expect(onB.eventsOn('private-chat.12').map((f) => f.event)).toEqual(all);
    expect(onA.eventsOn('private-chat.12').map((f) => f.event)).toEqual(
      all.filter((_, i) => i % 2 === 0),
    );
  });

  it('closeSessionSockets through B closes a socket on A that was authorized through B', async () => {
    const [a, b] = await startPair();
    const { client: loggedOut, socketId } = await subscriber(a, 'private-chat.13');
    const { client: stays, socketId: otherId } = await subscriber(a, 'private-chat.13');
    // The auth request went to B; the socket lives on A.
    b.realtime.bindSocketToSession(socketId, 'session-x');
    b.realtime.bindSocketToSession(otherId, 'session-y');
    await b.realtime.closeSessionSockets('session-x');
    expect((await within(loggedOut.closed, 'close 4009')).code).toBe(4009);
    await until(() => a.realtime.connectionCount() === 1, 'A forgot the socket');

    await b.realtime.broadcaster.publish(['private-chat.13'], CHAT_EVENT, {
      chatMessage: { id: 3 },
    });
    await stays.next((f) => f.event === CHAT_EVENT);
    expect(loggedOut.eventsOn('private-chat.13')).toEqual([]);
  });

  it('after the Redis connections are dropped, tells its sockets to reconnect (4200) and keeps delivering', async () => {
    const [a, b] = await startPair();
    const { client } = await subscriber(a, 'private-chat.14');
    const prefix = (a.options.redisPrefix ?? '').replace(/[^A-Za-z0-9_.:-]/g, '_');
    const list = (await admin.client('LIST')) as string;
    const ours = list
      .split('\n')
      .filter(
        (line) =>
          line.includes(`name=realtime-sub:${prefix}`) ||
          line.includes(`name=realtime-pub:${prefix}`),
      )
      .map((line) => /(?:^|\s)id=(\d+)/.exec(line)?.[1])
      .filter((id): id is string => id !== undefined);
    expect(ours.length).toBe(4);
    for (const id of ours) await admin.client('KILL', 'ID', id);

    // Events published while A's subscription was down never reached its sockets: once it is
    // re-subscribed, A closes them with 4200 so that pusher-js reconnects at once and pages catch up.
    const closed = await within(client.closed, 'close 4200 after the re-subscription', 20_000);
    expect(closed.code).toBe(4200);
    const { client: fresh } = await subscriber(a, 'private-chat.14');

    // Publish until one arrives: the first ones may fail while the publisher reconnects.
    let n = 0;
    const arrived = fresh.next(
      (f) => f.event === CHAT_EVENT,
      'an event after reconnecting',
      20_000,
    );
    let done = false;
    void arrived.finally(() => (done = true)).catch(() => undefined);
    while (!done && n < 200) {
      n += 1;
      await b.realtime.broadcaster
        .publish(['private-chat.14'], CHAT_EVENT, { n })
        .catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await arrived).channel).toBe('private-chat.14');
  });

  it('rejects publish (and closeSessionSockets) while Redis is unreachable', async () => {
    const realtime = createRealtime({
      ...credentials(),
      allowedOrigins: [],
      activityTimeoutSeconds: 30,
      pongTimeoutSeconds: 30,
      redisUrl: 'redis://127.0.0.1:1',
      redisPrefix: runPrefix,
    });
    cleanups.push(() => realtime.close());
    await expect(realtime.broadcaster.publish(['private-chat.1'], CHAT_EVENT, {})).rejects.toThrow(
      /Redis/,
    );
    await expect(realtime.closeSessionSockets('s')).rejects.toThrow(/Redis/);
  });
});
