import type { Locator, Page } from 'playwright-core';
import { chatBubbles } from '../../test-support/browser.js';
import { WAIT, waitForValue, type PollOptions } from '../../test-support/wait.js';
import type { UserPage } from './browser.js';

export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The page is there: the mount point, and either the list (wide) or the drawer button (small screens). */
export const waitForMessagesPage = async (page: Page): Promise<void> => {
  await page.locator('#messageChatBox').waitFor({ state: 'attached', timeout: 30_000 });
  await page
    .locator('[data-testid="conversation-row"], [data-testid="open-drawer"]')
    .first()
    .waitFor({ state: 'visible', timeout: 30_000 });
};

/** Waits until the page has an open live socket with a confirmed channel subscription. */
export const waitForLive = async (user: UserPage): Promise<void> => {
  await waitForValue(
    () => user.live.isLive(),
    true,
    `${user.label}: a live socket with a confirmed subscription`,
  );
};

export const conversationList = (page: Page): Locator => page.getByTestId('conversation-list');
export const archivedList = (page: Page): Locator => page.getByTestId('archived-list');

const pageOf = (scope: Page | Locator): Page => ('page' in scope ? scope.page() : scope);

/** Rows (buttons) whose accessible name starts with `name` (optionally followed by the unread count). */
const rowMatcher = (page: Page, name: string): Locator =>
  page.getByTestId('conversation-row').and(
    page.getByRole('button', {
      name: new RegExp(`^${escapeRegExp(name)}(?![\\p{L}\\p{N}])`, 'u'),
    }),
  );

/** The row of the conversation with `name`, inside `scope` (a list, the drawer or the whole page). */
export const row = (scope: Page | Locator, name: string): Locator => {
  if (!('page' in scope)) return rowMatcher(scope, name);
  return scope.locator(rowMatcher(scope.page(), name));
};

/** The row's list item: the row plus its archive button. */
export const rowItem = (scope: Page | Locator, name: string): Locator =>
  scope.getByRole('listitem').filter({ has: rowMatcher(pageOf(scope), name) });

export const archiveButton = (
  scope: Page | Locator,
  name: string,
  label: 'Archive' | 'Unarchive',
): Locator => rowItem(scope, name).getByRole('button', { name: label, exact: true });

export const unreadBadge = (scope: Page | Locator, name: string): Locator =>
  row(scope, name).getByTestId('unread-badge');

/** Chat bubbles in the open conversation whose text contains `text`. */
export const chatMessages = (page: Page, text?: string): Locator => {
  const all = chatBubbles(page);
  return text === undefined ? all : all.filter({ hasText: text });
};

export const messageInput = (page: Page, placeholder = 'Write Message...'): Locator =>
  page.getByPlaceholder(placeholder, { exact: true });

/** Waits until exactly one bubble contains `text`. */
export const expectMessageOnce = async (
  page: Page,
  text: string,
  options: PollOptions = WAIT,
): Promise<void> => {
  await waitForValue(
    () => chatMessages(page, text).count(),
    1,
    `the number of bubbles with "${text}"`,
    options,
  );
};

/** Clicks a conversation's row; resolves once it is the current row and its messages show. */
export const selectConversation = async (
  page: Page,
  name: string,
  scope: Page | Locator = page,
): Promise<void> => {
  await row(scope, name).click();
  await waitForValue(
    () => row(page, name).getAttribute('aria-current'),
    'true',
    `aria-current of the row of ${name}`,
  );
  await chatMessages(page).first().waitFor({ state: 'visible' });
};

/** Opens a conversation by clicking its row; resolves once its messages have loaded and the input is enabled. */
export const openConversation = async (
  page: Page,
  name: string,
  scope: Page | Locator = page,
  labels: { placeholder?: string } = {},
): Promise<void> => {
  await selectConversation(page, name, scope);
  await waitForValue(
    () => messageInput(page, labels.placeholder).isEnabled(),
    true,
    'the message input enabled',
  );
};

/** Types a message and presses Send; resolves once it shows in the sender's own chat and the input is empty. */
export const sendFromUi = async (
  page: Page,
  text: string,
  labels: { placeholder?: string; send?: string } = {},
): Promise<void> => {
  const input = messageInput(page, labels.placeholder);
  await input.fill(text);
  await page.getByRole('button', { name: labels.send ?? 'Send', exact: true }).click();
  await expectMessageOnce(page, text);
  await waitForValue(() => input.inputValue(), '', 'the message input after sending');
};

/** The ids of every bubble in the open conversation, in order. */
export const chatIds = (page: Page): Promise<string[]> =>
  chatMessages(page).evaluateAll((elements) =>
    elements.map((element) => element.getAttribute('data-chat-id') ?? ''),
  );

/** A short unique tag so that each test's messages are its own. */
export const uniqueTag = (): string => Math.random().toString(36).slice(2, 8);
