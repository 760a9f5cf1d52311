import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Conversation, HttpSession } from './clients.js';
import { until } from './wait.js';

export { launchChromium } from '../../src/server/test-support/chromium.js';

/** The real messaging page of one signed-in user, with what it did recorded. */
export interface MessagesPage {
  context: BrowserContext;
  page: Page;
  /** alert/confirm/prompt dialogs that opened (each is dismissed). */
  dialogs: string[];
  pageErrors: string[];
  /** False while the document loaded first is still the one shown (no reload, no navigation away). */
  reloaded: () => Promise<boolean>;
  /** `pusher_internal:subscription_succeeded` frames the page received. */
  subscriptions: () => number;
  /** Ids (data-chat-id) of the chat bubbles on screen, in order. */
  shownChatIds: () => Promise<number[]>;
  close: () => Promise<void>;
}

const cookieValue = (cookie: string, name: string): string => {
  const match = new RegExp(`(?:^|;\\s*)${name}=([^;]*)`).exec(cookie);
  if (!match?.[1]) throw new Error(`no ${name} in the session cookie`);
  return match[1];
};

/**
 * Opens `/messages` with a conversation selected (`?target&tab`), in its own context, for a user
 * already signed in over HTTP (its session cookie is handed to the browser).
 */
export const openMessagesPage = async (
  browser: Browser,
  baseUrl: string,
  session: HttpSession,
  conversation: Conversation,
): Promise<MessagesPage> => {
  const context = await browser.newContext({
    baseURL: baseUrl,
    locale: 'en-US',
    viewport: { width: 1280, height: 900 },
  });
  await context.addCookies([
    {
      name: 'messenger_session',
      value: cookieValue(session.cookie, 'messenger_session'),
      url: baseUrl,
      httpOnly: true,
      sameSite: 'Lax',
    },
  ]);
  const page = await context.newPage();
  const dialogs: string[] = [];
  const pageErrors: string[] = [];
  let subscriptions = 0;
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss().catch(() => undefined);
  });
  page.on('pageerror', (error) => pageErrors.push(`${error.name}: ${error.message}`));
  page.on('websocket', (socket) => {
    socket.on('framereceived', (frame) => {
      if (
        typeof frame.payload === 'string' &&
        frame.payload.includes('pusher_internal:subscription_succeeded')
      )
        subscriptions += 1;
    });
  });
  await page.goto(`/messages?lang=en&target=${conversation.receiverId}&tab=${conversation.id}`);
  await page
    .locator('#messageChatBox [data-testid="chat-message"]')
    .first()
    .waitFor({ state: 'visible', timeout: 30_000 });
  await until(() => subscriptions > 0, 'the page subscribed to its live channel', 30_000);
  // A mark on this document: a reload (or any navigation) would drop it.
  await page.evaluate(() => {
    (window as unknown as { faultsMark?: boolean }).faultsMark = true;
  });
  return {
    context,
    page,
    dialogs,
    pageErrors,
    reloaded: async () =>
      !(await page.evaluate(
        () => (window as unknown as { faultsMark?: boolean }).faultsMark === true,
      )),
    subscriptions: () => subscriptions,
    shownChatIds: () =>
      page
        .locator('#messageChatBox [data-testid="chat-message"]')
        .evaluateAll((elements) =>
          elements.map((element) => Number((element as HTMLElement).dataset.chatId)),
        ),
    close: () => context.close(),
  };
};
