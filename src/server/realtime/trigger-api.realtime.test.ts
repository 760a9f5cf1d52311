import Fastify from 'fastify';
import PusherServer from 'pusher';
import { describe, expect, it, vi } from 'vitest';
import { pusherCredentials } from '../../../test-support/server-process.js';
import { useRealtimeInstances, type Instance } from '../../../test-support/test-app.js';
import { createRealtime } from './create-realtime.js';
import { md5Hex } from './signatures.js';
import { createTriggerRoutes } from './trigger-api.js';

const CHAT_EVENT = 'App\\Events\\ChatMessage';

const { start, track, subscriber } = useRealtimeInstances();

/** The official server library pointed at the embedded endpoint. */
const officialClient = (instance: Instance, overrides: { secret?: string } = {}) =>
  new PusherServer({
    appId: instance.options.appId,
    key: instance.options.key,
    secret: overrides.secret ?? instance.options.secret,
    host: '127.0.0.1',
    port: String(instance.port),
    useTLS: false,
  });

/** POSTs a body with a query string signed by the official library (optionally `ageSeconds` old). */
const signedPost = async (
  instance: Instance,
  path: '/events' | '/batch_events',
  signedBody: string,
  options: { sentBody?: string; ageSeconds?: number; appId?: string } = {},
) => {
  const pusher = officialClient(instance);
  const fullPath = `/apps/${options.appId ?? instance.options.appId}${path}`;
  const sign = () =>
    pusher.createSignedQueryString({ method: 'POST', path: fullPath, body: signedBody });
  let query: string;
  if (options.ageSeconds) {
    const spy = vi.spyOn(Date, 'now').mockReturnValue(Date.now() - options.ageSeconds * 1000);
    try {
      query = sign();
    } finally {
      spy.mockRestore();
    }
  } else {
    query = sign();
  }
  return fetch(`http://127.0.0.1:${instance.port}${fullPath}?${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: options.sentBody ?? signedBody,
  });
};

describe('Pusher HTTP trigger API', () => {
  it('accepts a trigger from the official pusher package and delivers it', async () => {
    const instance = await start();
    const client = await subscriber(instance, 'private-chat.4');
    const payload = { chatMessage: { id: 1, message: 'from the HTTP API ✓' } };
    const response = await officialClient(instance).trigger(
      ['private-chat.4'],
      CHAT_EVENT,
      payload,
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({});
    const frame = await client.next((f) => f.event === CHAT_EVENT);
    expect(frame).toEqual({
      event: CHAT_EVENT,
      channel: 'private-chat.4',
      data: JSON.stringify(payload),
    });
  });

  it('excludes the socket_id given to trigger, and delivers batches in order', async () => {
    const instance = await start();
    const sender = await subscriber(instance, 'private-chat.5');
    const { socketId } = sender;
    const other = await subscriber(instance, 'private-chat.5');
    const pusher = officialClient(instance);
    await pusher.trigger('private-chat.5', 'excluded', { n: 1 }, { socket_id: socketId });
    await pusher.triggerBatch([
      { channel: 'private-chat.5', name: 'batch-1', data: { n: 2 } },
      { channel: 'private-chat.5', name: 'batch-2', data: { n: 3 }, socket_id: socketId },
      { channel: 'private-chat.5', name: 'batch-3', data: { n: 4 } },
    ]);
    await other.next((f) => f.event === 'batch-3');
    expect(other.eventsOn('private-chat.5').map((f) => f.event)).toEqual([
      'excluded',
      'batch-1',
      'batch-2',
      'batch-3',
    ]);
    await sender.next((f) => f.event === 'batch-3');
    expect(sender.eventsOn('private-chat.5').map((f) => f.event)).toEqual(['batch-1', 'batch-3']);
  });

  it('refuses a signature with a timestamp 601 s old, and accepts one 500 s old', async () => {
    const instance = await start();
    const body = JSON.stringify({ name: 'e', data: '{}', channels: ['private-chat.1'] });
    expect((await signedPost(instance, '/events', body, { ageSeconds: 601 })).status).toBe(401);
    expect((await signedPost(instance, '/events', body, { ageSeconds: 500 })).status).toBe(200);
  });

  it('refuses a changed body, a wrong secret and an unsigned request, and delivers nothing', async () => {
    const instance = await start();
    const client = await subscriber(instance, 'private-chat.1');
    const body = JSON.stringify({ name: 'e', data: '{"n":1}', channels: ['private-chat.1'] });
    const changed = body.replace('{\\"n\\":1}', '{\\"n\\":2}');
    expect(changed).not.toBe(body);
    const tampered = await signedPost(instance, '/events', body, { sentBody: changed });
    expect(tampered.status).toBe(401);
    expect(await tampered.json()).toEqual({ message: 'body_md5 does not match the body.' });

    await expect(
      officialClient(instance, { secret: 'not-the-secret' }).trigger('private-chat.1', 'e', {}),
    ).rejects.toMatchObject({ status: 401 });

    const unsigned = await fetch(
      `http://127.0.0.1:${instance.port}/apps/${instance.options.appId}/events`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      },
    );
    expect(unsigned.status).toBe(401);

    // Only a valid request gets through (sentinel), and it is the first event the socket sees.
    await officialClient(instance).trigger('private-chat.1', 'sentinel', {});
    await client.next((f) => f.event === 'sentinel');
    expect(client.eventsOn('private-chat.1').map((f) => f.event)).toEqual(['sentinel']);
  });

  it('refuses an exact replay of a signed request with 401, and delivers it once', async () => {
    const instance = await start();
    const client = await subscriber(instance, 'private-chat.6');
    const fullPath = `/apps/${instance.options.appId}/events`;
    const body = JSON.stringify({ name: 'once', data: '{"n":1}', channels: ['private-chat.6'] });
    const query = officialClient(instance).createSignedQueryString({
      method: 'POST',
      path: fullPath,
      body,
    });
    const post = () =>
      fetch(`http://127.0.0.1:${instance.port}${fullPath}?${query}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
    expect((await post()).status).toBe(200);
    const replays = await Promise.all([post(), post(), post()]);
    expect(replays.map((response) => response.status)).toEqual([401, 401, 401]);
    expect(await replays[0]!.json()).toEqual({
      message: 'Replayed request: this signature was already used. Sign every request anew.',
    });
    // A new signature (another body, or the same body a second later) is no replay.
    await officialClient(instance).trigger('private-chat.6', 'sentinel', {});
    await client.next((f) => f.event === 'sentinel');
    expect(client.eventsOn('private-chat.6').map((f) => f.event)).toEqual(['once', 'sentinel']);
  });

  it('lets the very same request through again when its delivery failed', async () => {
    let failing = true;
    const delivered: string[] = [];
    const app = Fastify({ logger: false });
    track(app);
    const options = pusherCredentials();
    await app.register(
      createTriggerRoutes({
        ...options,
        deliver: async (event) => {
          if (failing) throw Object.assign(new Error('down'), { code: 'ECONNREFUSED' });
          delivered.push(event.name);
        },
      }),
    );
    const path = `/apps/${options.appId}/events`;
    const body = JSON.stringify({ name: 'retried', data: '{}', channels: ['private-chat.1'] });
    const query = new PusherServer({ ...options, host: '127.0.0.1' }).createSignedQueryString({
      method: 'POST',
      path,
      body,
    });
    const post = () =>
      app.inject({
        method: 'POST',
        url: `${path}?${query}`,
        headers: { 'content-type': 'application/json' },
        payload: body,
      });
    expect((await post()).statusCode).toBeGreaterThanOrEqual(500);
    failing = false;
    expect((await post()).statusCode).toBe(200);
    expect((await post()).statusCode).toBe(401);
    expect(delivered).toEqual(['retried']);
  });

  it('answers 400/413/404 for bad bodies and other apps', async () => {
    const instance = await start();
    const big = JSON.stringify({ name: 'e', data: 'x'.repeat(10_241), channels: ['a'] });
    expect((await signedPost(instance, '/events', big)).status).toBe(413);
    const manyChannels = JSON.stringify({
      name: 'e',
      data: '{}',
      channels: Array.from({ length: 101 }, (_, i) => `c${i}`),
    });
    expect((await signedPost(instance, '/events', manyChannels)).status).toBe(400);
    expect((await signedPost(instance, '/events', '{not json')).status).toBe(400);
    const badChannel = JSON.stringify({ name: 'e', data: '{}', channels: ['bad channel'] });
    expect((await signedPost(instance, '/events', badChannel)).status).toBe(400);
    const batch = JSON.stringify({
      batch: Array.from({ length: 11 }, () => ({ name: 'e', data: '{}', channel: 'a' })),
    });
    expect((await signedPost(instance, '/batch_events', batch)).status).toBe(400);
    const ok = JSON.stringify({ name: 'e', data: '{}', channels: ['a'] });
    expect((await signedPost(instance, '/events', ok, { appId: 'other-app' })).status).toBe(404);
    expect(md5Hex(ok)).toMatch(/^[0-9a-f]{32}$/);
  });

  it('keeps its raw-body JSON parser to its own routes', async () => {
    const realtime = createRealtime({
      ...pusherCredentials(),
      allowedOrigins: [],
      activityTimeoutSeconds: 30,
      pongTimeoutSeconds: 30,
    });
    const app = Fastify({ logger: false });
    track({
      close: async () => {
        await realtime.close();
        await app.close();
      },
    });
    await app.register(realtime.triggerRoutes);
    app.post('/echo', async (request) => ({ body: request.body as unknown }));
    const response = await app.inject({ method: 'POST', url: '/echo', payload: { a: 1 } });
    expect(response.json()).toEqual({ body: { a: 1 } });
  });
});
