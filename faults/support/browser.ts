import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  addSessionCookie,
  chatBubbles,
  documentStillMarked,
  markDocument,
  watchLiveSockets,
  watchPage,
} from '../../test-support/browser.js';
import { sessionCookieOf, type HttpSession } from '../../test-support/http-session.js';
import type { Conversation } from '../../test-support/messaging.js';
import { until } from '../../test-support/wait.js';

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
  await addSessionCookie(context, baseUrl, sessionCookieOf(session.cookie));
  const page = await context.newPage();
  const problems = watchPage(page);
  const live = watchLiveSockets(page);
  await page.goto(`/messages?lang=en&target=${conversation.receiverId}&tab=${conversation.id}`);
  await chatBubbles(page).first().waitFor({ state: 'visible', timeout: 30_000 });
  await until(() => live.subscribed > 0, 'the page subscribed to its live channel', 30_000);
  // A mark on this document: a reload (or any navigation) would drop it.
  await markDocument(page);
  return {
    context,
    page,
    dialogs: problems.dialogs,
    pageErrors: problems.pageErrors,
    reloaded: async () => !(await documentStillMarked(page)),
    subscriptions: () => live.subscribed,
    shownChatIds: () =>
      chatBubbles(page).evaluateAll((elements) =>
        elements.map((element) => Number((element as HTMLElement).dataset.chatId)),
      ),
    close: () => context.close(),
  };
};
