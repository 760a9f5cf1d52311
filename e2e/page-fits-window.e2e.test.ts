import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { paths } from '../src/shared/paths.js';
import { ACME, SARA } from '../test-support/accounts.js';
import { signInOverHttp } from '../test-support/http-session.js';
import { conversationWith, sendMessage } from '../test-support/messaging.js';
import { LONG_WAIT, WAIT } from '../test-support/wait.js';
import { WIDE } from './support/browser.js';
import {
  chatMessages,
  conversationList,
  expectMessageOnce,
  messageInput,
  openConversation,
  row,
  uniqueTag,
  waitForLive,
  waitForMessagesPage,
} from './support/messages-page.js';
import { saveScreenshot } from './support/screenshots.js';
import { signInWithForm } from './support/sign-in.js';
import { useE2eSuite } from './support/suite.js';

/** The spec's chat area height: the message area reaches it whenever the window has the room (issue 32: and grows beyond on tall windows). */
const CHAT_AREA_HEIGHT = 700;

/** Phones, tablets, laptops and big screens, from the smallest the page supports to the largest. */
const SIZES = [
  { width: 1366, height: 768 },
  { width: 1280, height: 800 },
  { width: 1440, height: 900 },
  { width: 2560, height: 1440 },
  { width: 1920, height: 1080 },
  { width: 768, height: 1024 },
  { width: 390, height: 844 },
  { width: 375, height: 667 },
  { width: 360, height: 640 },
  { width: 1366, height: 768 },
] as const;

interface Rect {
  top: number;
  bottom: number;
  height: number;
}

const rectOf = (locator: Locator): Promise<Rect> =>
  locator.evaluate((element) => {
    const { top, bottom, height } = element.getBoundingClientRect();
    return { top, bottom, height };
  });

/** What a person sees without scrolling: the window's height, and how far the document reaches. */
const windowFit = (page: Page) =>
  page.evaluate(() => ({
    innerHeight: window.innerHeight,
    documentHeight: document.documentElement.scrollHeight,
    scrolled: window.scrollY,
  }));

/** Whole inside the window (a pixel of rounding allowed). */
const expectOnScreen = async (page: Page, locator: Locator, what: string) => {
  const { innerHeight } = await windowFit(page);
  const rect = await rectOf(locator);
  expect(rect.top, `${what}: top`).toBeGreaterThanOrEqual(-1);
  expect(rect.bottom, `${what}: bottom (window ${innerHeight})`).toBeLessThanOrEqual(
    innerHeight + 1,
  );
};

/** The newest bubble is in view inside the message list. */
const newestInView = async (page: Page): Promise<boolean> => {
  const list = await rectOf(page.getByTestId('message-list'));
  const newest = await rectOf(chatMessages(page).last());
  return newest.bottom <= list.bottom + 2 && newest.bottom >= list.top;
};

/** On a phone the list is the first screen; a row opens the chat (the list steps aside). */
const openOnPhone = async (page: Page, name: string) => {
  await row(conversationList(page), name).click();
  await page.getByTestId('chat-pane').waitFor({ state: 'visible' });
  await chatMessages(page).first().waitFor({ state: 'visible' });
};

