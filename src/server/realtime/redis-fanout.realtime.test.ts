import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { Redis } from 'ioredis';
import PusherServer from 'pusher';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextEvent, pusherJsClient, subscribed } from '../../../test-support/pusher-js.js';
import { settings } from '../../../test-support/settings.js';
import { pusherCredentials } from '../../../test-support/server-process.js';
import { useRealtimeInstances, type Instance } from '../../../test-support/test-app.js';
import { sleep, until, within } from '../../../test-support/wait.js';
import { RawSocket } from '../../../test-support/raw-socket.js';
import { startRedisCluster, type LocalRedisCluster } from '../../../test-support/redis-cluster.js';
import { TcpProxy } from '../../../test-support/tcp-proxy.js';
import { createRealtime } from './create-realtime.js';

const CHAT_EVENT = 'App\\Events\\ChatMessage';
/** One pub/sub prefix per test run, so parallel runs and other suites never cross. */
const runPrefix = `realtime-test:${randomUUID()}`;

let admin: Redis;
beforeAll(async () => {
  admin = new Redis(settings.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await admin.connect();
});
afterAll(async () => {
  await admin.quit();
});

const { start, track, trackPusher, subscriber } = useRealtimeInstances();

/** Two instances of one deployment (same credentials and prefix) sharing Redis. */
const startPair = async (): Promise<[Instance, Instance]> => {
  const shared = {
    ...pusherCredentials(),
    redisUrl: settings.redisUrl,
    redisPrefix: `${runPrefix}:${randomUUID()}`,
  };
  return [await start(shared), await start(shared)];
};

describe('multi-instance fan-out through Redis', () => {
  it('a pusher-js client on A receives what is published through B (broadcaster and HTTP API)', async () => {
    const [a, b] = await startPair();
    const pusher = trackPusher(
      pusherJsClient(a, (socketId, channel) => b.realtime.authorizeChannel(socketId, channel)),
    );
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
    const onA = await subscriber(a, 'private-chat.12');
    const senderId = onA.socketId;
    const onB = await subscriber(b, 'private-chat.12');
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

  it('routes a channel only to the instances holding a socket on it, and stops once the last one leaves', async () => {
    const shared = {
      ...pusherCredentials(),
      redisUrl: settings.redisUrl,
      redisPrefix: `${runPrefix}:${randomUUID()}`,
    };
    const [a, b, c] = [await start(shared), await start(shared), await start(shared)];
    const onA = await subscriber(a, 'private-chat.31');
    const alsoOnA = await subscriber(a, 'private-chat.32');
    const onB = await subscriber(b, 'private-chat.32');
    expect([a, b, c].map((each) => each.realtime.routedChannelCount())).toEqual([2, 1, 0]);

    await c.realtime.broadcaster.publish(['private-chat.31'], 'first', {});
    await onA.next((f) => f.event === 'first');
    // Redis serves one publisher's commands in order: once the second event is on B, B would
    // already have had the first, had it been sent there.
    await c.realtime.broadcaster.publish(['private-chat.32'], 'second', {});
    await onB.next((f) => f.event === 'second');
    await alsoOnA.next((f) => f.event === 'second');
    expect([a, b, c].map((each) => each.realtime.fanoutReceivedCount())).toEqual([2, 1, 0]);

    // A's last socket on chat.31 leaves: A no longer receives that channel.
    await onA.close();
    await until(() => a.realtime.routedChannelCount() === 1, 'A closed the route of chat.31');
    await c.realtime.broadcaster.publish(['private-chat.31'], 'nobody', {});
    await c.realtime.broadcaster.publish(['private-chat.32'], 'third', {});
    await alsoOnA.next((f) => f.event === 'third');
    await onB.next((f) => f.event === 'third');
    expect([a, b, c].map((each) => each.realtime.fanoutReceivedCount())).toEqual([3, 2, 0]);
  });

  it('confirms a subscription once its route is open: an event published right after arrives', async () => {
    const [a, b] = await startPair();
    for (let user = 40; user < 60; user += 1) {
      const channel = `private-chat.${user}`;
      const socket = await subscriber(a, channel);
      await b.realtime.broadcaster.publish([channel], CHAT_EVENT, { user });
      expect((await socket.next((f) => f.event === CHAT_EVENT)).channel).toBe(channel);
      await socket.close();
    }
  });

  it('holds the confirmation of a subscription while its route waits for Redis, so the page misses nothing', async () => {
    const proxy = await TcpProxy.start(Number(new URL(settings.redisUrl).port || 6379));
    try {
      const prefix = `${runPrefix}:${randomUUID()}`;
      const a = await start({
        ...pusherCredentials(),
        redisUrl: `redis://127.0.0.1:${proxy.port}`,
        redisPrefix: prefix,
      });
      const b = await start({
        ...pusherCredentials(),
        redisUrl: settings.redisUrl,
        redisPrefix: prefix,
      });
      const socket = track(await RawSocket.open(a.socketUrl()));
      // A's Redis link stalls: its SSUBSCRIBE waits on the way.
      await proxy.freeze();
      const flowsAgain = sleep(300).then(() => proxy.up());
      const channel = 'private-chat.62';
      const answer = await socket.subscribe(
        channel,
        a.realtime.authorizeChannel(socket.socketId, channel).auth,
      );
      expect(answer.event).toBe('pusher_internal:subscription_succeeded');
      // What a page does once subscribed: load, then count on live events for what follows.
      await b.realtime.broadcaster.publish([channel], CHAT_EVENT, { after: 'confirmation' });
      expect((await socket.next((f) => f.event === CHAT_EVENT)).channel).toBe(channel);
      await flowsAgain;
    } finally {
      await proxy.down();
    }
  });

  it('keeps a channel routed when its last socket leaves and another joins at once', async () => {
    const [a, b] = await startPair();
    for (let round = 0; round < 10; round += 1) {
      const leaving = await subscriber(a, 'private-chat.61');
      await leaving.close();
      await until(() => a.realtime.connectionCount() === 0, 'the socket left');
      const joining = await subscriber(a, 'private-chat.61');
      await b.realtime.broadcaster.publish(['private-chat.61'], CHAT_EVENT, { round });
      expect((await joining.next((f) => f.event === CHAT_EVENT)).data).toBe(
        JSON.stringify({ round }),
      );
      await joining.close();
      await until(() => a.realtime.connectionCount() === 0, 'the socket left');
    }
  });

  it('with broadcast routing, every instance receives every event, and still hears a per-user instance (a rolling switch)', async () => {
    const shared = {
      ...pusherCredentials(),
      redisUrl: settings.redisUrl,
      redisPrefix: `${runPrefix}:${randomUUID()}`,
      routing: 'broadcast' as const,
    };
    const [a, b] = [await start(shared), await start(shared)];
    const onA = await subscriber(a, 'private-chat.71');
    await b.realtime.broadcaster.publish(['private-chat.71'], CHAT_EVENT, {});
    await onA.next((f) => f.event === CHAT_EVENT);
    await until(() => b.realtime.fanoutReceivedCount() === 1, 'B received the event too');
    expect(a.realtime.fanoutReceivedCount()).toBe(1);

    // Mid-switch: C already routes per user, A and B do not yet. Each hears the other's events.
    const c = await start({ ...shared, routing: 'per-user' });
    const onC = await subscriber(c, 'private-chat.72');
    await c.realtime.broadcaster.publish(['private-chat.71'], 'from-per-user', {});
    await onA.next((f) => f.event === 'from-per-user');
    await a.realtime.broadcaster.publish(['private-chat.72'], 'from-broadcast', {});
    await onC.next((f) => f.event === 'from-broadcast');
  });

  it('still hears the shared channel (sign-outs) after its last user channel was left', async () => {
    const [a, b] = await startPair();
    const first = await subscriber(a, 'private-chat.81');
    await first.close();
    await until(() => a.realtime.routedChannelCount() === 0, 'A closed its last route');
    // A socket authorized through B (bound to its session there), then that session signs out.
    const fresh = track(await RawSocket.open(a.socketUrl()));
    b.realtime.bindSocketToSession(fresh.socketId, 'session-after-last-route');
    await b.realtime.closeSessionSockets('session-after-last-route');
    expect((await within(fresh.closed, 'close 4009')).code).toBe(4009);
  });

  it('closeSessionSockets through B closes a socket on A that was authorized through B', async () => {
    const [a, b] = await startPair();
    const loggedOut = await subscriber(a, 'private-chat.13');
    const { socketId } = loggedOut;
    const stays = await subscriber(a, 'private-chat.13');
    const otherId = stays.socketId;
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
    const client = await subscriber(a, 'private-chat.14');
    const prefix = (a.options.redisPrefix ?? '').replace(/[^A-Za-z0-9_.:-]/g, '_');
    const list = (await admin.client('LIST')) as string;
    const ours = list
      .split('\n')
      .filter(
        (line) =>
          line.includes(`name=realtime-sub:${prefix}`) ||
          line.includes(`name=realtime-shard:${prefix}`) ||
          line.includes(`name=realtime-pub:${prefix}`),
      )
      .map((line) => /(?:^|\s)id=(\d+)/.exec(line)?.[1])
      .filter((id): id is string => id !== undefined);
    expect(ours.length).toBe(6);
    for (const id of ours) await admin.client('KILL', 'ID', id);

    // Events published while A's subscription was down never reached its sockets: once it is
    // re-subscribed, A closes them with 4200 so that pusher-js reconnects at once and pages catch up.
    const closed = await within(client.closed, 'close 4200 after the re-subscription', 20_000);
    expect(closed.code).toBe(4200);
    const fresh = await subscriber(a, 'private-chat.14');

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
      await sleep(100);
    }
    expect((await arrived).channel).toBe('private-chat.14');
  });

  it('after B failed to publish while its Redis was down, the sockets on A are told to reconnect and catch up', async () => {
    const proxy = await TcpProxy.start(Number(new URL(settings.redisUrl).port || 6379));
    try {
      const prefix = `${runPrefix}:${randomUUID()}`;
      const a = await start({
        ...pusherCredentials(),
        redisUrl: settings.redisUrl,
        redisPrefix: prefix,
      });
      const b = await start({
        ...pusherCredentials(),
        redisUrl: `redis://127.0.0.1:${proxy.port}`,
        redisPrefix: prefix,
      });
      const onA = await subscriber(a, 'private-chat.21');
      // B loses Redis; A does not (its subscription never drops, so only B can tell it)
      await proxy.down();
      await expect(
        b.realtime.broadcaster.publish(['private-chat.21'], CHAT_EVENT, { missed: true }),
      ).rejects.toThrow();
      await proxy.up();
      const closed = await within(onA.closed, 'the socket on A told to reconnect', 15_000);
      expect(closed.code).toBe(4200);
    } finally {
      await proxy.down();
    }
  });

  it('rejects publish (and closeSessionSockets) while Redis is unreachable', async () => {
    const realtime = createRealtime({
      ...pusherCredentials(),
      allowedOrigins: [],
      activityTimeoutSeconds: 30,
      pongTimeoutSeconds: 30,
      redisUrl: 'redis://127.0.0.1:1',
      redisPrefix: runPrefix,
    });
    track(realtime);
    await expect(realtime.broadcaster.publish(['private-chat.1'], CHAT_EVENT, {})).rejects.toThrow(
      /Redis/,
    );
    await expect(realtime.closeSessionSockets('s')).rejects.toThrow(/Redis/);
  });

  it('refuses a trigger request replayed against another instance (signatures shared through Redis)', async () => {
    const [a, b] = await startPair();
    const client = await subscriber(a, 'private-chat.15');
    const path = `/apps/${a.options.appId}/events`;
    const body = JSON.stringify({
      name: CHAT_EVENT,
      data: '{"n":1}',
      channels: ['private-chat.15'],
    });
    const query = new PusherServer({
      appId: a.options.appId,
      key: a.options.key,
      secret: a.options.secret,
      host: '127.0.0.1',
    }).createSignedQueryString({ method: 'POST', path, body });
    const post = (instance: Instance) =>
      fetch(`http://127.0.0.1:${instance.port}${path}?${query}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
    expect((await post(a)).status).toBe(200);
    await client.next((f) => f.event === CHAT_EVENT);
    const onB = await post(b);
    expect(onB.status).toBe(401);
    expect(((await onB.json()) as { message: string }).message).toMatch(/replay/i);
    const onA = await post(a);
    expect(onA.status).toBe(401);
    const signature = new URLSearchParams(query).get('auth_signature')!;
    const ttl = await admin.pttl(`${b.options.redisPrefix}:trigger-sig:${signature}`);
    expect(ttl).toBeGreaterThan(590_000);
    expect(ttl).toBeLessThanOrEqual(601_000);
    await sleep(200);
    expect(client.eventsOn('private-chat.15')).toHaveLength(1);
  });

  it('answers a trigger with 503 while Redis is unreachable (the replay check cannot be shared)', async () => {
    const options = {
      ...pusherCredentials(),
      allowedOrigins: [],
      activityTimeoutSeconds: 30,
      pongTimeoutSeconds: 30,
      redisUrl: 'redis://127.0.0.1:1',
      redisPrefix: runPrefix,
    };
    const realtime = createRealtime(options);
    const app = Fastify({ logger: false });
    track({
      close: async () => {
        await app.close();
        await realtime.close();
      },
    });
    await app.register(realtime.triggerRoutes);
    const path = `/apps/${options.appId}/events`;
    const body = JSON.stringify({ name: 'e', data: '{}', channels: ['private-chat.1'] });
    const query = new PusherServer({
      appId: options.appId,
      key: options.key,
      secret: options.secret,
      host: '127.0.0.1',
    }).createSignedQueryString({ method: 'POST', path, body });
    const response = await app.inject({
      method: 'POST',
      url: `${path}?${query}`,
      headers: { 'content-type': 'application/json' },
      payload: body,
    });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('5');
  });
});

describe('per-user routing on a Redis Cluster', () => {
  let cluster: LocalRedisCluster;
  beforeAll(async () => {
    cluster = await startRedisCluster(3);
  }, 60_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  it('each user channel is subscribed on the node owning its slot, and events reach only its instances', async () => {
    const shared = {
      ...pusherCredentials(),
      redisUrl: cluster.url,
      redisPrefix: `${runPrefix}:${randomUUID()}`,
    };
    const [a, b, c] = [await start(shared), await start(shared), await start(shared)];
    const users = Array.from({ length: 12 }, (_, index) => 101 + index);
    const onA = new Map<number, Awaited<ReturnType<typeof subscriber>>>();
    for (const user of users) onA.set(user, await subscriber(a, `private-chat.${user}`));
    const onB = await subscriber(b, 'private-chat.105');
    expect([a, b, c].map((each) => each.realtime.routedChannelCount())).toEqual([12, 1, 0]);

    // The shard channels are spread over the nodes, each on the one owning its slot.
    const perNode = await Promise.all(
      cluster.ports.map(async (port) => {
        const node = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: 0 });
        try {
          return (
            (await node.call('PUBSUB', 'SHARDCHANNELS', `${shared.redisPrefix}*`)) as string[]
          ).length;
        } finally {
          node.disconnect();
        }
      }),
    );
    expect(perNode.reduce((sum, count) => sum + count, 0)).toBe(12);
    expect(perNode.filter((count) => count > 0).length).toBeGreaterThan(1);

    for (const user of users)
      await c.realtime.broadcaster.publish([`private-chat.${user}`], CHAT_EVENT, { user });
    for (const user of users)
      expect((await onA.get(user)!.next((f) => f.event === CHAT_EVENT)).data).toBe(
        JSON.stringify({ user }),
      );
    await onB.next((f) => f.event === CHAT_EVENT);
    expect([a, b, c].map((each) => each.realtime.fanoutReceivedCount())).toEqual([12, 1, 0]);
  });
});
