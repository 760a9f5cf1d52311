import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { WAIT } from '../../test-support/wait.js';
import { waitForMessagesPage } from './messages-page.js';

/**
 * Opens the messaging page with `?lang=<language>` and waits until the page has saved it as the
 * user's `locale` (it then drops `lang` from the address, docs/language.md). A test that shows a
 * user the page in Arabic this way puts them back with `openMessagesIn(page, 'en')`, so that later
 * tests of the same file find them in English.
 */
export const openMessagesIn = async (page: Page, language: 'en' | 'ar'): Promise<void> => {
  await page.goto(`/messages?lang=${language}`);
  await waitForMessagesPage(page);
  await expect.poll(() => new URL(page.url()).searchParams.has('lang'), WAIT).toBe(false);
};
