import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InitialDataResponse, SendMessageResponse } from '../../../shared/api.js';
import { loadConfig } from '../../config.js';
import { signInOverHttp, type HttpSession } from '../../test-support/http-client.js';
import { connectLiveClient, waitUntil, type LiveClient } from '../../test-support/live-client.js';
import { startServer, type ServerProcess } from '../../test-support/server-process.js';
import { APP_KEY, createTestApp, type TestContext } from '../../test-support/test-app.js';

const conversationOf = async (session: HttpSession, otherName: string) => {
  const data = (await (
    await session.call('GET', '/load/messengers/initial/data')
  ).json()) as InitialDataResponse;
  const found = data.messengerUsers.find(
    (item) => item.company.user.name === otherName || item.candidate.user.name === otherName,
  );
  if (!found) throw new Error(`no conversation with ${otherName}`);
  return found;
};

const sendAs = async (
  session: HttpSession,
  otherName: string,
  message: string,
  socketId?: string,
) => {
  const item = await conversationOf(session, otherName);
  const response = await session.call(
    'POST',
    '/user/send/message',
    {
      receiver_id: session.role === 'candidate' ? item.company_id : item.candidate_id,
      messenger_user: item.id,
      job_id: item.job_id,
      message,
      client_id: randomUUID(),
    },
    socketId ? { 'x-socket-id': socketId } : {},
  );
  expect(response.status).toBe(200);
  return (await response.json()) as SendMessageResponse;
};

