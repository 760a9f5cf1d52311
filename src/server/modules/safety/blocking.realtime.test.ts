/**
 * A block holds on every instance: with two server processes sharing PostgreSQL and Redis, the
 * blocked party's calls on one instance are refused for a block made on the other, and nothing of
 * theirs (coming online, typing, read receipts) reaches the blocker, whichever instance each is on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHAT_MESSAGE_EVENT,
  MESSAGES_SEEN_EVENT,
  PRESENCE_CHANGED_EVENT,
  TYPING_EVENT,
  type ChatMessageEvent,
  type PresenceChangedEvent,
} from '../../../shared/events.js';
import { paths } from '../../../shared/paths.js';
import { BLOCKED_MESSAGE, safetyPaths } from '../../../shared/safety.js';
import { ACME, OMAR, SARA } from '../../../../test-support/accounts.js';
import { freshPostgresDatabase, type ServerDatabase } from '../../../../test-support/databases.js';
import { signInOverHttp } from '../../../../test-support/http-session.js';
import {
  conversationWith,
  openConversationWith,
  rowWith,
  sendMessage,
  sendTo,
} from '../../../../test-support/messaging.js';
import { listenForEvents, type EventListener } from '../../../../test-support/pusher-js.js';
import {
  startServer,
  uniqueAppId,
  type ServerProcess,
} from '../../../../test-support/server-process.js';
import { settings } from '../../../../test-support/settings.js';
import { sleep, until } from '../../../../test-support/wait.js';

const GRACE_SECONDS = 1;

describe('a block across two server processes sharing PostgreSQL and Redis', () => {
  let database: ServerDatabase;
  const servers: ServerProcess[] = [];
  const listeners: EventListener[] = [];

  beforeAll(async () => {
    database = await freshPostgresDatabase('blocking');
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: settings.redisUrl,
      DEMO_SEED: 'on',
      PUSHER_APP_ID: uniqueAppId('blocking'),
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

  it('the blocked party on B is refused and unheard by the blocker on A; the blocker looks offline to them', async () => {
    const [a, b] = servers;
    if (!a || !b) throw new Error('servers did not start');
    const saraOnA = await signInOverHttp(a.url, SARA.email); // the blocker
    const acmeOnB = await signInOverHttp(b.url, ACME.email); // the blocked party
    const omarOnA = await signInOverHttp(a.url, OMAR.email); // another partner of Acme's
    expect(
      (await saraOnA.call('POST', safetyPaths.blocks, { user_id: acmeOnB.userId })).status,
    ).toBe(201);

    const saraLive = await listenForEvents(a.url, saraOnA);
    const omarLive = await listenForEvents(a.url, omarOnA);
    listeners.push(saraLive, omarLive);
    // Sara and Omar are online (their holds reached Redis) before Acme comes
    await until(
      async () => (await rowWith(acmeOnB, omarOnA)).other_online,
      'Omar online (seen from B)',
    );
    await sleep(300);
    const acmeLive = await listenForEvents(b.url, acmeOnB);
    listeners.push(acmeLive);
    await until(
      () =>
        omarLive
          .named<PresenceChangedEvent>(PRESENCE_CHANGED_EVENT)
          .some((event) => event.user_id === acmeOnB.userId && event.online),
      'Omar told that Acme is online',
    );
    // Acme sees Sara offline, though she is online
    expect(await rowWith(acmeOnB, saraOnA)).toMatchObject({
      other_online: false,
      other_last_seen_at: null,
    });

    // Acme's calls toward Sara, on B
    const toSara = await conversationWith(acmeOnB, saraOnA.userId);
    const sent = await sendMessage(acmeOnB, toSara, 'Are you ignoring me?');
    expect(sent).toMatchObject({ ok: false, status: 403 });
    expect(JSON.parse((sent as { body: string }).body)).toEqual({ message: BLOCKED_MESSAGE });
    const typed = await acmeOnB.call('POST', paths.typing(toSara.id));
    expect(typed.status).toBe(403);

    // Sara still writes; Acme reads it on B: no receipt reaches Sara on A
    await sendTo(saraOnA, acmeOnB, 'Please stop writing to me.');
    await acmeLive.waitFor(CHAT_MESSAGE_EVENT, 1);
    await openConversationWith(acmeOnB, saraOnA);
    // a message from Omar to Sara after all that: anything told to Sara came before it
    await sendTo(acmeOnB, omarOnA, 'Hello Omar');
    await omarLive.waitFor(CHAT_MESSAGE_EVENT, 1);
    await sleep(500);
    expect(saraLive.named(MESSAGES_SEEN_EVENT)).toEqual([]);
    expect(saraLive.named(TYPING_EVENT)).toEqual([]);
    expect(
      saraLive
        .named<PresenceChangedEvent>(PRESENCE_CHANGED_EVENT)
        .filter((event) => event.user_id === acmeOnB.userId),
    ).toEqual([]);
    const fromAcme = () =>
      saraLive
        .named<ChatMessageEvent>(CHAT_MESSAGE_EVENT)
        .filter((event) => event.chatMessage.sender_id === acmeOnB.userId);
    expect(fromAcme()).toEqual([]);

    // Lifted on B: Acme's send through A reaches Sara on A
    expect((await saraOnA.call('DELETE', safetyPaths.block(acmeOnB.userId))).status).toBe(204);
    const acmeOnA = await signInOverHttp(a.url, ACME.email);
    const again = await sendMessage(acmeOnA, toSara, 'Sorry, one last question.');
    expect(again.ok).toBe(true);
    await until(() => fromAcme().length === 1, 'Sara got Acme’s message after the unblock');
    // each online party is told how the other looks now: Sara online again for Acme on B…
    const saraAsAcmeSeesHer = () =>
      acmeLive
        .named<PresenceChangedEvent>(PRESENCE_CHANGED_EVENT)
        .filter((event) => event.user_id === saraOnA.userId)
        .map((event) => event.online);
    await until(() => saraAsAcmeSeesHer().join() === 'true', 'Acme told that Sara is online');
    expect((await rowWith(acmeOnB, saraOnA)).other_online).toBe(true);
    // …and offline once she blocks him again
    expect(
      (await saraOnA.call('POST', safetyPaths.blocks, { user_id: acmeOnB.userId })).status,
    ).toBe(201);
    await until(
      () => saraAsAcmeSeesHer().join() === 'true,false',
      'Acme told that Sara is offline',
    );
    expect((await rowWith(acmeOnB, saraOnA)).other_online).toBe(false);
  });
});
