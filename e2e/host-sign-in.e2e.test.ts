import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomToken } from '../src/server/lib/crypto.js';
import { SESSION_COOKIE, XSRF_COOKIE } from '../src/server/plugins/auth.js';
import { paths } from '../src/shared/paths.js';
import { NILE } from '../test-support/accounts.js';
import { WAIT } from '../test-support/wait.js';
import type { UserPage } from './support/browser.js';
import {
  expectMessageOnce,
  messageInput,
  row,
  waitForLive,
  waitForMessagesPage,
} from './support/messages-page.js';
import { hostKnowsSara } from './support/host-user.js';
import { useE2eSuite } from './support/suite.js';

const SSO_SECRET = 'e2e-host-sign-in-secret-0123456789abcdef-01';
const SARA_EXTERNAL_ID = 'board-user-sara';
const SIGN_IN_BUTTON = 'Sign in to the job board';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * A job board's own sign-in, on another port: `/account/sign-in` shows its sign-in page (the user
 * "signs in" with one button), `/account/session` then does what the documentation's worked example
 * does: it makes a sign-in link to the messenger whose `next` is `return_to`'s path and query, and
 * sends the browser there.
 */
interface HostBoard {
  url: string;
  /** The messenger's base URL (known once its server runs). */
  messengerUrl: string;
  close: () => Promise<void>;
}

