import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { nextEvent, pusherJsClient, subscribed } from '../../../test-support/pusher-js.js';
import { RawSocket } from '../../../test-support/raw-socket.js';
import { pusherCredentials } from '../../../test-support/server-process.js';
import {
  TEST_ORIGIN,
  useRealtimeInstances,
  type Instance,
} from '../../../test-support/test-app.js';
import { until, within } from '../../../test-support/wait.js';
import { createRealtime } from './create-realtime.js';
import { signChannel, signUser } from './signatures.js';

const CHAT_EVENT = 'App\\Events\\ChatMessage';
const chat = (id: number, message = `message ${id}`) => ({
  chatMessage: { id, sender_id: 1, receiver_id: 2, messenger_user_id: 3, job_id: null, message },
});

const { start, track, trackPusher } = useRealtimeInstances();

/** pusher-js authorized the way /broadcasting/auth does it: through realtime.authorizeChannel. */
const appClient = (instance: Instance) =>
  trackPusher(
    pusherJsClient(instance, (socketId, channel) =>
      instance.realtime.authorizeChannel(socketId, channel),
    ),
  );

describe('embedded Pusher endpoint (protocol 7)', () => {
  it('delivers a published event to a stock pusher-js subscriber with the exact name and payload', async () => {
    const instance = await start();
    const pusher = appClient(instance);
    const channel = pusher.subscribe('private-chat.2');
    await subscribed(channel);
    const received = nextEvent(channel, CHAT_EVENT);
    const payload = chat(1, 'Hello — مرحبا 👋 "quoted" <b>');
    await instance.realtime.broadcaster.publish(['private-chat.2'], CHAT_EVENT, payload);
    expect(await received).toEqual(payload);
  });

  it('sends protocol-7 frames: connection_established data and event data are JSON strings', async () => {
    const instance = await start({ activityTimeoutSeconds: 45 });
    const client = track(await RawSocket.connect(instance.socketUrl()));
    const established = await client.next((f) => f.event === 'pusher:connection_established');
    expect(typeof established.data).toBe('string');
    const data = JSON.parse(established.data as string) as {
      socket_id: string;
      activity_timeout: number;
    };
    expect(data.socket_id).toMatch(/^\d+\.\d+$/);
    expect(data.activity_timeout).toBe(45);

    const answer = await client.subscribe(
      'private-chat.2',
      signChannel(instance.options, data.socket_id, 'private-chat.2'),
    );
    expect(answer).toEqual({
      event: 'pusher_internal:subscription_succeeded',
      channel: 'private-chat.2',
      data: '{}',
    });
    await instance.realtime.broadcaster.publish(['private-chat.2'], CHAT_EVENT, chat(5));
    const event = await client.next((f) => f.event === CHAT_EVENT);
    expect(event).toEqual({
      event: CHAT_EVENT,
      channel: 'private-chat.2',
      data: JSON.stringify(chat(5)),
    });
  });

  it('excludes the socket named by exceptSocketId, and only that one', async () => {
    const instance = await start();
    const senderTab = appClient(instance);
    const otherTab = appClient(instance);
    const senderChannel = senderTab.subscribe('private-chat.1');
    const otherChannel = otherTab.subscribe('private-chat.1');
    await Promise.all([subscribed(senderChannel), subscribed(otherChannel)]);
    const senderSocketId = senderTab.connection.socket_id;

    const senderEvents: unknown[] = [];
    senderChannel.bind(CHAT_EVENT, (data: unknown) => senderEvents.push(data));
    const otherFirst = nextEvent(otherChannel, CHAT_EVENT);
    await instance.realtime.broadcaster.publish(
      ['private-chat.1'],
      CHAT_EVENT,
      chat(1),
      senderSocketId,
    );
    expect(await otherFirst).toEqual(chat(1));

    // A later event for everyone arrives after the excluded one would have: the sender got only that.
    const senderSentinel = nextEvent(senderChannel, 'sentinel');
    await instance.realtime.broadcaster.publish(['private-chat.1'], 'sentinel', { n: 2 });
    expect(await senderSentinel).toEqual({ n: 2 });
    expect(senderEvents).toEqual([]);
  });

  it('refuses forged, transplanted and other-channel signatures, and delivers nothing on them', async () => {
    const instance = await start();
    const client = track(await RawSocket.open(instance.socketUrl()));
    const { socketId } = client;
    const other = track(await RawSocket.open(instance.socketUrl()));
    const otherSocketId = other.socketId;
    const target = 'private-chat.2';
    const attempts: Record<string, string | undefined> = {
      'no auth': undefined,
      'empty auth': '',
      forged: `${instance.options.key}:${'0'.repeat(64)}`,
      'other secret': signChannel(
        { key: instance.options.key, secret: 'guessed' },
        socketId,
        target,
      ),
      'transplanted from another socket': signChannel(instance.options, otherSocketId, target),
      'own channel signature used for another channel': signChannel(
        instance.options,
        socketId,
        'private-chat.1',
      ),
      'other key prefix': signChannel(instance.options, socketId, target).replace(
        instance.options.key,
        'other-key',
      ),
    };
    for (const [label, auth] of Object.entries(attempts)) {
      const answer = await client.subscribe(target, auth);
      expect(answer.event, label).toBe('pusher:subscription_error');
      expect(answer.data, label).toMatchObject({ type: 'AuthError', status: 401 });
    }
    // Presence needs a signature over its channel_data too.
    const presenceData = JSON.stringify({ user_id: '2' });
    const presenceAnswer = await client.subscribe(
      'presence-room',
      signChannel(instance.options, socketId, 'presence-room', JSON.stringify({ user_id: '1' })),
      presenceData,
    );
    expect(presenceAnswer.event).toBe('pusher:subscription_error');

    // The own channel works; events on the refused one never arrive (delivery is in order).
    const own = await client.subscribe(
      'private-chat.1',
      signChannel(instance.options, socketId, 'private-chat.1'),
    );
    expect(own.event).toBe('pusher_internal:subscription_succeeded');
    await instance.realtime.broadcaster.publish([target], CHAT_EVENT, chat(1));
    await instance.realtime.broadcaster.publish(['presence-room'], CHAT_EVENT, chat(2));
    await instance.realtime.broadcaster.publish(['private-chat.1'], CHAT_EVENT, chat(3));
    const delivered = await client.next((f) => f.event === CHAT_EVENT);
    expect(delivered.channel).toBe('private-chat.1');
    expect(client.eventsOn(target)).toEqual([]);
    expect(client.eventsOn('presence-room')).toEqual([]);
  });

  it('reports a refused subscription to pusher-js as pusher:subscription_error (status 401)', async () => {
    const instance = await start();
    // A signature made for some other socket id.
    const pusher = trackPusher(
      pusherJsClient(instance, (_socketId, channel) =>
        instance.realtime.authorizeChannel('1.1', channel),
      ),
    );
    const channel = pusher.subscribe('private-chat.2');
    const error = await nextEvent<{ type: string; status: number }>(
      channel,
      'pusher:subscription_error',
    );
    expect(error).toMatchObject({ type: 'AuthError', status: 401 });
    expect(channel.subscribed).toBe(false);
  });

  it('refuses an unknown app key with pusher:error 4001 and close code 4001', async () => {
    const instance = await start();
    const client = track(await RawSocket.connect(instance.socketUrl('not-the-key')));
    const error = await client.next((f) => f.event === 'pusher:error');
    expect(error.data).toMatchObject({ code: 4001 });
    expect((await within(client.closed, 'close')).code).toBe(4001);
    expect(client.frames.some((f) => f.event === 'pusher:connection_established')).toBe(false);
  });

  it('refuses an unsupported protocol version with 4007', async () => {
    const instance = await start();
    const url = `ws://127.0.0.1:${instance.port}/app/${instance.options.key}?protocol=4`;
    const client = track(await RawSocket.connect(url));
    expect((await within(client.closed, 'close')).code).toBe(4007);
  });

  it('answers pusher:ping with pusher:pong and WebSocket pings with pongs', async () => {
    const instance = await start();
    const client = track(await RawSocket.open(instance.socketUrl()));
    client.send({ event: 'pusher:ping', data: {} });
    expect((await client.next((f) => f.event === 'pusher:pong')).event).toBe('pusher:pong');
    const pong = within(
      new Promise<Buffer>((resolve) => client.ws.once('pong', resolve)),
      'ws pong',
    );
    client.ws.ping(Buffer.from('hi'));
    expect((await pong).toString()).toBe('hi');
  });

  it('pings a silent socket and closes it with 4201 when no pong comes back', async () => {
    const instance = await start({ activityTimeoutSeconds: 1, pongTimeoutSeconds: 1 });
    // autoPong: false, so not even WebSocket-level pings are answered.
    const client = track(await RawSocket.open(instance.socketUrl(), { autoPong: false }));
    const wsPing = within(
      new Promise<void>((resolve) => client.ws.once('ping', () => resolve())),
      'ws ping',
    );
    await client.next((f) => f.event === 'pusher:ping', 'pusher:ping');
    await wsPing;
    const closed = await within(client.closed, 'close 4201');
    expect(closed.code).toBe(4201);
    await until(() => instance.realtime.connectionCount() === 0, 'socket forgotten');
  });

  it('keeps a socket that answers pings', async () => {
    const instance = await start({ activityTimeoutSeconds: 1, pongTimeoutSeconds: 1 });
    const client = track(await RawSocket.open(instance.socketUrl(), { autoPong: false }));
    let closedEarly = false;
    void client.closed.then(() => (closedEarly = true));
    // Three rounds of ping → pong: each next ping comes only because the socket stayed open.
    for (let round = 0; round < 3; round++) {
      await client.next((f) => f.event === 'pusher:ping', `ping ${round}`);
      client.send({ event: 'pusher:pong', data: {} });
    }
    expect(closedEarly).toBe(false);
    expect(instance.realtime.connectionCount()).toBe(1);
  });

  it('refuses client events and malformed frames with pusher:error and keeps the connection', async () => {
    const instance = await start();
    const client = track(await RawSocket.open(instance.socketUrl()));
    const { socketId } = client;
    await client.subscribe(
      'private-chat.1',
      signChannel(instance.options, socketId, 'private-chat.1'),
    );

    client.send({ event: 'client-typing', channel: 'private-chat.1', data: {} });
    expect((await client.next((f) => f.event === 'pusher:error')).data).toMatchObject({
      code: 4301,
    });
    client.send('{not json');
    expect((await client.next((f) => f.event === 'pusher:error')).data).toMatchObject({
      code: 4200,
    });
    client.send({ no: 'event' });
    expect((await client.next((f) => f.event === 'pusher:error')).data).toMatchObject({
      code: 4200,
    });
    client.send({ event: 'pusher:subscribe', data: 'nonsense' });
    expect((await client.next((f) => f.event === 'pusher:error')).data).toMatchObject({
      code: 4200,
    });
    client.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    expect((await client.next((f) => f.event === 'pusher:error')).data).toMatchObject({
      code: 4200,
    });

    // Still alive and subscribed; nobody else got a client event.
    await instance.realtime.broadcaster.publish(['private-chat.1'], CHAT_EVENT, chat(1));
    expect((await client.next((f) => f.event === CHAT_EVENT)).channel).toBe('private-chat.1');
    expect(client.frames.some((f) => f.event === 'client-typing')).toBe(false);
  });

  it('closes a socket that sends a frame over the size limit with 1009', async () => {
    const instance = await start({ maxFrameBytes: 1024 });
    const client = track(await RawSocket.open(instance.socketUrl()));
    client.send({ event: 'pusher:ping', data: { padding: 'x'.repeat(2048) } });
    expect((await within(client.closed, 'close 1009')).code).toBe(1009);
  });

  it('refuses a websocket from a foreign Origin with 403, accepts the allowed one and none', async () => {
    const instance = await start();
    expect(
      await RawSocket.upgradeStatus(instance.socketUrl(), { origin: 'https://evil.example' }),
    ).toBe(403);
    const allowed = track(await RawSocket.connect(instance.socketUrl(), { origin: TEST_ORIGIN }));
    await allowed.next((f) => f.event === 'pusher:connection_established');
    const noOrigin = track(await RawSocket.connect(instance.socketUrl()));
    await noOrigin.next((f) => f.event === 'pusher:connection_established');
  });

  it('answers upgrades on other paths with 404 when nobody else handles them', async () => {
    const instance = await start();
    expect(await RawSocket.upgradeStatus(`ws://127.0.0.1:${instance.port}/elsewhere`)).toBe(404);
  });

  it('presence: member_added once per user however many sockets, member_removed after the last', async () => {
    const instance = await start();
    const channel = 'presence-room';
    const join = async (userId: string) => {
      const client = track(await RawSocket.open(instance.socketUrl()));
      const { socketId } = client;
      const channelData = JSON.stringify({
        user_id: userId,
        user_info: { name: `user ${userId}` },
      });
      const answer = await client.subscribe(
        channel,
        signChannel(instance.options, socketId, channel, channelData),
        channelData,
      );
      expect(answer.event).toBe('pusher_internal:subscription_succeeded');
      return { client, answer };
    };
    const memberEvents = (client: RawSocket) =>
      client.frames
        .filter((f) => f.event.startsWith('pusher_internal:member_'))
        .map(
          (f) =>
            `${f.event.replace('pusher_internal:member_', '')}:${(JSON.parse(f.data as string) as { user_id: string }).user_id}`,
        );

    const { client: observer } = await join('A');
    const { client: b1 } = await join('B');
    await observer.next((f) => f.event === 'pusher_internal:member_added');
    const { client: b2, answer: secondSocket } = await join('B');
    expect(JSON.parse(secondSocket.data as string)).toEqual({
      presence: {
        ids: ['A', 'B'],
        hash: { A: { name: 'user A' }, B: { name: 'user B' } },
        count: 2,
      },
    });
    const { client: c } = await join('C');
    await observer.next((f) => f.event === 'pusher_internal:member_added'); // C
    expect(memberEvents(observer)).toEqual(['added:B', 'added:C']);

    // B's first socket leaves: B is still there.
    await b1.close();
    await until(() => instance.realtime.connectionCount() === 3, 'B1 gone');
    c.send({ event: 'pusher:unsubscribe', data: { channel } });
    await observer.next((f) => f.event === 'pusher_internal:member_removed'); // C
    expect(memberEvents(observer)).toEqual(['added:B', 'added:C', 'removed:C']);
    // B's last socket leaves: now B is removed.
    await b2.close();
    await observer.next((f) => f.event === 'pusher_internal:member_removed'); // B
    expect(memberEvents(observer)).toEqual(['added:B', 'added:C', 'removed:C', 'removed:B']);
  });

  it('presence works with a stock pusher-js client (members, member_added, member_removed)', async () => {
    const instance = await start();
    const presenceClient = (userId: string) =>
      trackPusher(
        pusherJsClient(instance, (socketId, channel) =>
          instance.realtime.authorizeChannel(socketId, channel, {
            user_id: userId,
            user_info: { name: userId },
          }),
        ),
      );
    const alice = presenceClient('alice');
    const aliceChannel = alice.subscribe('presence-team');
    const members = (await subscribed(aliceChannel)) as { count: number; me: { id: string } };
    expect(members.count).toBe(1);
    expect(members.me.id).toBe('alice');

    const added = nextEvent<{ id: string; info: unknown }>(aliceChannel, 'pusher:member_added');
    const bobTab1 = presenceClient('bob');
    await subscribed(bobTab1.subscribe('presence-team'));
    expect(await added).toEqual({ id: 'bob', info: { name: 'bob' } });

    const addedAgain: unknown[] = [];
    aliceChannel.bind('pusher:member_added', (member: unknown) => addedAgain.push(member));
    const removed: unknown[] = [];
    aliceChannel.bind('pusher:member_removed', (member: unknown) => removed.push(member));
    const bobTab2 = presenceClient('bob');
    await subscribed(bobTab2.subscribe('presence-team'));

    bobTab1.unsubscribe('presence-team');
    const removedEvent = nextEvent<{ id: string }>(aliceChannel, 'pusher:member_removed');
    // Sentinel through the same channel: if bob's first tab had caused member_removed, it came before this.
    const sentinel = nextEvent(aliceChannel, 'sentinel');
    await until(() => instance.realtime.connectionCount() === 3, 'three sockets');
    await instance.realtime.broadcaster.publish(['presence-team'], 'sentinel', {});
    await sentinel;
    expect(addedAgain).toEqual([]);
    expect(removed).toEqual([]);

    bobTab2.unsubscribe('presence-team');
    expect((await removedEvent).id).toBe('bob');
    expect(addedAgain).toEqual([]);
  });

  it('signs in users (pusher:signin) and refuses a forged sign-in with 4009', async () => {
    const instance = await start();
    const client = track(await RawSocket.open(instance.socketUrl()));
    const { socketId } = client;
    const { auth, user_data } = instance.realtime.authenticateUser(socketId, {
      id: '7',
      user_info: { name: 'Sara' },
    });
    client.send({ event: 'pusher:signin', data: { auth, user_data } });
    const success = await client.next((f) => f.event === 'pusher:signin_success');
    expect(JSON.parse(success.data as string)).toEqual({ user_data });
    // Its own server-to-user channel is allowed; another user's is not.
    expect((await client.subscribe('#server-to-user-7')).event).toBe(
      'pusher_internal:subscription_succeeded',
    );
    expect((await client.subscribe('#server-to-user-8')).event).toBe('pusher:subscription_error');

    const forger = track(await RawSocket.open(instance.socketUrl()));
    const forgerId = forger.socketId;
    forger.send({ event: 'pusher:signin', data: { auth, user_data } }); // signed for another socket
    expect((await forger.next((f) => f.event === 'pusher:error')).data).toMatchObject({
      code: 4009,
    });
    expect((await within(forger.closed, 'close 4009')).code).toBe(4009);
    expect(forgerId).not.toBe(socketId);
    expect(signUser(instance.options, socketId, user_data)).toBe(auth);
  });

  it('signs in a stock pusher-js client through userAuthentication', async () => {
    const instance = await start();
    const pusher = trackPusher(
      pusherJsClient(
        instance,
        (socketId, channel) => instance.realtime.authorizeChannel(socketId, channel),
        {
          userAuthentication: {
            customHandler: ({ socketId }, callback) =>
              callback(null, instance.realtime.authenticateUser(socketId, { id: '7' })),
          },
        },
      ),
    );
    pusher.signin();
    await within(pusher.user.signinDonePromise, 'signin done');
    expect((pusher.user.user_data as { id: string }).id).toBe('7');
  });

  it('closeSessionSockets closes the sockets of that session with 4009 and stops delivery to them', async () => {
    const instance = await start();
    const loggedOut = track(await RawSocket.open(instance.socketUrl()));
    const { socketId } = loggedOut;
    const otherSession = track(await RawSocket.open(instance.socketUrl()));
    const otherId = otherSession.socketId;
    for (const [client, id] of [
      [loggedOut, socketId],
      [otherSession, otherId],
    ] as const) {
      await client.subscribe(
        'private-chat.1',
        instance.realtime.authorizeChannel(id, 'private-chat.1').auth,
      );
    }
    instance.realtime.bindSocketToSession(socketId, 'session-a');
    instance.realtime.bindSocketToSession(otherId, 'session-b');

    await instance.realtime.closeSessionSockets('session-a');
    expect(instance.realtime.connectionCount()).toBe(1);
    expect((await within(loggedOut.closed, 'close 4009')).code).toBe(4009);

    await instance.realtime.broadcaster.publish(['private-chat.1'], CHAT_EVENT, chat(1));
    await otherSession.next((f) => f.event === CHAT_EVENT);
    expect(loggedOut.eventsOn('private-chat.1')).toEqual([]);
  });

  it('shuts down with 4200; pusher-js reconnects and re-subscribes by itself to a new instance on the same port', async () => {
    const first = await start();
    const pusher = trackPusher(
      pusherJsClient(first, (socketId, channel) =>
        first.realtime.authorizeChannel(socketId, channel),
      ),
    );
    const channel = pusher.subscribe('private-chat.3');
    await subscribed(channel);
    const firstSocketId = pusher.connection.socket_id;
    const closeCodes: number[] = [];
    pusher.connection.bind('error', (error: { error?: { data?: { code?: number } } }) => {
      const code = error.error?.data?.code;
      if (code !== undefined) closeCodes.push(code);
    });
    const raw = track(await RawSocket.connect(first.socketUrl()));

    await first.close();
    expect((await within(raw.closed, 'close 4200')).code).toBe(4200);
    expect(closeCodes).toContain(4200);

    // A new instance (same credentials) on the same port. pusher-js retried at once (4200 means
    // "reconnect now"), found nothing listening, and tries again on its own timer (~15 s).
    const resubscribed = subscribed(channel, 'pusher-js re-subscribed on the new instance', 45_000);
    const second = await start({ ...first.options, port: first.port });
    await resubscribed;
    expect(pusher.connection.socket_id).not.toBe(firstSocketId);
    expect(second.realtime.connectionCount()).toBe(1);
    const received = nextEvent(channel, CHAT_EVENT);
    await second.realtime.broadcaster.publish(['private-chat.3'], CHAT_EVENT, chat(9));
    expect(await received).toEqual(chat(9));
  }, 60_000);

  it('closing the http server (Fastify app.close with an onClose hook) shuts the endpoint down with 4200', async () => {
    const options = {
      ...pusherCredentials(),
      allowedOrigins: [],
      activityTimeoutSeconds: 30,
      pongTimeoutSeconds: 30,
    };
    const realtime = createRealtime(options);
    const app = Fastify({ logger: false, return503OnClosing: true });
    realtime.attach(app.server);
    app.addHook('onClose', async () => realtime.close());
    await app.register(realtime.triggerRoutes);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const client = await RawSocket.open(`ws://127.0.0.1:${port}/app/${options.key}`);
    await within(app.close(), 'app.close() with open websockets');
    expect((await within(client.closed, 'close 4200')).code).toBe(4200);
    expect(realtime.connectionCount()).toBe(0);
  });

  it('authorizeChannel/authenticateUser answer like /broadcasting/auth and throw on malformed input', async () => {
    const instance = await start();
    const { realtime, options } = instance;
    expect(realtime.authorizeChannel('1.2', 'private-chat.1')).toEqual({
      auth: signChannel(options, '1.2', 'private-chat.1'),
    });
    const presence = realtime.authorizeChannel('1.2', 'presence-room', {
      user_id: '5',
      user_info: { n: 1 },
    });
    expect(presence.channel_data).toBe('{"user_id":"5","user_info":{"n":1}}');
    expect(presence.auth).toBe(signChannel(options, '1.2', 'presence-room', presence.channel_data));
    expect(() => realtime.authorizeChannel('12', 'private-chat.1')).toThrow();
    expect(() => realtime.authorizeChannel('1.2', 'private chat')).toThrow();
    expect(() => realtime.authorizeChannel('1.2', 'public-news')).toThrow();
    expect(() => realtime.authorizeChannel('1.2', 'presence-room')).toThrow();
    expect(realtime.authenticateUser('1.2', { id: '5' })).toEqual({
      auth: signUser(options, '1.2', '{"id":"5"}'),
      user_data: '{"id":"5"}',
    });
    expect(() => realtime.authenticateUser('x', { id: '5' })).toThrow();
    expect(() => realtime.authenticateUser('1.2', { id: '' })).toThrow();
  });
});
