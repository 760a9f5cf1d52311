import type { Page } from 'playwright-core';
import { paths } from '../../src/shared/paths.js';
import { DEMO_PASSWORD, type DemoAccount } from '../../test-support/accounts.js';
import { escapeRegExp, waitForMessagesPage } from './messages-page.js';

const loginUrl = (next: string) => `${paths.login}?lang=en&next=${encodeURIComponent(next)}`;

const arriveOnMessages = async (page: Page) => {
  await page.waitForURL((url) => url.pathname === '/messages', { timeout: 30_000 });
  await waitForMessagesPage(page);
};

/** Signs in through the real sign-in page: the "Email" and "Password" fields and the "Sign in" button. */
export const signInWithForm = async (
  page: Page,
  account: Pick<DemoAccount, 'email'>,
  next = '/messages',
): Promise<void> => {
  await page.goto(loginUrl(next));
  await page.getByLabel('Email', { exact: true }).fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await arriveOnMessages(page);
};

/** Signs in with one click on the sign-in page's demo account button (named "Name email Role"). */
export const signInWithDemoButton = async (
  page: Page,
  account: DemoAccount,
  next = '/messages',
): Promise<void> => {
  await page.goto(loginUrl(next));
  await page
    .getByRole('button', {
      name: new RegExp(`^${escapeRegExp(account.name)} ${escapeRegExp(account.email)} `),
    })
    .click();
  await arriveOnMessages(page);
};
