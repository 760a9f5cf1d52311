import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CANDIDATE,
  COMPANY,
  SECOND_CANDIDATE,
  startHostSite,
  THEME,
  type HostSite,
} from '../examples/host-site/board.js';
import { THIRD_PARTY_COOKIES_BLOCKED } from '../test-support/browser.js';
import { freePort } from '../test-support/server-process.js';
import { WAIT, waitForValue } from '../test-support/wait.js';
import { expectNoAxeViolations } from './support/axe.js';
import { WIDE } from './support/browser.js';
import {
  embedFrame,
  embedFrameHandle,
  eventsOf,
  frameRow,
  lastUnread,
  openByHostIds,
  waitForEvents,
} from './support/embedded-page.js';
import { uniqueTag } from './support/messages-page.js';
import { saveScreenshot } from './support/screenshots.js';
import { useE2eSuite } from './support/suite.js';
import {
  cookiesSentToFrame,
  PARTITIONED,
  startCookieProbe,
  UNPARTITIONED,
  type CookieProbe,
} from './support/third-party-cookies.js';

const SSO_SECRET = 'e2e-embedding-sso-secret-0123456789abcdef-0123';
const INTEGRATION_KEY = randomBytes(32).toString('hex');
/** The board's THEME.color (#rrggbb) as computed styles give it: rgb(10, 124, 74). */
const THEME_RGB = `rgb(${[1, 3, 5].map((at) => parseInt(THEME.color.slice(at, at + 2), 16)).join(', ')})`;

/**
 * The messenger (http://127.0.0.1:<P1>) on the pages of the example job board (examples/host-site,
 * http://localhost:<P2>: another site, so every messenger frame is third-party), in a Chromium that
 * blocks third-party cookies.
 */
