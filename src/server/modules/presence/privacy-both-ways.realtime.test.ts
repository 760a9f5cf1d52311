/**
 * Read receipts and online status work both ways, as WhatsApp does. Whoever keeps
 * their own reading or online status to themselves sees nobody's: not in what the calls answer and
 * not live (no `MessagesSeen`, no `PresenceChanged`).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  CHAT_MESSAGE_EVENT,
  MESSAGES_SEEN_EVENT,
  PRESENCE_CHANGED_EVENT,
  type PresenceChangedEvent,
} from '../../../shared/events.js';
import { ACME, OMAR, SARA } from '../../../../test-support/accounts.js';
import { signInOverHttp, type HttpSession } from '../../../../test-support/http-session.js';
import {
  conversationWith,
  newClientId,
  sendMessage,
  openConversationWith,
  patchSettings,
  rowWith,
  sendTo,
} from '../../../../test-support/messaging.js';
import { listenForEvents, type EventListener } from '../../../../test-support/pusher-js.js';
import {
  APP_KEY,
  createTestApp,
  listen,
  type TestContext,
} from '../../../../test-support/test-app.js';
import { sleep, until } from '../../../../test-support/wait.js';

const GRACE_SECONDS = 1;

describe('privacy settings work both ways', () => {
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
    await sleep(GRACE_SECONDS * 1000 + 500);
  });
  afterAll(async () => ctx.close());

  it('with my read receipts off I am not told, nor shown, that others read my messages', async () => {
    const acme = await signIn(ACME.email);
    const sara = await signIn(SARA.email);
    const saraLive = await live(sara);
    await patchSettings(sara, { read_receipts: false });
    try {
      const clientId = newClientId();
      const toAcme = await conversationWith(sara, acme.userId);
      const sent = await sendMessage(sara, toAcme, 'Did you get my portfolio?', { clientId });
      if (!sent.ok) throw new Error(`send answered ${sent.status}`);
      const mine = sent.chat;
      await openConversationWith(acme, sara); // Acme (receipts on) reads it
      // a message from Acme after the reading: had a MessagesSeen been sent, it came before this
      await sendTo(acme, sara, 'Yes, thank you');
      await saraLive.waitFor(CHAT_MESSAGE_EVENT, 1);
      expect(saraLive.named(MESSAGES_SEEN_EVENT)).toHaveLength(0);
      const history = await openConversationWith(sara, acme);
      const shown = history.messages.flatMap((group) => group.chats).find((c) => c.id === mine.id);
      expect(shown?.seen_at).toBeNull();
      // nor in the send replayed by its client_id (a retry after a lost answer)
      const replay = await sendMessage(sara, toAcme, 'Did you get my portfolio?', { clientId });
      expect(replay.ok && replay.chat.id).toBe(mine.id);
      expect(replay.ok && replay.chat.seen_at).toBeNull();
      // the reader's own view is theirs
      const readerView = await openConversationWith(acme, sara);
      const read = readerView.messages.flatMap((g) => g.chats).find((c) => c.id === mine.id);
      expect(read?.seen_at).not.toBeNull();
    } finally {
      await patchSettings(sara, { read_receipts: true });
    }
  });

  it('with my online status hidden I see nobody online, and am not told when they come and go', async () => {
    const acme = await signIn(ACME.email);
    const sara = await signIn(SARA.email);
    const omar = await signIn(OMAR.email);
    await patchSettings(sara, { show_online: false });
    try {
      const saraLive = await live(sara);
      const omarLive = await live(omar);
      await live(acme); // Acme (showing it) comes online: Omar, another partner, is told
      await until(
        () =>
          omarLive
            .named<PresenceChangedEvent>(PRESENCE_CHANGED_EVENT)
            .some((event) => event.user_id === acme.userId && event.online),
        'Omar told that Acme is online',
      );
      // a message from Acme after that: had Sara been told, it came before this
      await sendTo(acme, sara, 'Are you around?');
      await saraLive.waitFor(CHAT_MESSAGE_EVENT, 1);
      expect(
        saraLive
          .named<PresenceChangedEvent>(PRESENCE_CHANGED_EVENT)
          .filter((event) => event.user_id === acme.userId),
      ).toEqual([]);
      expect(await rowWith(sara, acme)).toMatchObject({
        other_online: false,
        other_last_seen_at: null,
      });
      // Omar shows his: he sees Acme online
      expect((await rowWith(omar, acme)).other_online).toBe(true);
    } finally {
      await patchSettings(sara, { show_online: true });
    }
    expect((await rowWith(sara, acme)).other_online).toBe(true);
  });
});
