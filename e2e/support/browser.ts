import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import {
  liveSocketCounter,
  watchLiveSockets,
  watchPage,
  type LiveSockets,
  type PageProblems,
} from '../../test-support/browser.js';

export const WIDE = { width: 1280, height: 800 } as const;
export const PHONE = { width: 375, height: 812 } as const;

/** Where an element is drawn (viewport pixels); throws when it is not drawn at all. */
export const boxOf = async (
  locator: Locator,
): Promise<{ x: number; y: number; width: number; height: number }> => {
  const box = await locator.boundingBox();
  if (!box) throw new Error(`no box for ${locator.toString()}`);
  return box;
};

export interface UserPage {
  context: BrowserContext;
  page: Page;
  problems: PageProblems;
  live: LiveSockets;
  /** Present when the page's live sockets run through the test (`controlLive`): cut them at will. */
  liveGate?: LiveGate;
  /** A short label for messages (e.g. "candidate"). */
  label: string;
}

/** Cuts the page's live sockets and refuses new ones until restored, like a dead network would. */
export interface LiveGate {
  readonly down: boolean;
  drop(): void;
  restore(): void;
}

/**
 * Routes the context's live sockets through the test (a transparent proxy to the real server), counting
 * them like `watchLiveSockets`. Chromium's offline emulation holds WebSocket frames and delivers them once
 * back online, so a real drop of the live connection is made here: `drop()` closes every socket
 * abnormally and refuses reconnects until `restore()`.
 */
const routeLiveSockets = async (
  context: BrowserContext,
): Promise<{ live: LiveSockets; gate: LiveGate }> => {
  const counter = liveSocketCounter();
  const cutters = new Set<() => void>();
  let down = false;
  await context.routeWebSocket(/\/app\//, (socket) => {
    if (down) {
      void socket.close({ code: 1006, reason: 'network down' });
      return;
    }
    counter.opened();
    const server = socket.connectToServer();
    let closed = false;
    const finish = () => {
      if (closed) return;
      closed = true;
      counter.closed(socket);
      cutters.delete(cut);
    };
    const cut = () => {
      finish();
      void socket.close({ code: 1006, reason: 'network down' });
      void server.close({ code: 1001, reason: 'network down' });
    };
    cutters.add(cut);
    server.onMessage((message) => {
      counter.received(socket, message);
      socket.send(message);
    });
    socket.onMessage((message) => server.send(message));
    socket.onClose((code, reason) => {
      finish();
      void server.close({ code, reason });
    });
    server.onClose((code, reason) => {
      finish();
      void socket.close({ code, reason });
    });
  });
  const gate: LiveGate = {
    get down() {
      return down;
    },
    drop() {
      down = true;
      for (const cut of [...cutters]) cut();
    },
    restore() {
      down = false;
    },
  };
  return { live: counter.live, gate };
};

export interface NewUserPageOptions {
  baseURL: string;
  label: string;
  /** Route the live sockets through the test so that it can cut them (`UserPage.liveGate`). */
  controlLive?: boolean;
  viewport?: { width: number; height: number };
  locale?: string;
  /** The browser's time zone (UTC unless told). */
  timezoneId?: string;
  /** A phone: touch screen, no hover, coarse pointer. */
  touch?: boolean;
  /** Let the test add inline scripts (e.g. axe-core) despite the page's Content-Security-Policy. */
  bypassCSP?: boolean;
  /** Browser permissions granted to the page's origin (e.g. `['notifications']`). */
  permissions?: string[];
  /** The system's colour scheme the page sees (`prefers-color-scheme`); light unless told. */
  colorScheme?: 'light' | 'dark';
}

/** A fresh browser context (own cookies and storage) with one watched page. */
export const newUserPage = async (
  browser: Browser,
  options: NewUserPageOptions,
): Promise<UserPage> => {
  const context = await browser.newContext({
    baseURL: options.baseURL,
    viewport: options.viewport ?? WIDE,
    locale: options.locale ?? 'en-US',
    timezoneId: options.timezoneId ?? 'UTC',
    ...(options.touch ? { hasTouch: true, isMobile: true } : {}),
    bypassCSP: options.bypassCSP ?? false,
    colorScheme: options.colorScheme ?? 'light',
    ...(options.permissions ? { permissions: options.permissions } : {}),
  });
  context.setDefaultTimeout(15_000);
  context.setDefaultNavigationTimeout(30_000);
  const routed = options.controlLive ? await routeLiveSockets(context) : null;
  const page = await context.newPage();
  return {
    context,
    page,
    problems: watchPage(page),
    live: routed?.live ?? watchLiveSockets(page),
    ...(routed ? { liveGate: routed.gate } : {}),
    label: options.label,
  };
};

/**
 * Throws when a page had an uncaught error or opened a dialog; with `console: true` also on console errors.
 * `allowConsole` lists patterns of console errors a test provokes on purpose (e.g. while offline).
 */
export const assertNoPageProblems = (
  users: readonly UserPage[],
  options: { console?: boolean; allowConsole?: readonly RegExp[] } = {},
): void => {
  const found: string[] = [];
  for (const user of users) {
    for (const error of user.problems.pageErrors)
      found.push(`[${user.label}] page error: ${error}`);
    for (const dialog of user.problems.dialogs) found.push(`[${user.label}] dialog: ${dialog}`);
    if (options.console) {
      for (const error of user.problems.consoleErrors) {
        if (!(options.allowConsole ?? []).some((pattern) => pattern.test(error)))
          found.push(`[${user.label}] console error: ${error}`);
      }
    }
  }
  if (found.length > 0) throw new Error(`The page reported problems:\n${found.join('\n')}`);
};

/** Forget what was recorded (between tests that share a page). */
export const resetPageProblems = (users: readonly UserPage[]): void => {
  for (const user of users) {
    user.problems.pageErrors.length = 0;
    user.problems.consoleErrors.length = 0;
    user.problems.dialogs.length = 0;
  }
};

export const closeAll = async (
  browser: Browser | undefined,
  users: readonly UserPage[],
): Promise<void> => {
  for (const user of users) await user.context.close().catch(() => undefined);
  await browser?.close().catch(() => undefined);
};