describe('the messenger embedded in a job board’s pages (third-party cookies blocked)', () => {
  // the server's environment is read when the suite starts it: the board's port is chosen first
  const env: Record<string, string> = {
    DEMO_SEED: 'off',
    INTEGRATION_KEYS: INTEGRATION_KEY,
    SSO_SECRET,
  };
  let boardPort = 0;
  beforeAll(async () => {
    boardPort = await freePort();
    env.EMBED_ORIGINS = `http://localhost:${boardPort}`;
  });

  const suite = useE2eSuite({ env, chromiumArgs: THIRD_PARTY_COOKIES_BLOCKED });

  let board: HostSite;
  /** The same board on a port EMBED_ORIGINS does not list. */
  let outsider: HostSite;
  let probe: CookieProbe;
  beforeAll(async () => {
    const site = {
      messengerUrl: suite.url,
      integrationKey: INTEGRATION_KEY,
      ssoSecret: SSO_SECRET,
    };
    board = await startHostSite({ ...site, port: boardPort });
    outsider = await startHostSite({ ...site, seed: false });
    probe = await startCookieProbe();
  });
  afterAll(async () => {
    await board?.close();
    await outsider?.close();
    await probe?.close();
  });

  /** A fresh browser (own cookies) on one of the board's pages, signed in on the board as `as`. */
  const onBoard = async (label: string, path: string, as: string) => {
    const user = await suite.newUser(label, { viewport: WIDE });
    await user.page.goto(`${board.url}${path}?as=${encodeURIComponent(as)}`);
    return user;
  };

  const sendAsCandidate = (candidate: string, job: string, text: string) =>
    board.api('POST', '/api/v1/conversations', {
      company: COMPANY.externalId,
      candidate,
      job,
      message: { from: 'candidate', text },
    });

  const badge = (page: Page) => embedFrame(page, '#badge');

  it('control: this Chromium keeps a third-party frame’s Partitioned cookie and drops its unpartitioned SameSite=None one', async () => {
    const { page, context } = await suite.newUser('cookie-control');
    // set top-level (first-party) first: the unpartitioned cookie exists in the browser…
    await page.goto(`${probe.url}/set`);
    expect((await context.cookies(probe.url)).map((cookie) => cookie.name)).toContain(
      UNPARTITIONED,
    );
    // …yet a frame of that site on the board's page is sent neither it nor the top-level partition's
    await page.goto(`${board.url}/not-a-page`);
    const sent = await cookiesSentToFrame(page, probe);
    expect(sent).not.toContain(UNPARTITIONED);
    // the frame's own Partitioned cookie (set inside the frame) comes back; the unpartitioned does not
    expect(sent).toEqual([PARTITIONED]);
  });

  it('the dashboard’s inbox shows the user’s conversations, the header’s badge and server-rendered count agree, the theme colour shows in the frame', async () => {
    const { page } = await onBoard('inbox', '/', COMPANY.externalId);
    expect(await page.getByTestId('server-unread').innerText()).toBe('1 unread (server)');
    const inbox = embedFrame(page, '#inbox');
    await frameRow(inbox, CANDIDATE.name).waitFor();
    await waitForEvents(page, 'inbox', 'ready');
    await waitForValue(() => lastUnread(page, 'inbox'), 1, 'the inbox’s unread event');
    // the badge, mounted once the inbox is ready, shares its session: the count as visible text
    await badge(page).getByText('1', { exact: true }).waitFor();
    await waitForValue(() => lastUnread(page, 'badge'), 1, 'the badge’s unread event');
    // no frame needed a second sign-in (only the inbox had a link; the badge had none)
    expect(await eventsOf(page, 'inbox', 'signin-required')).toEqual([]);
    expect(await eventsOf(page, 'badge', 'signin-required')).toEqual([]);
    // the board's colour, passed to mount, is the frame's accent
    const frame = await embedFrameHandle(page, '#inbox');
    const accent = await frame.evaluate(() => {
      const probe = document.createElement('button');
      probe.className = 'button button--primary';
      document.body.append(probe);
      const colour = getComputedStyle(probe).backgroundColor;
      probe.remove();
      return colour;
    });
    expect(accent).toBe(THEME_RGB);
  });

  it('a message from the other party arrives live in the inbox, raises the host’s unread event and the badge counts it', async () => {
    const { page } = await onBoard('live', '/', COMPANY.externalId);
    const inbox = embedFrame(page, '#inbox');
    await frameRow(inbox, CANDIDATE.name).waitFor();
    await waitForEvents(page, 'badge', 'ready');
    const before = await lastUnread(page, 'inbox');
    expect(before).not.toBeNull();
    const text = `Sent through the board ${uniqueTag()}`;
    await sendAsCandidate(CANDIDATE.externalId, 'job-1001', text);
    await waitForValue(
      () => lastUnread(page, 'inbox'),
      before! + 1,
      'the unread event after the message',
    );
    await frameRow(inbox, CANDIDATE.name).filter({ hasText: text }).waitFor();
    await badge(page)
      .getByText(String(before! + 1), { exact: true })
      .waitFor();
    await waitForValue(() => lastUnread(page, 'badge'), before! + 1, 'the badge’s unread event');
    // the server-side count agrees (the header of the next page the board renders)
    await page.reload();
    expect(await page.getByTestId('server-unread').innerText()).toBe(
      `${before! + 1} unread (server)`,
    );
    await frameRow(embedFrame(page, '#inbox'), CANDIDATE.name).waitFor();
    await badge(page)
      .getByText(String(before! + 1), { exact: true })
      .waitFor();
    await saveScreenshot(page, 'embed-badge', {
      docs: true,
      element: page.locator('header'),
    });

    // opening it in the inbox tells the host which conversation (its own ids) and the count falls
    await frameRow(embedFrame(page, '#inbox'), CANDIDATE.name).click();
    const [opened] = await waitForEvents(page, 'inbox', 'conversation');
    expect(opened!.detail).toMatchObject({
      company_external_id: COMPANY.externalId,
      candidate_external_id: CANDIDATE.externalId,
      job_external_id: 'job-1001',
    });
    await waitForValue(() => lastUnread(page, 'inbox'), 0, 'the unread event once read');
    await embedFrame(page, '#inbox')
      .getByTestId('chat-message')
      .filter({ hasText: text })
      .waitFor();
    await waitForValue(() => lastUnread(page, 'badge'), 0, 'the badge’s unread event once read');
    await saveScreenshot(page, 'embed-inbox', { docs: true });
  });

  it('“Message the candidate” on a job page opens the conversation by host ids, and what is sent reaches the candidate', async () => {
    const { page } = await onBoard('job-page', '/jobs/job-1002', COMPANY.externalId);
    await page.getByRole('button', { name: 'Message the candidate' }).click();
    const conversation = embedFrame(page, '#conversation');
    const input = conversation.getByPlaceholder('Write Message...', { exact: true });
    await input.waitFor();
    const [opened] = await waitForEvents(page, 'conversation', 'conversation');
    expect(opened!.detail).toMatchObject({
      company_external_id: COMPANY.externalId,
      candidate_external_id: SECOND_CANDIDATE.externalId,
      job_external_id: 'job-1002',
    });
    expect(typeof opened!.detail?.id).toBe('number');
    // one conversation only: no list, no other rows
    expect(await conversation.getByTestId('conversation-row').count()).toBe(0);
    const send = conversation.getByRole('button', { name: 'Send', exact: true });
    expect(await send.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe(
      THEME_RGB,
    );
    const text = `Hello Omar, are you free on Monday? ${uniqueTag()}`;
    await input.fill(text);
    await send.click();
    await conversation.getByTestId('chat-message').filter({ hasText: text }).waitFor();
    await waitForValue(() => input.inputValue(), '', 'the input after sending');
    await saveScreenshot(page, 'embed-job-page', { docs: true });

    // the candidate, on the board in another browser, has it in the inbox
    const omar = await onBoard('omar', '/', SECOND_CANDIDATE.externalId);
    const inbox = embedFrame(omar.page, '#inbox');
    await frameRow(inbox, COMPANY.name).click();
    await inbox.getByTestId('chat-message').filter({ hasText: text }).waitFor();

    // the handle's open() switches the conversation frame to another conversation by host ids
    await openByHostIds(page, 'conversation', {
      company: COMPANY.externalId,
      candidate: CANDIDATE.externalId,
      job: 'job-1001',
    });
    const switched = await waitForEvents(page, 'conversation', 'conversation', 2);
    expect(switched.at(-1)!.detail).toMatchObject({
      candidate_external_id: CANDIDATE.externalId,
      job_external_id: 'job-1001',
    });
    await conversation
      .getByTestId('chat-message')
      .filter({ hasText: 'Is it still open?' })
      .waitFor();
  });

  it('the React component (<JobMessenger mode="inbox">) mounts the inbox and reports the unread count', async () => {
    const { page } = await onBoard('react', '/react', CANDIDATE.externalId);
    const inbox = embedFrame(page, '#react-root');
    await frameRow(inbox, COMPANY.name).waitFor();
    await waitForEvents(page, 'react', 'ready');
    await waitForValue(
      async () => /^\d+$/.test(await page.locator('#react-unread').innerText()),
      true,
      'the unread count the component reported',
    );
  });

  it('a lost session raises signin-required on the host page, and mounting again with a fresh link works', async () => {
    const { page } = await onBoard('lost-session', '/', COMPANY.externalId);
    await frameRow(embedFrame(page, '#inbox'), CANDIDATE.name).waitFor();
    await waitForEvents(page, 'inbox', 'ready');
    // reloading the frame keeps its session (the partitioned cookie): no sign-in needed
    const frame = await embedFrameHandle(page, '#inbox');
    await frame.evaluate(() => location.reload());
    await waitForEvents(page, 'inbox', 'ready', 2);
    await frameRow(embedFrame(page, '#inbox'), CANDIDATE.name).waitFor();
    expect(await eventsOf(page, 'inbox', 'signin-required')).toEqual([]);

    // the session ends (signed out from inside the frame's own partition)
    const signedOut = await (
      await embedFrameHandle(page, '#inbox')
    ).evaluate(async () => {
      const cookie = /(?:^|;\s*)XSRF-TOKEN=([^;]+)/.exec(document.cookie)?.[1];
      const meta = document.querySelector('meta[name="csrf-token"]')?.getAttribute('content');
      const headers: Record<string, string> = cookie
        ? { 'X-XSRF-TOKEN': decodeURIComponent(cookie) }
        : { 'X-CSRF-TOKEN': meta ?? '' };
      return (await fetch('/logout', { method: 'POST', headers })).status;
    });
    expect(signedOut).toBe(204);
    // the frame's next call (opening a conversation by host ids) finds no session
    await openByHostIds(page, 'inbox', {
      company: COMPANY.externalId,
      candidate: CANDIDATE.externalId,
      job: 'job-1001',
    });
    await waitForEvents(page, 'inbox', 'signin-required');
    // the page asked the board for a fresh link and mounted again: signed in, the inbox is back
    await waitForEvents(page, 'inbox', 'ready', 3);
    await frameRow(embedFrame(page, '#inbox'), CANDIDATE.name).waitFor();
    const mounts = await page.evaluate(
      () => (window as unknown as { mounts: { frame: string; withLink: boolean }[] }).mounts,
    );
    expect(mounts.filter((mount) => mount.frame === 'inbox')).toEqual([
      expect.objectContaining({ withLink: true }),
      expect.objectContaining({ withLink: true }),
    ]);
    // the badge shared the ended session: it either noticed (and was mounted again with a link of
    // its own) or goes on with the new one; either way it counts again
    await waitForValue(
      async () =>
        (await eventsOf(page, 'badge', 'ready')).length >
        (await eventsOf(page, 'badge', 'signin-required')).length,
      true,
      'the badge ready after its last signin-required',
    );
  });

  it('a page on an origin outside EMBED_ORIGINS cannot frame the messenger', async () => {
    const { page } = await suite.newUser('outsider', { viewport: WIDE });
    const answered = page.waitForResponse(
      (response) => response.url().startsWith(`${suite.url}/messages?embed=`),
      { timeout: WAIT.timeout },
    );
    // the board mounts its inbox (with a valid sign-in link): the browser refuses the framed page
    await page.goto(`${outsider.url}/?as=${COMPANY.externalId}`);
    await page.locator('#inbox iframe').waitFor({ state: 'attached' });
    // a plain frame of /messages (no embed parameters) is refused as well
    await page.evaluate((src) => {
      const frame = document.createElement('iframe');
      frame.id = 'plain';
      frame.title = 'plain';
      frame.src = src;
      document.body.append(frame);
    }, `${suite.url}/messages`);
    const refused = await answered;
    expect(refused.status()).toBe(400);
    expect(refused.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    for (const selector of ['#inbox iframe', '#plain']) {
      const handle = await page.locator(selector).elementHandle();
      await waitForValue(
        async () => {
          const frame = await handle?.contentFrame();
          if (!frame) return 'no frame';
          // Chromium shows its own error page in a refused frame: nothing of the messenger's
          return frame.url().startsWith(suite.url) &&
            (await frame.locator('#messageChatBox, [data-testid="conversation-row"]').count()) > 0
            ? 'messenger content'
            : 'refused';
        },
        'refused',
        `${selector}: no messenger content`,
      );
    }
    expect(await eventsOf(page, 'inbox', 'ready')).toEqual([]);
  });

  it('axe finds nothing inside the frames (inbox, conversation, badge)', async () => {
    // axe-core is added to the frame as an inline script: this browser lets the test past the CSP
    const user = await suite.newUser('axe', { viewport: WIDE, bypassCSP: true });
    await user.page.goto(`${board.url}/?as=${CANDIDATE.externalId}`);
    await frameRow(embedFrame(user.page, '#inbox'), COMPANY.name).click();
    await embedFrame(user.page, '#inbox').getByTestId('chat-message').first().waitFor();
    await waitForEvents(user.page, 'badge', 'ready');
    await expectNoAxeViolations(await embedFrameHandle(user.page, '#inbox'), 'the inbox frame');
    await expectNoAxeViolations(await embedFrameHandle(user.page, '#badge'), 'the badge frame');
    await user.page.goto(`${board.url}/jobs/job-1001`);
    await user.page.getByRole('button', { name: 'Message the company' }).click();
    await embedFrame(user.page, '#conversation').getByTestId('chat-message').first().waitFor();
    await expectNoAxeViolations(
      await embedFrameHandle(user.page, '#conversation'),
      'the conversation frame',
    );
  });
});
