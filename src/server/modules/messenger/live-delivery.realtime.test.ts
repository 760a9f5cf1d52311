import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../../../shared/paths.js';
import { userChannelName } from '../../../shared/events.js';
import { ACME, OMAR, SARA } from '../../../../test-support/accounts.js';
import { freshPostgresDatabase, type ServerDatabase } from '../../../../test-support/databases.js';
import {
  authorizeOverHttp,
  postLogin,
  signInOverHttp,
  signOut,
  type HttpSession,
} from '../../../../test-support/http-session.js';
import { conversationWith, initialData, sendMessage } from '../../../../test-support/messaging.js';
import { listenForChats, type ChatListener } from '../../../../test-support/pusher-js.js';
import {
  startServer,
  uniqueAppId,
  type ServerProcess,
} from '../../../../test-support/server-process.js';
import { settings } from '../../../../test-support/settings.js';
import {
  APP_KEY,
  createTestApp,
  listen,
  type TestContext,
} from '../../../../test-support/test-app.js';
import { sleep, until } from '../../../../test-support/wait.js';

/** `session` sends a message to `to` in their (first) conversation; the stored chat. */
const sendAs = async (
  session: HttpSession,
  to: HttpSession,
  message: string,
  socketId?: string,
) => {
  const outcome = await sendMessage(session, await conversationWith(session, to.userId), message, {
    socketId,
  });
  if (!outcome.ok) throw new Error(`send answered ${outcome.status}: ${outcome.body}`);
  expect(outcome.status).toBe(200);
  return outcome.chat;
};

