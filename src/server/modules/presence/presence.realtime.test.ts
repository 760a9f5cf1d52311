import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  MESSAGES_SEEN_EVENT,
  PRESENCE_CHANGED_EVENT,
  TYPING_EVENT,
  type MessagesSeenEvent,
  type PresenceChangedEvent,
  type TypingEvent,
} from '../../../shared/events.js';
import { paths } from '../../../shared/paths.js';
import { ACME, NILE, OMAR, SARA } from '../../../../test-support/accounts.js';
import { freshPostgresDatabase, type ServerDatabase } from '../../../../test-support/databases.js';
import { signInOverHttp, type HttpSession } from '../../../../test-support/http-session.js';
import {
  conversationWith,
  openConversationWith,
  patchSettings,
  rowWith,
  sendTo,
} from '../../../../test-support/messaging.js';
import { listenForEvents, type EventListener } from '../../../../test-support/pusher-js.js';
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

const GRACE_SECONDS = 1;

const presenceOf = (listener: EventListener, userId: number) =>
  listener
    .named<PresenceChangedEvent>(PRESENCE_CHANGED_EVENT)
    .filter((event) => event.user_id === userId);

describe('presence, read receipts and typing (one instance)', () => {
  let ctx: TestContext;
  let baseUrl: string;
  const listeners: EventListener[] = [];
  const live = async (session: HttpSession) => {
    const listener = await listenForEvents(baseUrl, session, { pusherKey: ctx.config.pusher.key });
    listeners.push(listener);
    return listener;
  };
  const signIn = (email: string) => signInOverHttp(baseUrl, email, { appKey: APP_KEY });

  beforeAll(async () => {
    ctx = await createTestApp('sqlite', { PRESENCE_GRACE_SECONDS: String(GRACE_SECONDS) });
    baseUrl = await listen(ctx.app);
  });
  afterEach(async () => {
    listeners.splice(0).forEach((listener) => listener.disconnect());
    // everyone is offline again before the next test
    await sleep(GRACE_SECONDS * 1000 + 500);
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('a partner comes online, stays online through the grace, then goes offline with a last-seen time', async () => {
    const acme = await signIn(ACME.email);
    const sara = await signIn(SARA.email);
    const acmeLive = await live(acme);
    expect((await rowWith(acme, sara)).other_online).toBe(false);

    const saraLive = await live(sara);
    await until(() => presenceOf(acmeLive, sara.userId).length === 1, 'Sara online');
    expect(presenceOf(acmeLive, sara.userId)[0]).toEqual({
      user_id: sara.userId,
      online: true,
      last_seen_at: null,
    });
    expect(await rowWith(acme, sara)).toMatchObject({
      other_online: true,
      other_last_seen_at: null,
    });
    // Sara sees Acme online too (Acme was there first: no event, the answer says it)
    expect((await rowWith(sara, acme)).other_online).toBe(true);

    const closedAt = Date.now();
    saraLive.disconnect();
    await sleep(GRACE_SECONDS * 500);
    expect(presenceOf(acmeLive, sara.userId)).toHaveLength(1);
    expect((await rowWith(acme, sara)).other_online).toBe(true);
    await until(() => presenceOf(acmeLive, sara.userId).length === 2, 'Sara offline');
    const offline = presenceOf(acmeLive, sara.userId)[1]!;
    expect(offline.online).toBe(false);
    expect(Date.parse(offline.last_seen_at ?? '')).toBeGreaterThanOrEqual(closedAt - 1000);
    expect(Date.now() - closedAt).toBeGreaterThanOrEqual(GRACE_SECONDS * 1000 - 50);
    expect(await rowWith(acme, sara)).toMatchObject({
      other_online: false,
      other_last_seen_at: offline.last_seen_at,
    });
  });

  it('a reload within the grace tells nobody anything; only online partners are told', async () => {
    const acme = await signIn(ACME.email);
    const sara = await signIn(SARA.email);
    const nile = await signIn(NILE.email);
    const acmeLive = await live(acme);
    const firstTab = await live(sara);
    await until(() => presenceOf(acmeLive, sara.userId).length === 1, 'Sara online');
    firstTab.disconnect();
    await sleep(200);
    await live(sara);
    await sleep(GRACE_SECONDS * 1000 + 500);
    expect(presenceOf(acmeLive, sara.userId)).toHaveLength(1);
    expect((await rowWith(acme, sara)).other_online).toBe(true);
    // Nile (Sara's partner too) was offline: it hears of Sara only from its list
    const nileLive = await live(nile);
    await sleep(300);
    expect(presenceOf(nileLive, sara.userId)).toHaveLength(0);
    expect((await rowWith(nile, sara)).other_online).toBe(true);
  });

  it('show_online off: the user looks offline with no last-seen time, at once and on reconnecting', async () => {
    const acme = await signIn(ACME.email);
    const sara = await signIn(SARA.email);
    const acmeLive = await live(acme);
    const saraLive = await live(sara);
    await until(() => presenceOf(acmeLive, sara.userId).length === 1, 'Sara online');
    try {
      await patchSettings(sara, { show_online: false });
      await until(() => presenceOf(acmeLive, sara.userId).length === 2, 'Sara hidden');
      expect(presenceOf(acmeLive, sara.userId)[1]).toEqual({
        user_id: sara.userId,
        online: false,
        last_seen_at: null,
      });
      expect(await rowWith(acme, sara)).toMatchObject({
        other_online: false,
        other_last_seen_at: null,
      });
      // leaving and coming back reveals nothing either
      saraLive.disconnect();
      await sleep(GRACE_SECONDS * 1000 + 500);
      await live(sara);
      await sleep(300);
      expect(presenceOf(acmeLive, sara.userId)).toHaveLength(2);
      expect(await rowWith(acme, sara)).toMatchObject({
        other_online: false,
        other_last_seen_at: null,
      });
    } finally {
      await patchSettings(sara, { show_online: true });
    }
    // switched on again while online: Acme sees her at once
    await until(() => presenceOf(acmeLive, sara.userId).length === 3, 'Sara shown again');
    expect(presenceOf(acmeLive, sara.userId)[2]?.online).toBe(true);
  });

  it('read receipts: opening the conversation tells the sender; with receipts off nothing is revealed', async () => {
    const acme = await signIn(ACME.email);
    const sara = await signIn(SARA.email);
    const saraLive = await live(sara);
    const first = await sendTo(sara, acme, 'Did you read my CV?');
    await openConversationWith(acme, sara);
    const [seen] = await saraLive.waitFor<MessagesSeenEvent>(MESSAGES_SEEN_EVENT, 1);
    const conversation = await conversationWith(sara, acme.userId);
    expect(seen).toMatchObject({
      messenger_user_id: conversation.id,
      reader_id: acme.userId,
      last_seen_id: first.id,
    });
    const history = await openConversationWith(sara, acme);
    const shown = history.messages.flatMap((group) => group.chats).find((c) => c.id === first.id);
    expect(shown?.seen_at).toBe(seen?.seen_at);
    // opening it again with nothing unread tells nobody anything
    await openConversationWith(acme, sara);

    await patchSettings(acme, { read_receipts: false });
    try {
      const second = await sendTo(sara, acme, 'Hello again?');
      await openConversationWith(acme, sara);
      await sleep(500);
      expect(saraLive.named(MESSAGES_SEEN_EVENT)).toHaveLength(1);
      const hidden = await openConversationWith(sara, acme);
      const mine = hidden.messages
        .flatMap((group) => group.chats)
        .filter((c) => c.id === first.id || c.id === second.id);
      expect(mine).toHaveLength(2);
      // decided when read: the first was read (and told) with receipts on, the second without
      expect(mine.find((c) => c.id === first.id)?.seen_at).toBe(seen?.seen_at);
      expect(mine.find((c) => c.id === second.id)?.seen_at).toBeNull();
      // the reader still sees their own reading state of what Sara sent: it is theirs
      const readerView = await openConversationWith(acme, sara);
      const received = readerView.messages
        .flatMap((group) => group.chats)
        .find((c) => c.id === second.id);
      expect(received?.seen_at).not.toBeNull();
    } finally {
      await patchSettings(acme, { read_receipts: true });
    }
  });

  it('typing: one broadcast per 2 s per conversation and typist, only to the other party', async () => {
    const acme = await signIn(ACME.email);
    const sara = await signIn(SARA.email);
    const omar = await signIn(OMAR.email);
    const saraLive = await live(sara);
    const acmeLive = await live(acme);
    const conversation = await conversationWith(acme, sara.userId);
    for (let i = 0; i < 5; i += 1) {
      const response = await acme.call('POST', paths.typing(conversation.id));
      expect(response.status).toBe(204);
    }
    const [typing] = await saraLive.waitFor<TypingEvent>(TYPING_EVENT, 1);
    expect(typing).toEqual({ messenger_user_id: conversation.id, user_id: acme.userId });
    await sleep(500);
    expect(saraLive.named(TYPING_EVENT)).toHaveLength(1);
    expect(acmeLive.named(TYPING_EVENT)).toHaveLength(0);
    await sleep(1_700);
    expect((await acme.call('POST', paths.typing(conversation.id))).status).toBe(204);
    await saraLive.waitFor(TYPING_EVENT, 2);
    // someone else's conversation, and one that does not exist
    expect((await omar.call('POST', paths.typing(conversation.id))).status).toBe(403);
    expect((await omar.call('POST', paths.typing(2_000_000_000))).status).toBe(404);
  });
});

describe('presence across two server processes sharing PostgreSQL and Redis', () => {
  let database: ServerDatabase;
  const servers: ServerProcess[] = [];
  const listeners: EventListener[] = [];

  beforeAll(async () => {
    database = await freshPostgresDatabase('presence');
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: settings.redisUrl,
      DEMO_SEED: 'on',
      PUSHER_APP_ID: uniqueAppId('presence'),
      PRESENCE_GRACE_SECONDS: String(GRACE_SECONDS),
    };
    servers.push(await startServer({ env }));
    servers.push(await startServer({ env }));
  });
  afterAll(async () => {
    listeners.forEach((listener) => listener.disconnect());
    await Promise.all(servers.map((server) => server.stop()));
    await database?.drop();
  });

  it('a user online on instance A is online for a partner on B; moving from A to B within the grace does not flicker', async () => {
    const [a, b] = servers;
    if (!a || !b) throw new Error('servers did not start');
    const acmeOnB = await signInOverHttp(b.url, ACME.email);
    const saraOnA = await signInOverHttp(a.url, SARA.email);
    const acmeLive = await listenForEvents(b.url, acmeOnB);
    listeners.push(acmeLive);
    // Sara's arrival is told to the partners online at that moment: wait until B has recorded
    // Acme's socket (its hold reaches Redis after the subscription succeeded)
    await until(async () => (await rowWith(saraOnA, acmeOnB)).other_online, 'Acme online (on B)');
    const saraTab = await listenForEvents(a.url, saraOnA);
    listeners.push(saraTab);
    await until(() => presenceOf(acmeLive, saraOnA.userId).length === 1, 'Sara online (from A)');
    expect((await rowWith(acmeOnB, saraOnA)).other_online).toBe(true);

    // a reload that lands on the other instance
    saraTab.disconnect();
    const saraOnB = await signInOverHttp(b.url, SARA.email);
    const again = await listenForEvents(b.url, saraOnB);
    listeners.push(again);
    await sleep(GRACE_SECONDS * 1000 + 800);
    expect(presenceOf(acmeLive, saraOnA.userId)).toHaveLength(1);
    expect((await rowWith(acmeOnB, saraOnA)).other_online).toBe(true);

    again.disconnect();
    await until(() => presenceOf(acmeLive, saraOnA.userId).length === 2, 'Sara offline');
    expect(presenceOf(acmeLive, saraOnA.userId)[1]?.online).toBe(false);
    expect((await rowWith(acmeOnB, saraOnA)).other_online).toBe(false);
  });
});

describe('through a hosted Pusher (the official `pusher` package triggers; webhooks feed presence)', () => {
  const HOSTED = {
    PUSHER_APP_ID: uniqueAppId('hosted'),
    PUSHER_KEY: 'hosted-pusher-key',
    PUSHER_SECRET: 'hosted-pusher-secret-0123456789abcdef',
  };
  let hosted: ServerProcess;
  let ctx: TestContext;
  let baseUrl: string;
  const listeners: EventListener[] = [];

  beforeAll(async () => {
    // a Pusher-compatible service: our own endpoint in a process of its own, with no app of ours on it
    hosted = await startServer({ env: { ...HOSTED, DEMO_SEED: 'off' } });
    const { hostname, port } = new URL(hosted.url);
    ctx = await createTestApp('sqlite', {
      ...HOSTED,
      PUSHER_HOST: hostname,
      PUSHER_PORT: port,
      PUSHER_SCHEME: 'http',
      PRESENCE_GRACE_SECONDS: String(GRACE_SECONDS),
    });
    baseUrl = await listen(ctx.app);
  });
  afterAll(async () => {
    listeners.forEach((listener) => listener.disconnect());
    await ctx?.close();
    await hosted?.stop();
  });

  const live = async (session: HttpSession) => {
    const listener = await listenForEvents(baseUrl, session, {
      pusherKey: HOSTED.PUSHER_KEY,
      wsUrl: hosted.url,
    });
    listeners.push(listener);
    return listener;
  };

  /** What the hosted service posts when a channel gains its first socket or loses its last. */
  const webhook = (
    events: { name: string; channel: string }[],
    secret = HOSTED.PUSHER_SECRET,
    timeMs = Date.now(),
  ) => {
    const body = JSON.stringify({ time_ms: timeMs, events });
    return fetch(`${baseUrl}${paths.pusherWebhook}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-pusher-key': HOSTED.PUSHER_KEY,
        'x-pusher-signature': createHmac('sha256', secret).update(body).digest('hex'),
      },
      body,
    });
  };

  it('presence from signed webhooks, receipts and typing delivered through the hosted service', async () => {
    const acme = await signInOverHttp(baseUrl, ACME.email, { appKey: APP_KEY });
    const sara = await signInOverHttp(baseUrl, SARA.email, { appKey: APP_KEY });
    const acmeLive = await live(acme);
    const saraLive = await live(sara);
    // the hosted service's sockets are not ours: nobody is online until its webhooks say so
    expect((await rowWith(acme, sara)).other_online).toBe(false);

    // a forged webhook changes nothing
    const forged = await webhook(
      [{ name: 'channel_occupied', channel: `private-chat.${sara.userId}` }],
      'not-the-secret',
    );
    expect(forged.status).toBe(401);
    // a genuine but old body (a replay) is refused too
    const replayed = await webhook(
      [{ name: 'channel_occupied', channel: `private-chat.${sara.userId}` }],
      HOSTED.PUSHER_SECRET,
      Date.now() - 10 * 60 * 1000,
    );
    expect(replayed.status).toBe(401);
    expect((await rowWith(acme, sara)).other_online).toBe(false);

    expect(
      (await webhook([{ name: 'channel_occupied', channel: `private-chat.${acme.userId}` }]))
        .status,
    ).toBe(200);
    expect(
      (await webhook([{ name: 'channel_occupied', channel: `private-chat.${sara.userId}` }]))
        .status,
    ).toBe(200);
    await until(() => presenceOf(acmeLive, sara.userId).length === 1, 'Sara online (hosted)');
    expect((await rowWith(acme, sara)).other_online).toBe(true);

    // read receipts and typing travel through the official package's trigger path
    const chat = await sendTo(sara, acme, 'Through the hosted service');
    await openConversationWith(acme, sara);
    const [seen] = await saraLive.waitFor<MessagesSeenEvent>(MESSAGES_SEEN_EVENT, 1);
    expect(seen?.last_seen_id).toBe(chat.id);
    const conversation = await conversationWith(acme, sara.userId);
    expect((await acme.call('POST', paths.typing(conversation.id))).status).toBe(204);
    await saraLive.waitFor(TYPING_EVENT, 1);

    await webhook([{ name: 'channel_vacated', channel: `private-chat.${sara.userId}` }]);
    await until(() => presenceOf(acmeLive, sara.userId).length === 2, 'Sara offline (hosted)');
    expect(presenceOf(acmeLive, sara.userId)[1]?.online).toBe(false);
  });
});
