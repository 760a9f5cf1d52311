import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/server/db/database.js';
import { integrationPaths, type IntegrationUser } from '../src/shared/integration.js';
import { LINA } from '../test-support/accounts.js';
import { WAIT } from '../test-support/wait.js';
import type { UserPage } from './support/browser.js';
import { waitForMessagesPage } from './support/messages-page.js';
import { signInWithForm } from './support/sign-in.js';
import { useE2eSuite } from './support/suite.js';

const INTEGRATION_KEY = 'e2e-language-integration-key-0123456789abcdef';
const LINA_EXTERNAL_ID = 'host-user-lina';
const ENGLISH_HEADING = 'all messages';
const ARABIC_HEADING = 'كل الرسائل';

const documentLanguage = (page: Page) =>
  page.evaluate(() => ({ dir: document.documentElement.dir, lang: document.documentElement.lang }));

/**
 * Records, in every page of the context, the language and direction the page had when its HTML was
 * parsed, and whether the English heading was ever on screen (a flash of English before Arabic).
 */
const watchFirstPaint = async (user: UserPage) =>
  user.context.addInitScript((englishHeading) => {
    const seen = window as unknown as {
      englishSeen: boolean;
      atStart: { dir: string; lang: string } | null;
    };
    seen.englishSeen = false;
    seen.atStart = null;
    document.addEventListener('DOMContentLoaded', () => {
      seen.atStart = { dir: document.documentElement.dir, lang: document.documentElement.lang };
    });
    new MutationObserver(() => {
      if (document.body?.textContent?.includes(englishHeading)) seen.englishSeen = true;
    }).observe(document, { subtree: true, childList: true, characterData: true });
  }, ENGLISH_HEADING);

const firstPaint = (page: Page) =>
  page.evaluate(() => {
    const seen = window as unknown as {
      englishSeen: boolean;
      atStart: { dir: string; lang: string } | null;
    };
    return { englishSeen: seen.englishSeen, atStart: seen.atStart };
  });

/**
 * The page's language: `?lang=`, else the user's saved `locale` (whoever wrote it last: the host's
 * integration API or the user), else the browser's, else English.
 */
describe('the page opens in the user’s language', () => {
  const suite = useE2eSuite({
    failOnConsoleErrors: true,
    env: { INTEGRATION_KEYS: INTEGRATION_KEY },
  });

  const host = async (method: 'GET' | 'PUT', body?: Record<string, unknown>) => {
    const response = await fetch(new URL(integrationPaths.user(LINA_EXTERNAL_ID), suite.url), {
      method,
      headers: {
        authorization: `Bearer ${INTEGRATION_KEY}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify({ role: 'candidate', name: LINA.name, ...body }) } : {}),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { user: IntegrationUser }).user;
  };

  beforeAll(async () => {
    // The host knows Lina by its own id (as after importing its existing users).
    const db = openDatabase(suite.server.database.url);
    try {
      await db.kysely
        .updateTable('users')
        .set({ external_id: LINA_EXTERNAL_ID })
        .where('email', '=', LINA.email)
        .execute();
    } finally {
      await db.destroy();
    }
  });

  it('in Arabic at once when the host set `locale: "ar"`, in a browser that has never seen the page (and is in English)', async () => {
    expect((await host('PUT', { locale: 'ar' })).locale).toBe('ar');

    const fresh = await suite.newUser('fresh-arabic', { locale: 'en-US' });
    await watchFirstPaint(fresh);
    await signInWithForm(fresh.page, LINA);
    const page = fresh.page;
    expect(await documentLanguage(page)).toEqual({ dir: 'rtl', lang: 'ar' });
    await page.getByRole('heading', { name: ARABIC_HEADING, exact: true }).waitFor();
    // Arabic and right to left from the HTML on, with no English shown on the way
    expect(await firstPaint(page)).toEqual({
      englishSeen: false,
      atStart: { dir: 'rtl', lang: 'ar' },
    });
    await suite.close(fresh);
  });

  it('`?lang=en` opens English and saves it: the host reads it, and another fresh browser (in Arabic) opens English', async () => {
    expect((await host('PUT', { locale: 'ar' })).locale).toBe('ar');

    const first = await suite.newUser('lang-en', { locale: 'ar-EG' });
    await watchFirstPaint(first);
    await signInWithForm(first.page, LINA, '/messages?lang=en');
    expect(await documentLanguage(first.page)).toEqual({ dir: 'ltr', lang: 'en' });
    await first.page.getByRole('heading', { name: ENGLISH_HEADING, exact: true }).waitFor();
    expect((await firstPaint(first.page)).atStart).toEqual({ dir: 'ltr', lang: 'en' });
    // saved as the user's locale, then gone from the address
    await expect.poll(() => new URL(first.page.url()).searchParams.has('lang'), WAIT).toBe(false);
    expect((await host('GET')).locale).toBe('en');
    await suite.close(first);

    const second = await suite.newUser('after-lang-en', { locale: 'ar-EG' });
    await signInWithForm(second.page, LINA);
    expect(await documentLanguage(second.page)).toEqual({ dir: 'ltr', lang: 'en' });
    await second.page.getByRole('heading', { name: ENGLISH_HEADING, exact: true }).waitFor();

    // choosing Arabic on the page is what the host reads next, and what the next visit opens in
    await second.page.getByTestId('language-switch').selectOption('ar');
    await second.page.getByRole('heading', { name: ARABIC_HEADING, exact: true }).waitFor();
    await expect.poll(async () => (await host('GET')).locale, WAIT).toBe('ar');
    await suite.close(second);

    const third = await suite.newUser('after-switch', { locale: 'en-US' });
    await signInWithForm(third.page, LINA);
    expect(await documentLanguage(third.page)).toEqual({ dir: 'rtl', lang: 'ar' });
    await suite.close(third);
  });

  it('follows the browser’s language when no one ever set the user’s `locale`', async () => {
    expect((await host('PUT', { locale: null })).locale).toBeNull();
    const arabicBrowser = await suite.newUser('browser-arabic', { locale: 'ar-EG' });
    // (the sign-in page's own `?lang=en` is remembered for the sign-in page, not for the user)
    await signInWithForm(arabicBrowser.page, LINA);
    await waitForMessagesPage(arabicBrowser.page);
    expect(await documentLanguage(arabicBrowser.page)).toEqual({ dir: 'rtl', lang: 'ar' });
    await arabicBrowser.page.getByRole('heading', { name: ARABIC_HEADING, exact: true }).waitFor();
    // opening the page saved nothing: the host still reads no language
    expect((await host('GET')).locale).toBeNull();
    await suite.close(arabicBrowser);
  });
});
