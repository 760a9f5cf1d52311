/**
 * The endpoint's limits over real sockets: connection caps (per address and in total, 4100), the
 * auth timeout (4202), public channels refused, and the incoming frame rate (4301, then 4100).
 */
import { describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { connected, pusherJsClient } from '../../../test-support/pusher-js.js';
import { RawSocket } from '../../../test-support/raw-socket.js';
import { pusherCredentials } from '../../../test-support/server-process.js';
import { useRealtimeInstances, type Instance } from '../../../test-support/test-app.js';
import { sleep, until, within } from '../../../test-support/wait.js';
import { createRealtime } from './create-realtime.js';
import { signChannel } from './signatures.js';

const { start, track, trackPusher } = useRealtimeInstances();

const established = async (instance: Instance, options: WebSocket.ClientOptions = {}) => {
  const client = track(await RawSocket.open(instance.socketUrl(), options));
  return { client, socketId: client.socketId };
};

/** Opens a socket the server refuses after the upgrade: its pusher:error and close code. */
const refused = async (instance: Instance, options: WebSocket.ClientOptions = {}) => {
  const client = track(await RawSocket.connect(instance.socketUrl(), options));
  const error = await client.next((f) => f.event === 'pusher:error', 'the refusal');
  const { code } = await within(client.closed, 'the close');
  expect(client.frames.some((f) => f.event === 'pusher:connection_established')).toBe(false);
  return { error: error.data, code };
};

const from = (address: string): WebSocket.ClientOptions => ({
  headers: { 'x-forwarded-for': address },
});

describe('connection caps', () => {
  it('refuses the socket over the per-address cap with pusher:error and close 4100; the others stay', async () => {
    const instance = await start({ maxConnectionsPerAddress: 3 });
    const held = [];
    for (let i = 0; i < 3; i++) held.push((await established(instance)).client);
    expect(await refused(instance)).toEqual({
      error: { code: 4100, message: 'Over capacity' },
      code: 4100,
    });
    for (const client of held) await client.ping();
    expect(instance.realtime.connectionCount()).toBe(3);

    // A place freed is a place taken again.
    await held[0]!.close();
    await until(() => instance.realtime.connectionCount() === 2, 'the place freed');
    await (await established(instance)).client.ping();
  });

  it('counts each X-Forwarded-For address apart behind a trusted proxy, and still holds the total', async () => {
    const instance = await start({
      trustProxy: ['127.0.0.1'],
      maxConnectionsPerAddress: 2,
      maxConnections: 5,
    });
    await established(instance, from('198.51.100.1'));
    await established(instance, from('198.51.100.1'));
    expect((await refused(instance, from('198.51.100.1'))).code).toBe(4100);
    await established(instance, from('198.51.100.2'));
    await established(instance, from('198.51.100.2'));
    await established(instance, from('198.51.100.3'));
    // Five open: a new address is refused too.
    expect((await refused(instance, from('198.51.100.4'))).code).toBe(4100);
    expect(instance.realtime.connectionCount()).toBe(5);
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', async () => {
    const instance = await start({ maxConnectionsPerAddress: 2 });
    await established(instance, from('198.51.100.1'));
    await established(instance, from('198.51.100.2'));
    expect((await refused(instance, from('198.51.100.3'))).code).toBe(4100);
  });

  it('a stock pusher-js client over the cap sees 4100, backs off, and connects once a place is free', async () => {
    const instance = await start({ maxConnectionsPerAddress: 1 });
    const { client: holder } = await established(instance);
    const pusher = trackPusher(
      pusherJsClient(instance, (socketId, channel) =>
        instance.realtime.authorizeChannel(socketId, channel),
      ),
    );
    const codes: number[] = [];
    pusher.connection.bind('error', (error: { error?: { data?: { code?: number } } }) => {
      const code = error.error?.data?.code;
      if (code !== undefined) codes.push(code);
    });
    await until(() => codes.includes(4100), 'pusher-js told 4100');
    expect(pusher.connection.state).not.toBe('connected');
    await holder.close();
    await connected(pusher, 'pusher-js connected once the place was free');
  });
});

describe('auth timeout', () => {
  it('closes a socket with no authorized subscription (4202) and keeps authorized ones', async () => {
    const instance = await start({ authTimeoutSeconds: 1, allowPublicChannels: true });
    const sign = (socketId: string, channel: string, data?: string) =>
      signChannel(instance.options, socketId, channel, data);

    // Pings keep a socket alive, but not authorized.
    const { client: idle } = await established(instance);
    await idle.ping();
    const { client: publicOnly } = await established(instance);
    expect((await publicOnly.subscribe('news')).event).toBe(
      'pusher_internal:subscription_succeeded',
    );
    const { client: privateOne, socketId: privateId } = await established(instance);
    await privateOne.subscribe('private-chat.1', sign(privateId, 'private-chat.1'));
    const { client: presenceOne, socketId: presenceId } = await established(instance);
    const member = JSON.stringify({ user_id: '4' });
    await presenceOne.subscribe('presence-room', sign(presenceId, 'presence-room', member), member);
    const { client: signedIn, socketId: signedInId } = await established(instance);
    signedIn.send({
      event: 'pusher:signin',
      data: instance.realtime.authenticateUser(signedInId, { id: '7' }),
    });
    await signedIn.next((f) => f.event === 'pusher:signin_success');
    const { client: leaver, socketId: leaverId } = await established(instance);
    await leaver.subscribe('private-chat.2', sign(leaverId, 'private-chat.2'));

    expect((await within(idle.closed, 'idle closed')).code).toBe(4202);
    expect(idle.errorCodes()).toEqual([4202]);
    expect((await within(publicOnly.closed, 'public-only closed')).code).toBe(4202);

    await sleep(2_000); // twice the timeout
    for (const client of [privateOne, presenceOne, signedIn, leaver]) await client.ping();

    // Leaving its last authorized channel starts the clock again.
    leaver.send({ event: 'pusher:unsubscribe', data: { channel: 'private-chat.2' } });
    expect((await within(leaver.closed, 'leaver closed')).code).toBe(4202);
    await privateOne.ping();
  });

  it('pusher-js reconnects at once after 4202, so a page whose auth call failed tries again', async () => {
    const instance = await start({ authTimeoutSeconds: 0.5 });
    let calls = 0;
    const pusher = trackPusher(
      pusherJsClient(instance, (socketId, channel) => {
        calls += 1;
        if (calls === 1) throw new Error('the auth call failed');
        return instance.realtime.authorizeChannel(socketId, channel);
      }),
    );
    const firstSocketId = await connected(pusher);
    const channel = pusher.subscribe('private-chat.5');
    await until(() => channel.subscribed, 'subscribed after the reconnect');
    expect(calls).toBe(2);
    expect(pusher.connection.socket_id).not.toBe(firstSocketId);
  });
});

describe('public channels', () => {
  it('are refused with pusher:subscription_error 403 and hear nothing', async () => {
    const instance = await start();
    const { client } = await established(instance);
    const answer = await client.subscribe('news');
    expect(answer).toMatchObject({
      event: 'pusher:subscription_error',
      channel: 'news',
      data: { status: 403 },
    });
    await instance.realtime.broadcaster.publish(['news'], 'headline', { n: 1 });
    await client.ping();
    expect(client.eventsOn('news')).toEqual([]);
  });

  it('are served with allowPublicChannels', async () => {
    const instance = await start({ allowPublicChannels: true });
    const { client } = await established(instance);
    expect((await client.subscribe('news')).event).toBe('pusher_internal:subscription_succeeded');
    await instance.realtime.broadcaster.publish(['news'], 'headline', { n: 1 });
    expect((await client.next((f) => f.event === 'headline')).channel).toBe('news');
  });
});

describe('incoming frame rate', () => {
  it('drops frames over the rate unread, tells the first of a run (4301), and serves again after a refill', async () => {
    const instance = await start({ frameRate: { burst: 5, perSecond: 2 } });
    const { client } = await established(instance);
    const pongs = () => client.frames.filter((f) => f.event === 'pusher:pong').length;
    for (let i = 0; i < 5; i++) client.send({ event: 'pusher:ping', data: {} });
    // Over the burst: not even parsed (bad JSON would get 4200), one 4301 for the whole run.
    for (let i = 0; i < 10; i++) client.send('{not json');
    await until(() => pongs() === 5 && client.errorCodes().length === 1, 'the burst and one 4301');
    expect(client.errorCodes()).toEqual([4301]);
    expect(client.frames.find((f) => f.event === 'pusher:error')?.data).toEqual({
      code: 4301,
      message: 'Client event rate limit reached',
    });

    // A refill, however long it takes on a busy machine: pings dropped meanwhile belong to the same
    // run (no second 4301) until one is served again.
    await until(
      () => {
        if (pongs() > 5) return true;
        client.send({ event: 'pusher:ping', data: {} });
        return false;
      },
      'a ping served after the refill',
      10_000,
      100,
    );
    expect(client.errorCodes()).toEqual([4301]);
    // A new run after a served frame is told again, once: more frames than the bucket can hold
    // (the burst), so some are dropped whatever the time elapsed.
    const served = pongs();
    for (let i = 0; i < 20; i++) client.send({ event: 'pusher:ping', data: {} });
    await until(() => client.errorCodes().length === 2, 'the next run told');
    expect(client.errorCodes()).toEqual([4301, 4301]);
    expect(pongs() - served).toBeLessThan(20);
  });

  it('closes a socket that keeps flooding with 4100', async () => {
    const instance = await start({ frameRate: { burst: 5, perSecond: 2 } });
    const { client } = await established(instance);
    const { client: bystander } = await established(instance);
    for (let i = 0; i < 200; i++) client.send({ event: 'pusher:ping', data: {} });
    expect((await within(client.closed, 'the flooder closed')).code).toBe(4100);
    expect(client.errorCodes()).toEqual([4301, 4100]);
    await bystander.ping();
    await until(() => instance.realtime.connectionCount() === 1, 'the flooder forgotten');
  });
});

describe('options', () => {
  it('refuses nonsensical limits and a malformed trusted proxy at start', () => {
    const base = {
      ...pusherCredentials(),
      allowedOrigins: [],
      activityTimeoutSeconds: 30,
      pongTimeoutSeconds: 30,
    };
    expect(() => createRealtime({ ...base, maxConnections: 0 })).toThrow(/maxConnections/);
    expect(() => createRealtime({ ...base, maxConnectionsPerAddress: 1.5 })).toThrow();
    expect(() => createRealtime({ ...base, authTimeoutSeconds: 0 })).toThrow(/authTimeout/);
    expect(() => createRealtime({ ...base, frameRate: { burst: 0, perSecond: 1 } })).toThrow();
    expect(() => createRealtime({ ...base, trustProxy: ['not-an-address'] })).toThrow();
  });
});