describe('live delivery through the embedded Pusher endpoint (one instance)', () => {
  let ctx: TestContext;
  let baseUrl: string;
  const clients: ChatListener[] = [];
  const live = async (session: HttpSession) => {
    const client = await listenForChats(baseUrl, session, { pusherKey: ctx.config.pusher.key });
    clients.push(client);
    return client;
  };
  const signIn = (email: string) => signInOverHttp(baseUrl, email, { appKey: APP_KEY });

  beforeAll(async () => {
    ctx = await createTestApp('sqlite');
    baseUrl = await listen(ctx.app);
  });
  afterAll(async () => {
    clients.forEach((client) => client.disconnect());
    await ctx.close();
  });

  it('delivers a company’s send to the candidate and to the sender’s other tab, not to the sending socket', async () => {
    const sara = await signIn(SARA.email);
    const acme = await signIn(ACME.email);
    const saraTab = await live(sara);
    const acmeSendingTab = await live(acme);
    const acmeOtherTab = await live(acme);

    const message = await sendAs(acme, sara, 'Live hello from Acme', acmeSendingTab.socketId());
    const [received] = await saraTab.waitFor(1);
    expect(received).toEqual(message);
    expect(saraTab.channel.name).toBe(`private-chat.${sara.userId}`);
    await acmeOtherTab.waitFor(1);
    expect(acmeOtherTab.received[0]?.id).toBe(message.id);

    // A second send, then the first tab has still received nothing of its own.
    await sendAs(acme, sara, 'Second one', acmeSendingTab.socketId());
    await saraTab.waitFor(2);
    await acmeOtherTab.waitFor(2);
    expect(acmeSendingTab.received).toEqual([]);

    // The other direction.
    const reply = await sendAs(sara, acme, 'Hello back', saraTab.socketId());
    await acmeSendingTab.waitFor(1);
    expect(acmeSendingTab.received[0]).toEqual(reply);
    expect(saraTab.received.map((chat) => chat.id)).not.toContain(reply.id);
  });

  it('gives each party its own view of the conversation (messengerUser): unread count and flags', async () => {
    const sara = await signIn(SARA.email);
    const acme = await signIn(ACME.email);
    const saraTab = await live(sara);
    const acmeSendingTab = await live(acme);
    const acmeOtherTab = await live(acme);
    const conversation = await conversationWith(acme, sara.userId);
    const recordOf = async (session: HttpSession) => {
      const record = (await initialData(session)).messengerUsers.find(
        (candidate) => candidate.id === conversation.id,
      );
      if (!record) throw new Error(`conversation ${conversation.id} not listed`);
      return record;
    };
    const saraBefore = await recordOf(sara);
    const acmeBefore = await recordOf(acme);

    const outcome = await sendMessage(acme, conversation, 'Your own view', {
      socketId: acmeSendingTab.socketId(),
    });
    if (!outcome.ok) throw new Error(`send answered ${outcome.status}`);
    await saraTab.waitFor(1);
    await acmeOtherTab.waitFor(1);
    const [toSara] = saraTab.events;
    const [toAcme] = acmeOtherTab.events;
    expect(toSara?.chatMessage).toEqual(outcome.chat);
    expect(toAcme?.chatMessage).toEqual(outcome.chat);

    // The receiver: one more unread; the sender: its own count, unchanged.
    expect(toSara?.messengerUser.is_seen_messages_count).toBe(
      saraBefore.is_seen_messages_count + 1,
    );
    expect(toAcme?.messengerUser.is_seen_messages_count).toBe(acmeBefore.is_seen_messages_count);
    for (const event of [toSara, toAcme]) {
      expect(event?.messengerUser).toMatchObject({
        id: conversation.id,
        last_message: 'Your own view',
        last_message_at: outcome.chat.created_at,
      });
    }
    // Each view is what that party's own fetch answers.
    const { last_message_time: _saraTime, ...saraView } = toSara!.messengerUser;
    const { last_message_time: _acmeTime, ...acmeView } = toAcme!.messengerUser;
    expect(await recordOf(sara)).toMatchObject(saraView);
    expect(await recordOf(acme)).toMatchObject(acmeView);
    expect(acmeSendingTab.events).toEqual([]);
  });

  it('refuses another user’s channel (403) and that client receives nothing', async () => {
    const omar = await signIn(OMAR.email);
    const sara = await signIn(SARA.email);
    const forbidden = await authorizeOverHttp(
      baseUrl,
      omar,
      '123.456',
      userChannelName(sara.userId),
    );
    expect(forbidden.status).toBe(403);
    const own = await authorizeOverHttp(baseUrl, omar, '123.456', userChannelName(omar.userId));
    expect(own.status).toBe(200);
    expect(((await own.json()) as { auth: string }).auth).toMatch(/^[^:]+:[0-9a-f]{64}$/);
    // Without the CSRF header (what the test is about, so not the harness's call).
    const noCsrf = await fetch(`${baseUrl}${paths.broadcastingAuth}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: omar.cookie },
      body: `socket_id=123.456&channel_name=${encodeURIComponent(userChannelName(omar.userId))}`,
    });
    expect(noCsrf.status).toBe(419);

    await expect(
      listenForChats(baseUrl, omar, {
        pusherKey: ctx.config.pusher.key,
        channel: userChannelName(sara.userId),
      }),
    ).rejects.toThrow(/subscription refused/);
    const acme = await signIn(ACME.email);
    const saraTab = await live(sara);
    await sendAs(acme, sara, 'For Sara only');
    await saraTab.waitFor(1);
  });

  it('stops delivering to the sockets of a session that signed out', async () => {
    const sara = await signIn(SARA.email);
    const acme = await signIn(ACME.email);
    const saraTab = await live(sara);
    await sendAs(acme, sara, 'Before sign-out');
    await saraTab.waitFor(1);

    const out = await signOut(baseUrl, sara);
    expect(out.status).toBe(204);
    await until(
      () => saraTab.pusher.connection.state !== 'connected' || saraTab.channel.subscribed === false,
      'socket closed',
    );

    // Another tab of Acme proves the next messages are broadcast at all.
    const acmeTab = await live(acme);
    await sendAs(acme, sara, 'After sign-out 1');
    await sendAs(acme, sara, 'After sign-out 2');
    await acmeTab.waitFor(2);
    await sleep(300);
    expect(saraTab.received.map((chat) => chat.message)).toEqual(['Before sign-out']);
  });
  it('closes the sockets of a session replaced by a new sign-in in the same browser', async () => {
    const sara = await signIn(SARA.email);
    const saraTab = await live(sara);
    // Someone else signs in over Sara's session (a shared computer): her session is replaced.
    const over = await postLogin(
      baseUrl,
      { email: OMAR.email },
      { cookie: sara.cookie, 'x-xsrf-token': sara.csrf },
    );
    expect(over.status).toBe(200);
    await until(
      () => saraTab.pusher.connection.state !== 'connected' || !saraTab.channel.subscribed,
      'replaced session socket closed',
    );
    const acme = await signIn(ACME.email);
    const acmeTab = await live(acme);
    await sendAs(acme, sara, 'After the other sign-in');
    await acmeTab.waitFor(1);
    await sleep(300);
    expect(saraTab.received).toEqual([]);
  });
});

describe('two server processes sharing PostgreSQL and Redis', () => {
  let database: ServerDatabase;
  const servers: ServerProcess[] = [];
  const clients: ChatListener[] = [];

  beforeAll(async () => {
    database = await freshPostgresDatabase('rt');
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: settings.redisUrl,
      DEMO_SEED: 'on',
      PUSHER_APP_ID: uniqueAppId('rt'),
    };
    // One after the other: the first migrates and seeds, the second finds everything in place.
    servers.push(await startServer({ env }));
    servers.push(await startServer({ env }));
  });
  afterAll(async () => {
    clients.forEach((client) => client.disconnect());
    await Promise.all(servers.map((server) => server.stop()));
    await database?.drop();
  });

  it('delivers to a client on instance A what was sent through instance B', async () => {
    const [a, b] = servers;
    if (!a || !b) throw new Error('servers did not start');
    const saraOnA = await signInOverHttp(a.url, SARA.email);
    const acmeOnB = await signInOverHttp(b.url, ACME.email);
    const saraLive = await listenForChats(a.url, saraOnA);
    clients.push(saraLive);
    const acmeLiveOnA = await listenForChats(a.url, await signInOverHttp(a.url, ACME.email));
    clients.push(acmeLiveOnA);
    const message = await sendAs(acmeOnB, saraOnA, 'Across instances');
    const [received] = await saraLive.waitFor(1);
    expect(received).toEqual(message);
    await acmeLiveOnA.waitFor(1);
    expect(acmeLiveOnA.received[0]?.id).toBe(message.id);
  });
});
