import {
  chromium,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
} from 'playwright-core';
import { SESSION_COOKIE } from '../src/server/plugins/auth.js';

/** Debian's Chromium: browser downloads are impossible here, so playwright-core drives this one. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * Blocks third-party cookies the way Chrome is phasing them out (headless Chromium 156 already does;
 * the flag keeps it so whatever the version's default): a frame of another site keeps only its
 * `Partitioned` cookies.
 */
export const THIRD_PARTY_COOKIES_BLOCKED = ['--test-third-party-cookie-phaseout'] as const;

/**
 * Headless Chromium for the browser tests, fault tests and benchmarks. The background-networking
 * flags keep it from reaching out of this closed machine (those attempts are refused, many at a time).
 * `extraArgs` adds switches (e.g. `THIRD_PARTY_COOKIES_BLOCKED`).
 */
export const launchChromium = (extraArgs: readonly string[] = []): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      ...extraArgs,
    ],
  });

/** Hands a session signed in over HTTP to a browser context (the value of its session cookie). */
export const addSessionCookie = (
  context: BrowserContext,
  baseUrl: string,
  sessionCookie: string,
): Promise<void> =>
  context.addCookies([
    { name: SESSION_COOKIE, value: sessionCookie, url: baseUrl, httpOnly: true, sameSite: 'Lax' },
  ]);

/** What a page did that a test may have to fail on. */
export interface PageProblems {
  /** Uncaught exceptions and unhandled rejections in the page. */
  pageErrors: string[];
  /** `console.error` calls and failed resource loads the browser reports. */
  consoleErrors: string[];
  /** alert/confirm/prompt dialogs (the product opens none); each is dismissed. */
  dialogs: string[];
}

/** Records page errors, console errors and dialogs of one page (dialogs are dismissed). */
export const watchPage = (page: Page): PageProblems => {
  const problems: PageProblems = { pageErrors: [], consoleErrors: [], dialogs: [] };
  page.on('pageerror', (error) => problems.pageErrors.push(`${error.name}: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') {
      const where = message.location();
      problems.consoleErrors.push(
        `${message.text()}${where.url ? ` (${where.url}:${where.lineNumber})` : ''}`,
      );
    }
  });
  page.on('dialog', (dialog) => {
    problems.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss().catch(() => undefined);
  });
  return problems;
};

/** The page's live (Pusher protocol) sockets, seen from the browser. */
export interface LiveSockets {
  opened: number;
  closed: number;
  /** `pusher_internal:subscription_succeeded` frames received (one per private channel subscription). */
  subscribed: number;
  /** Whether an open socket has a confirmed subscription right now. */
  isLive(): boolean;
}

/** Whether a websocket is the live endpoint's (`/app/{key}`). */
export const isLiveSocketUrl = (url: string): boolean => url.includes('/app/');

/**
 * Counts live sockets and their confirmed subscriptions: feed it what one socket (any object that
 * stands for it) does.
 */
export const liveSocketCounter = () => {
  const confirmed = new Set<object>();
  const live: LiveSockets = {
    opened: 0,
    closed: 0,
    subscribed: 0,
    isLive: () => confirmed.size > 0,
  };
  return {
    live,
    opened: () => {
      live.opened += 1;
    },
    /** A frame the page received on `socket`. */
    received: (socket: object, payload: unknown) => {
      if (
        typeof payload === 'string' &&
        payload.includes('pusher_internal:subscription_succeeded')
      ) {
        live.subscribed += 1;
        confirmed.add(socket);
      }
    },
    closed: (socket: object) => {
      live.closed += 1;
      confirmed.delete(socket);
    },
  };
};

/** Counts the live sockets and confirmed channel subscriptions of one page. */
export const watchLiveSockets = (page: Page): LiveSockets => {
  const counter = liveSocketCounter();
  page.on('websocket', (socket) => {
    if (!isLiveSocketUrl(socket.url())) return;
    counter.opened();
    socket.on('close', () => counter.closed(socket));
    socket.on('framereceived', (frame) => counter.received(socket, frame.payload));
  });
  return counter.live;
};

/** Marks the document so that a test can tell later it was not reloaded (or navigated away). */
export const markDocument = (page: Page): Promise<void> =>
  page.evaluate(() => {
    (window as unknown as { __testMark?: boolean }).__testMark = true;
  });

export const documentStillMarked = (page: Page): Promise<boolean> =>
  page.evaluate(() => (window as unknown as { __testMark?: boolean }).__testMark === true);

/** The chat bubbles of the open conversation on the messaging page. */
export const chatBubbles = (page: Page): Locator =>
  page.locator('#messageChatBox [data-testid="chat-message"]');