describe('live delivery through the embedded Pusher endpoint (one instance)', () => {
  let ctx: TestContext;
  let baseUrl: string;
  const clients: LiveClient[] = [];
  const live = async (session: HttpSession) => {
    const client = await connectLiveClient(baseUrl, session, { pusherKey: ctx.config.pusher.key });
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    ctx = await createTestApp('sqlite');
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const address = ctx.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    baseUrl = `http://127.0.0.1:${address.port}`;
  });
  afterAll(async () => {
    clients.forEach((client) => client.disconnect());
    await ctx.close();
  });

  it('delivers a company’s send to the candidate and to the sender’s other tab, not to the sending socket', async () => {
    const sara = await signInOverHttp(baseUrl, 'candidate@example.com', { appKey: APP_KEY });
    const acme = await signInOverHttp(baseUrl, 'company@example.com', { appKey: APP_KEY });
    const saraTab = await live(sara);
    const acmeSendingTab = await live(acme);
    const acmeOtherTab = await live(acme);

    const { message } = await sendAs(
      acme,
      'Sara Haddad',
      'Live hello from Acme',
      acmeSendingTab.socketId(),
    );
    const [received] = await saraTab.waitFor(1);
    expect(received).toEqual(message);
    expect(saraTab.channel.name).toBe(`private-chat.${sara.userId}`);
    await acmeOtherTab.waitFor(1);
    expect(acmeOtherTab.received[0]?.id).toBe(message.id);

    // A second send, then the first tab has still received nothing of its own.
    await sendAs(acme, 'Sara Haddad', 'Second one', acmeSendingTab.socketId());
    await saraTab.waitFor(2);
    await acmeOtherTab.waitFor(2);
    expect(acmeSendingTab.received).toEqual([]);

    // The other direction.
    const reply = await sendAs(sara, 'Acme Robotics', 'Hello back', saraTab.socketId());
    await acmeSendingTab.waitFor(1);
    expect(acmeSendingTab.received[0]).toEqual(reply.message);
    expect(saraTab.received.map((chat) => chat.id)).not.toContain(reply.message.id);
  });

  it('refuses another user’s channel (403) and that client receives nothing', async () => {
    const omar = await signInOverHttp(baseUrl, 'candidate2@example.com', { appKey: APP_KEY });
    const sara = await signInOverHttp(baseUrl, 'candidate@example.com', { appKey: APP_KEY });
    const forbidden = await fetch(`${baseUrl}/broadcasting/auth`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: omar.cookie,
        'x-xsrf-token': omar.csrf,
      },
      body: `socket_id=123.456&channel_name=${encodeURIComponent(`private-chat.${sara.userId}`)}`,
    });
    expect(forbidden.status).toBe(403);
    const own = await fetch(`${baseUrl}/broadcasting/auth`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: omar.cookie,
        'x-xsrf-token': omar.csrf,
      },
      body: `socket_id=123.456&channel_name=${encodeURIComponent(`private-chat.${omar.userId}`)}`,
    });
    expect(own.status).toBe(200);
    expect(((await own.json()) as { auth: string }).auth).toMatch(/^[^:]+:[0-9a-f]{64}$/);
    const noCsrf = await fetch(`${baseUrl}/broadcasting/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: omar.cookie },
      body: `socket_id=123.456&channel_name=${encodeURIComponent(`private-chat.${omar.userId}`)}`,
    });
    expect(noCsrf.status).toBe(419);

    await expect(
      connectLiveClient(baseUrl, omar, {
        pusherKey: ctx.config.pusher.key,
        channel: `private-chat.${sara.userId}`,
      }),
    ).rejects.toThrow(/subscription refused/);
    const acme = await signInOverHttp(baseUrl, 'company@example.com', { appKey: APP_KEY });
    const saraTab = await live(sara);
    await sendAs(acme, 'Sara Haddad', 'For Sara only');
    await saraTab.waitFor(1);
  });

  it('stops delivering to the sockets of a session that signed out', async () => {
    const sara = await signInOverHttp(baseUrl, 'candidate@example.com', { appKey: APP_KEY });
    const acme = await signInOverHttp(baseUrl, 'company@example.com', { appKey: APP_KEY });
    const saraTab = await live(sara);
    await sendAs(acme, 'Sara Haddad', 'Before sign-out');
    await saraTab.waitFor(1);

    const out = await fetch(`${baseUrl}/logout`, {
      method: 'POST',
      headers: { cookie: sara.cookie, 'x-xsrf-token': sara.csrf },
    });
    expect(out.status).toBe(204);
    await waitUntil(
      () => saraTab.pusher.connection.state !== 'connected' || saraTab.channel.subscribed === false,
      'socket closed',
    );

    // Another tab of Acme proves the next messages are broadcast at all.
    const acmeTab = await live(acme);
    await sendAs(acme, 'Sara Haddad', 'After sign-out 1');
    await sendAs(acme, 'Sara Haddad', 'After sign-out 2');
    await acmeTab.waitFor(2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(saraTab.received.map((chat) => chat.message)).toEqual(['Before sign-out']);
  });
  it('closes the sockets of a session replaced by a new sign-in in the same browser', async () => {
    const sara = await signInOverHttp(baseUrl, 'candidate@example.com', { appKey: APP_KEY });
    const saraTab = await live(sara);
    // Someone else signs in over Sara's session (a shared computer): her session is replaced.
    const over = await fetch(`${baseUrl}/login`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: sara.cookie,
        'x-xsrf-token': sara.csrf,
      },
      body: JSON.stringify({ email: 'candidate2@example.com', password: 'password' }),
    });
    expect(over.status).toBe(200);
    await waitUntil(
      () => saraTab.pusher.connection.state !== 'connected' || !saraTab.channel.subscribed,
      'replaced session socket closed',
    );
    const acme = await signInOverHttp(baseUrl, 'company@example.com', { appKey: APP_KEY });
    const acmeTab = await live(acme);
    await sendAs(acme, 'Sara Haddad', 'After the other sign-in');
    await acmeTab.waitFor(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(saraTab.received).toEqual([]);
  });
});

describe('two server processes sharing PostgreSQL and Redis', () => {
  const database = `rt_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
  const adminUrl = loadConfig().test.postgresUrl;
  const servers: ServerProcess[] = [];
  const clients: LiveClient[] = [];

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${database}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${database}`;
    const env = {
      DATABASE_URL: url.toString(),
      REDIS_URL: loadConfig().test.redisUrl,
      DEMO_SEED: 'on',
      PUSHER_APP_ID: `rt-${database}`,
    };
    // One after the other: the first migrates and seeds, the second finds everything in place.
    servers.push(await startServer({ env }));
    servers.push(await startServer({ env }));
  });
  afterAll(async () => {
    clients.forEach((client) => client.disconnect());
    await Promise.all(servers.map((server) => server.stop()));
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
  });

  it('delivers to a client on instance A what was sent through instance B', async () => {
    const [a, b] = servers;
    if (!a || !b) throw new Error('servers did not start');
    const saraOnA = await signInOverHttp(a.url, 'candidate@example.com');
    const acmeOnB = await signInOverHttp(b.url, 'company@example.com');
    const saraLive = await connectLiveClient(a.url, saraOnA);
    clients.push(saraLive);
    const acmeLiveOnA = await connectLiveClient(
      a.url,
      await signInOverHttp(a.url, 'company@example.com'),
    );
    clients.push(acmeLiveOnA);
    const { message } = await sendAs(acmeOnB, 'Sara Haddad', 'Across instances');
    const [received] = await saraLive.waitFor(1);
    expect(received).toEqual(message);
    await acmeLiveOnA.waitFor(1);
    expect(acmeLiveOnA.received[0]?.id).toBe(message.id);
  });
});