describe('messaging page: fits the window, phones, live connection', () => {
  const suite = useE2eSuite({
    failOnConsoleErrors: true,
    // the live socket cut on purpose
    allowConsole: [/WebSocket/i],
  });
  const userIdOf = async (email: string) => (await signInOverHttp(suite.url, email)).userId;

  it('fits every window from 360×640 to 2560×1440: top bar, chat header and composer visible, the chat as tall as the window, newest message in view after each resize', async () => {
    const sara = await suite.newUser('sizes', { viewport: WIDE });
    await signInWithForm(sara.page, SARA);
    const page = sara.page;
    await openConversation(page, ACME.name);
    // enough messages that the conversation is longer than any window (within the send limits)
    const acme = await signInOverHttp(suite.url, ACME.email);
    const conversation = await conversationWith(acme, await userIdOf(SARA.email));
    const tag = uniqueTag();
    for (let index = 1; index <= 12; index += 1) {
      const note = `Note ${index} ${tag}\nA second line\nA third line\nAnd a fourth`;
      const outcome = await sendMessage(acme, conversation, note);
      expect(outcome.status).toBe(200);
    }
    await expectMessageOnce(page, `Note 12 ${tag}`, LONG_WAIT);

    for (const size of SIZES) {
      const label = `${size.width}×${size.height}`;
      await page.setViewportSize(size);
      await page.getByTestId('chat-pane').waitFor({ state: 'visible' });
      await expect
        .poll(async () => (await windowFit(page)).documentHeight, { ...WAIT, message: label })
        .toBeLessThanOrEqual(size.height);
      expect((await windowFit(page)).scrolled, label).toBe(0);

      await expectOnScreen(page, page.locator('.topbar'), `${label} top bar`);
      await expectOnScreen(page, page.locator('.chat-header'), `${label} chat header`);
      await expectOnScreen(page, messageInput(page), `${label} message box`);
      await expectOnScreen(
        page,
        page.getByRole('button', { name: 'Send', exact: true }),
        `${label} Send`,
      );
      const area = await rectOf(page.getByTestId('message-list'));
      if (size.height >= 1080)
        expect(area.height, `${label} message area at full height`).toBeGreaterThanOrEqual(
          CHAT_AREA_HEIGHT - 0.5,
        );
      // the chat uses the window's height: no empty band below it
      const chat = await rectOf(page.getByTestId('chat-pane'));
      expect(chat.bottom, `${label} chat bottom`).toBeGreaterThanOrEqual(size.height - 32);
      await expect.poll(() => newestInView(page), { ...WAIT, message: label }).toBe(true);
      if ([1366, 1440, 1920, 390].includes(size.width))
        await saveScreenshot(page, `window-${size.width}x${size.height}`, { docs: true });
    }

    // a live message lands in view, not below the fold
    await page.setViewportSize({ width: 1366, height: 768 });
    const live = `Arrives while you look ${tag}`;
    await sendMessage(acme, conversation, live);
    await expectMessageOnce(page, live);
    await expect.poll(() => newestInView(page), WAIT).toBe(true);
    await expectOnScreen(page, chatMessages(page, live), 'the live message');
    await suite.close(sara);
  });

  it('on a phone: the list comes first, opening a conversation is a history entry, Back and the back arrow return to the list, and nothing scrolls into empty space', async () => {
    const sara = await suite.newUser('phone', { viewport: { width: 375, height: 667 } });
    await signInWithForm(sara.page, SARA);
    const page = sara.page;
    // the first screen is the list, not an empty placeholder
    await conversationList(page).waitFor({ state: 'visible' });
    expect(await page.getByTestId('chat-placeholder').count()).toBe(0);
    expect((await windowFit(page)).documentHeight).toBeLessThanOrEqual(667);

    await openOnPhone(page, ACME.name);
    expect(new URL(page.url()).searchParams.get('tab')).not.toBeNull();
    expect(await conversationList(page).count()).toBe(0);
    await expect
      .poll(async () => (await windowFit(page)).documentHeight, WAIT)
      .toBeLessThanOrEqual(667);
    await expectOnScreen(page, messageInput(page), 'the message box on a phone');
    await saveScreenshot(page, 'phone-375x667-chat');

    // Back returns to the list, still on the messenger
    await page.goBack();
    await conversationList(page).waitFor({ state: 'visible' });
    expect(new URL(page.url()).pathname).toBe('/messages');
    expect(new URL(page.url()).searchParams.get('tab')).toBeNull();
    expect(await page.getByTestId('chat-pane').count()).toBe(0);

    // Forward opens it again; the chat's back arrow returns to the list too
    await page.goForward();
    await page.getByTestId('chat-pane').waitFor({ state: 'visible' });
    await page.getByRole('button', { name: 'Back to conversations', exact: true }).click();
    await conversationList(page).waitFor({ state: 'visible' });
    expect(new URL(page.url()).searchParams.get('tab')).toBeNull();

    // and Back from the list does not land on the sign-in page
    await page.goBack().catch(() => null);
    expect(new URL(page.url()).pathname).not.toBe(paths.login);
    await suite.close(sara);
  });

  it('says "Offline — reconnecting…" while the live connection is down, and catches up when it is back', async () => {
    const sara = await suite.newUser('reconnect', { viewport: WIDE, controlLive: true });
    await signInWithForm(sara.page, SARA);
    const page = sara.page;
    await openConversation(page, ACME.name);
    await waitForLive(sara);
    const status = page.getByTestId('live-status');
    expect((await status.textContent())?.trim()).toBe('');

    const gate = sara.liveGate;
    if (!gate) throw new Error('the live sockets are not routed through the test');
    gate.drop();
    await expect.poll(() => status.textContent(), WAIT).toMatch(/^Offline — reconnecting…/);

    const acme = await signInOverHttp(suite.url, ACME.email);
    const conversation = await conversationWith(acme, await userIdOf(SARA.email));
    const missed = `Sent while Sara was cut off ${uniqueTag()}`;
    expect((await sendMessage(acme, conversation, missed)).status).toBe(200);

    const cutAt = Date.now();
    gate.restore();
    await waitForLive(sara);
    // how long the page took to come back (printed, not asserted: timing belongs to benchmarks)
    console.info(`live again ${Date.now() - cutAt} ms after the connection was restored`);
    await expect.poll(() => status.textContent(), WAIT).toBe('');
    await expectMessageOnce(page, missed);
    await waitForMessagesPage(page);
    await suite.close(sara);
  });
});
