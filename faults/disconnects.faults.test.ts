/**
 * Disconnects: a page offline for 5 s and for 3 minutes while its peer keeps sending. Once back,
 * every message shows exactly once, without a reload. Four cases run side by side (the 3-minute
 * ones are the long pole of the whole fault suite):
 * - the real page in Chromium, offline through `context.setOffline(true)`;
 * - stock pusher-js in Node (the page's logic, see LiveClient), its socket cut by a TCP proxy
 *   (connections dropped, reconnections refused). After 5 s it comes back on pusher-js's own
 *   retry timer; after 3 minutes the network's return is signalled as a browser's `online` event
 *   would be (pusher-js then retries at once instead of waiting out a back-off of up to 60 s).
 */
import type { Browser } from 'playwright-core';
import { DEMO_USERS, type DemoUser } from '../test-support/accounts.js';
import { launchChromium } from '../test-support/browser.js';
import { type HttpSession } from '../test-support/http-session.js';
import { conversationWith, sendMessage, type Conversation } from '../test-support/messaging.js';
import { networkBackOnline } from '../test-support/pusher-js.js';
import { sleep, until } from '../test-support/wait.js';
import { closeAllLiveClients, openLiveClient } from './support/live-client.js';
import { freshSqlite, type FaultDatabase } from './support/databases.js';
import { openMessagesPage } from './support/browser.js';
import { expectThreadsMatch, signInAll } from './support/scenario.js';
import { pusherKey, startFaultServer, stopServer, type ServerProcess } from './support/servers.js';
import { TcpProxy } from '../test-support/tcp-proxy.js';

const SHORT_MS = 5_000;
const LONG_MS = 3 * 60_000;

let db: FaultDatabase;
let server: ServerProcess;
let browser: Browser;
let key: string;
let sessions: Record<DemoUser, HttpSession>;

beforeAll(async () => {
  db = freshSqlite();
  server = await startFaultServer({ databaseUrl: db.url });
  key = await pusherKey(server);
  sessions = await signInAll(server.url, DEMO_USERS);
  browser = await launchChromium();
});

afterAll(async () => {
  await closeAllLiveClients();
  await browser?.close();
  await stopServer(server);
  await db?.drop();
});

/**
 * The peer keeps writing while the viewer is away: one message right before the cut, then one
 * every `everyMs` during it. Returns once `offlineMs` are over (the caller brings the viewer back).
 */
const peerWritesDuring = async (
  peer: HttpSession,
  conversation: Conversation,
  label: string,
  offlineMs: number,
  everyMs: number,
  goOffline: () => Promise<void>,
) => {
  const texts: string[] = [];
  const write = async (text: string) => {
    const outcome = await sendMessage(peer, conversation, text);
    if (!outcome.ok) throw new Error(`peer send: ${outcome.status} ${outcome.body}`);
    texts.push(text);
  };
  await write(`${label}: just before going offline`);
  await goOffline();
  const deadline = Date.now() + offlineMs;
  for (let i = 1; Date.now() + everyMs / 2 < deadline; i++) {
    await sleep(Math.min(everyMs, Math.max(0, deadline - Date.now())));
    await write(`${label}: while offline #${i}`);
  }
  await sleep(Math.max(0, deadline - Date.now()));
  return { texts, write };
};

describe.concurrent('a page offline while its peer sends', () => {
  const nodeCase =
    (
      label: string,
      offlineMs: number,
      everyMs: number,
      viewer: DemoUser,
      peer: DemoUser,
      signalOnline: boolean,
    ) =>
    async () => {
      const viewerSide = await conversationWith(sessions[viewer], sessions[peer].userId);
      const peerSide = await conversationWith(sessions[peer], sessions[viewer].userId);
      const proxy = await TcpProxy.start(server.port);
      try {
        const client = await openLiveClient({
          baseUrl: server.url,
          session: sessions[viewer],
          wsPort: proxy.port,
          key,
          watch: [viewerSide],
        });
        const { write } = await peerWritesDuring(
          sessions[peer],
          peerSide,
          label,
          offlineMs,
          everyMs,
          () => proxy.down(),
        );
        expect(client.state).not.toBe('connected');
        await proxy.up();
        if (signalOnline) networkBackOnline();
        await write(`${label}: right after coming back`);
        await until(
          () => client.reconnections >= 1,
          `${label}: pusher-js reconnected by itself`,
          60_000,
        );
        await client.settled(2);
        await expectThreadsMatch(db, client, [viewerSide]);
        await client.close();
      } finally {
        await proxy.close();
      }
    };

  const browserCase =
    (label: string, offlineMs: number, everyMs: number, viewer: DemoUser, peer: DemoUser) =>
    async () => {
      const viewerSide = await conversationWith(sessions[viewer], sessions[peer].userId);
      const peerSide = await conversationWith(sessions[peer], sessions[viewer].userId);
      const messagesPage = await openMessagesPage(
        browser,
        server.url,
        sessions[viewer],
        viewerSide,
      );
      try {
        const { write } = await peerWritesDuring(
          sessions[peer],
          peerSide,
          label,
          offlineMs,
          everyMs,
          () => messagesPage.context.setOffline(true),
        );
        await messagesPage.context.setOffline(false);
        await write(`${label}: right after coming back`);
        const describe = async () => {
          const stored = (await db.chats(viewerSide.id)).map((chat) => chat.id);
          const shown = await messagesPage.shownChatIds();
          return {
            missing: stored.filter((id) => !shown.includes(id)),
            doubled: shown.filter((id, i) => shown.indexOf(id) !== i),
            extra: shown.filter((id) => !stored.includes(id)),
          };
        };
        await until(
          async () => (await describe()).missing.length === 0,
          `${label}: the page shows every message`,
          90_000,
        ).catch(() => undefined);
        expect(await describe()).toEqual({ missing: [], doubled: [], extra: [] });
        await sleep(1_000); // a late duplicate would show by now
        expect(await describe()).toEqual({ missing: [], doubled: [], extra: [] });
        expect(await messagesPage.reloaded()).toBe(false);
        expect(messagesPage.pageErrors).toEqual([]);
      } finally {
        await messagesPage.close();
      }
    };

  test(
    'pusher-js, offline 5 s: back on its own retry, every message once',
    nodeCase('node 5 s', SHORT_MS, 1_500, 'company2', 'candidate', false),
  );
  test(
    'pusher-js, offline 3 minutes: every message once',
    nodeCase('node 3 min', LONG_MS, 10_000, 'owner', 'candidate2', true),
    LONG_MS + 120_000,
  );
  test(
    'the page in Chromium, offline 5 s: every message once, no reload',
    browserCase('browser 5 s', SHORT_MS, 1_500, 'candidate2', 'company'),
  );
  test(
    'the page in Chromium, offline 3 minutes: every message once, no reload',
    browserCase('browser 3 min', LONG_MS, 10_000, 'candidate', 'company'),
    LONG_MS + 120_000,
  );
});