const startHostBoard = async (): Promise<HostBoard> => {
  const board: HostBoard = {
    url: '',
    messengerUrl: '',
    close: async () => undefined,
  };
  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', board.url);
      const returnTo = url.searchParams.get('return_to');
      if (url.pathname === '/account/sign-in') {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end(
          `<!doctype html><html lang="en"><title>Job board sign-in</title>` +
            `<h1>Job board sign-in</h1>` +
            `<form method="get" action="/account/session">` +
            `<input type="hidden" name="return_to" value="${escapeHtml(returnTo ?? '')}">` +
            `<button type="submit">${SIGN_IN_BUTTON}</button></form></html>`,
        );
        return;
      }
      if (url.pathname === '/account/session') {
        // only ever back to the messenger (never an open redirect to whatever return_to says)
        const back =
          returnTo && URL.canParse(returnTo) ? new URL(returnTo) : new URL(board.messengerUrl);
        const messenger = new URL(board.messengerUrl);
        const next =
          back.origin === messenger.origin ? `${back.pathname}${back.search}` : '/messages';
        const iat = Math.floor(Date.now() / 1000);
        const token = await new SignJWT({ next })
          .setProtectedHeader({ alg: 'HS256' })
          .setSubject(SARA_EXTERNAL_ID)
          .setJti(randomToken(12))
          .setIssuedAt(iat)
          .setExpirationTime(iat + 300)
          .sign(new TextEncoder().encode(SSO_SECRET));
        response.writeHead(302, {
          location: `${messenger.origin}${paths.sso}?token=${encodeURIComponent(token)}`,
        });
        response.end();
        return;
      }
      response.writeHead(404).end();
    })().catch((error: unknown) => {
      response.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  board.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  board.close = () => new Promise((resolve) => server.close(() => resolve()));
  return board;
};

/**
 * With LOGIN_URL pointing at the job board: opening a page of the messenger without a session goes
 * to the board's sign-in with `return_to`, and the board brings the user back through a sign-in link.
 */
describe('the host’s sign-in (LOGIN_URL and return_to)', () => {
  let board: HostBoard;
  // the server's environment is read when the suite starts it (after the board is up)
  const env: Record<string, string> = { SSO_SECRET };
  beforeAll(async () => {
    board = await startHostBoard();
    env.LOGIN_URL = `${board.url}/account/sign-in?board=jobs`;
  });
  afterAll(async () => board?.close());

  const suite = useE2eSuite({ env });
  let deepLink: string;

  beforeAll(async () => {
    board.messengerUrl = suite.url;
    // The host knows Sara by its own id.
    deepLink = await hostKnowsSara(suite.url, suite.server.database.url, SARA_EXTERNAL_ID);
  });

  /** Waits for the board's sign-in page; returns the `return_to` it was opened with. */
  const onBoardSignIn = async (page: Page): Promise<string | null> => {
    await page.waitForURL((url) => url.href.startsWith(`${board.url}/account/sign-in?`), {
      timeout: 30_000,
    });
    await page.getByRole('heading', { name: 'Job board sign-in' }).waitFor({ timeout: 30_000 });
    const url = new URL(page.url());
    // LOGIN_URL's own query is kept
    expect(url.searchParams.get('board')).toBe('jobs');
    return url.searchParams.get('return_to');
  };

  const onDeepLink = async (page: Page) => {
    await page.waitForURL(
      (url) =>
        url.origin === suite.url &&
        url.pathname === '/messages' &&
        url.search === deepLink.slice('/messages'.length),
      { timeout: 30_000 },
    );
    await waitForMessagesPage(page);
    await expect.poll(() => row(page, NILE.name).getAttribute('aria-current'), WAIT).toBe('true');
    await expectMessageOnce(page, 'Unfortunately it has just been closed.');
  };

  /** The session cookie's value and its CSRF token, as the browser holds them. */
  const browserSession = async (user: UserPage) => {
    const cookies = await user.context.cookies(suite.url);
    const session = cookies.find((cookie) => cookie.name === SESSION_COOKIE)?.value;
    const xsrf = cookies.find((cookie) => cookie.name === XSRF_COOKIE)?.value;
    if (!session || !xsrf) throw new Error('the browser has no session');
    return { session, xsrf };
  };

  it('round trip: a page opened without a session → the board’s sign-in with return_to → back through a sign-in link, signed in, on that page; sign-out → the board again', async () => {
    const user = await suite.newUser('board-user');
    await user.page.goto(deepLink);
    expect(await onBoardSignIn(user.page)).toBe(`${suite.url}${deepLink}`);

    await user.page.getByRole('button', { name: SIGN_IN_BUTTON }).click();
    await onDeepLink(user.page);

    await user.page.getByRole('button', { name: 'Sign out' }).click();
    expect(await onBoardSignIn(user.page)).toBe(`${suite.url}/messages`);
    // the session is gone: a later visit to /messages goes to the board too
    await user.page.goto('/messages');
    expect(await onBoardSignIn(user.page)).toBe(`${suite.url}/messages`);
    // and so does the messenger's own sign-in page
    await user.page.goto(paths.login);
    expect(await onBoardSignIn(user.page)).toBe(`${suite.url}/messages`);
  });

  it('a session that ends while the page is open sends the page to the board’s sign-in on its next call, with return_to = the page’s URL', async () => {
    const user = await suite.newUser('expiring');
    await user.page.goto(deepLink);
    await onBoardSignIn(user.page);
    await user.page.getByRole('button', { name: SIGN_IN_BUTTON }).click();
    await onDeepLink(user.page);
    await waitForLive(user);
    const pageUrl = user.page.url();

    // The session ends server-side (signed out elsewhere with it): the page is not told.
    const { session, xsrf } = await browserSession(user);
    const ended = await fetch(`${suite.url}${paths.logout}`, {
      method: 'POST',
      headers: {
        cookie: `${SESSION_COOKIE}=${session}; ${XSRF_COOKIE}=${xsrf}`,
        'x-xsrf-token': xsrf,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: '{}',
    });
    expect(ended.status).toBe(204);

    // its next call (typing a message: the typing notice) answers 401, and the page leaves for the
    // board with its own URL as return_to, instead of showing an error
    // (should a call of the page's own, on its socket's reconnection, have come first, the page may
    // already be on its way there)
    await messageInput(user.page)
      .fill('Are you still there?')
      .catch((error: unknown) => {
        if (!user.page.url().startsWith(board.url)) throw error;
      });
    expect(await onBoardSignIn(user.page)).toBe(pageUrl);
    expect(pageUrl).toBe(`${suite.url}${deepLink}`);
  });
});
