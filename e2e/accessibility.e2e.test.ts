import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ACME, NILE, SARA } from '../test-support/accounts.js';
import { WAIT, waitForValue } from '../test-support/wait.js';
import { expectNoAxeViolations } from './support/axe.js';
import { PHONE, WIDE, type UserPage } from './support/browser.js';
import {
  chatMessages,
  conversationList,
  messageInput,
  openConversation,
  row,
  waitForMessagesPage,
} from './support/messages-page.js';
import { openMessagesIn } from './support/language.js';
import { signInWithForm } from './support/sign-in.js';
import { useE2eSuite } from './support/suite.js';

/** What has the keyboard focus, described for assertions. */
interface Focused {
  tag: string;
  testId: string | null;
  /** `data-index` of a conversation row. */
  index: number | null;
  /** aria-label, else the trimmed text. */
  name: string;
  /** The `data-testid` of the list the element sits in, if any. */
  list: string | null;
}

const focused = (page: Page): Promise<Focused> =>
  page.evaluate(() => {
    const element = document.activeElement;
    if (!(element instanceof HTMLElement)) {
      return { tag: 'none', testId: null, index: null, name: '', list: null };
    }
    const index = element.dataset.index;
    return {
      tag: element.tagName.toLowerCase(),
      testId: element.dataset.testid ?? null,
      index: index === undefined ? null : Number(index),
      name: (element.getAttribute('aria-label') ?? element.textContent ?? '').trim(),
      list:
        element
          .closest('[data-testid="conversation-list"], [data-testid="archived-list"]')
          ?.getAttribute('data-testid') ?? null,
    };
  });

const isComposerFocused = (page: Page, placeholder?: string) =>
  messageInput(page, placeholder).evaluate((element) => element === document.activeElement);

/** Whether the focused element is drawn inside the viewport (a skip link shows when focused). */
const focusedIsOnScreen = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    if (!(element instanceof HTMLElement)) return false;
    const box = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    return (
      box.width > 1 &&
      box.height > 1 &&
      box.top >= 0 &&
      box.left >= 0 &&
      box.bottom <= window.innerHeight &&
      box.right <= window.innerWidth &&
      style.visibility !== 'hidden' &&
      style.opacity !== '0'
    );
  });

describe('accessibility: axe-core finds nothing serious, and the keyboard gets around', () => {
  const suite = useE2eSuite({ failOnConsoleErrors: true });

  /** Sara signed in through the form, in a page of her own (`axe`: one that takes axe-core's script). */
  const signedInSara = async (
    label: string,
    viewport: { width: number; height: number },
    options: { axe?: boolean } = {},
  ): Promise<UserPage> => {
    const sara = await suite.newUser(label, { viewport, bypassCSP: options.axe ?? false });
    await signInWithForm(sara.page, SARA);
    return sara;
  };

  it('axe: the sign-in page (English and Arabic)', async () => {
    const visitor = await suite.newUser('axe-sign-in', { viewport: WIDE, bypassCSP: true });
    const page = visitor.page;
    await page.goto('/login?lang=en');
    await page.getByRole('button', { name: new RegExp(`^${SARA.name}`) }).waitFor();
    await expectNoAxeViolations(page, 'the sign-in page');

    await page.goto('/login?lang=ar');
    await page.getByRole('heading', { name: 'تسجيل الدخول', exact: true }).waitFor();
    await page.getByRole('button', { name: new RegExp(`^${SARA.name}`) }).waitFor();
    await expectNoAxeViolations(page, 'the Arabic sign-in page');
    await suite.close(visitor);
  });

  it('axe: the conversation list, then an open conversation (wide)', async () => {
    const sara = await signedInSara('axe-wide', WIDE, { axe: true });
    const page = sara.page;
    await expectNoAxeViolations(page, 'the messages page with the list (wide)');

    await openConversation(page, ACME.name);
    // an own message (the blue bubble with its time) and the selected row are on screen
    await chatMessages(page, 'I led the path-planning module').waitFor();
    await expectNoAxeViolations(page, 'an open conversation (wide)');
    await suite.close(sara);
  });

  it('axe: the conversation drawer on a phone (375×812)', async () => {
    const sara = await signedInSara('axe-phone', PHONE, { axe: true });
    const page = sara.page;
    // phones start on the list; the drawer serves an open conversation
    await row(conversationList(page), NILE.name).click();
    await page.getByTestId('open-drawer').click();
    const drawer = page.getByRole('dialog');
    await row(drawer, ACME.name).waitFor({ state: 'visible' });
    await expectNoAxeViolations(page, 'the open drawer (phone)');
    await suite.close(sara);
  });

  it('axe: the Arabic messages page (?lang=ar) with an open conversation', async () => {
    const sara = await signedInSara('axe-arabic', WIDE, { axe: true });
    const page = sara.page;
    await page.goto('/messages?lang=ar');
    await waitForMessagesPage(page);
    await page.getByRole('heading', { name: 'كل الرسائل', exact: true }).waitFor();
    await expectNoAxeViolations(page, 'the Arabic messages page');
    await openConversation(page, ACME.name, page, { placeholder: 'اكتب رسالة...' });
    await expectNoAxeViolations(page, 'an open conversation in Arabic');
    // `?lang=` is saved as Sara's language: English again for the tests after this one
    await openMessagesIn(page, 'en');
    await suite.close(sara);
  });

  it('axe: the dark colour scheme (the system’s), English and Arabic, list and conversation', async () => {
    const sara = await suite.newUser('axe-dark', {
      viewport: WIDE,
      bypassCSP: true,
      colorScheme: 'dark',
    });
    const page = sara.page;
    await signInWithForm(page, SARA);
    expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(
      true,
    );
    await expectNoAxeViolations(page, 'the messages page (dark)');
    await openConversation(page, ACME.name);
    await chatMessages(page, 'I led the path-planning module').waitFor();
    await expectNoAxeViolations(page, 'an open conversation (dark)');
    await page.goto('/messages?lang=ar');
    await waitForMessagesPage(page);
    await page.getByRole('heading', { name: 'كل الرسائل', exact: true }).waitFor();
    await expectNoAxeViolations(page, 'the Arabic messages page (dark)');
    // `?lang=` is saved as Sara's language: English again for the tests after this one
    await openMessagesIn(page, 'en');
    await suite.close(sara);
  });

  it('keyboard: the skip link is the first Tab stop, shows on focus and moves focus to the message box', async () => {
    const sara = await signedInSara('skip-link', WIDE);
    const page = sara.page;

    // nothing open yet: the link leads to the conversation area
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ tag: 'a', name: 'Skip to conversation' });
    expect(await focusedIsOnScreen(page)).toBe(true);
    await page.keyboard.press('Enter');
    expect(
      await page.evaluate(
        () => document.activeElement?.closest('main') !== null && document.activeElement !== null,
      ),
    ).toBe(true);

    // a conversation opened from the address (?target=&tab=): the link leads to its message box
    await openConversation(page, ACME.name);
    expect(new URL(page.url()).searchParams.get('tab')).not.toBeNull();
    await page.reload();
    await waitForMessagesPage(page);
    await waitForValue(() => messageInput(page).isEnabled(), true, 'the message input enabled');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ tag: 'a', name: 'Skip to message box' });
    expect(await focusedIsOnScreen(page)).toBe(true);
    await page.keyboard.press('Enter');
    expect(await isComposerFocused(page)).toBe(true);
    await suite.close(sara);
  });

  it('keyboard: the list is one Tab stop (its row, then that row’s archive button); arrows move between rows; Enter opens into the message box', async () => {
    const sara = await signedInSara('roving-list', WIDE);
    const page = sara.page;
    const rows = conversationList(page).getByTestId('conversation-row');
    const count = await rows.count();
    expect(count).toBeGreaterThanOrEqual(3);

    // search → job filter → Filter → the list (its first row)
    await page.getByRole('searchbox').focus();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ testId: 'job-filter' });
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ tag: 'button', name: 'Filter' });
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({
      testId: 'conversation-row',
      index: 0,
      list: 'conversation-list',
    });
    // the row's own archive button comes next, then Tab leaves the list
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ name: 'Archive', list: 'conversation-list' });
    await page.keyboard.press('Tab');
    expect((await focused(page)).list).not.toBe('conversation-list');

    // arrows, Home and End move between rows
    await page.getByRole('searchbox').focus();
    for (let step = 0; step < 3; step += 1) await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ testId: 'conversation-row', index: 0 });
    await page.keyboard.press('ArrowDown');
    expect(await focused(page)).toMatchObject({ testId: 'conversation-row', index: 1 });
    await page.keyboard.press('ArrowDown');
    expect(await focused(page)).toMatchObject({ testId: 'conversation-row', index: 2 });
    await page.keyboard.press('ArrowUp');
    expect(await focused(page)).toMatchObject({ testId: 'conversation-row', index: 1 });
    await page.keyboard.press('End');
    expect(await focused(page)).toMatchObject({ testId: 'conversation-row', index: count - 1 });
    await page.keyboard.press('Home');
    expect(await focused(page)).toMatchObject({ testId: 'conversation-row', index: 0 });
    await page.keyboard.press('ArrowDown');

    // leaving and coming back returns to the row last moved to
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ testId: 'conversation-row', index: 1 });

    // Enter opens it and puts the focus in the message box
    const conversationId = await rows.nth(1).getAttribute('data-conversation-id');
    await page.keyboard.press('Enter');
    await waitForValue(
      () =>
        conversationList(page)
          .locator(`[data-conversation-id="${conversationId}"]`)
          .getAttribute('aria-current'),
      'true',
      'the opened row marked current',
    );
    await expect.poll(() => isComposerFocused(page), WAIT).toBe(true);
    await suite.close(sara);
  });

  it('keyboard: opening a conversation with a click, or from the phone drawer, puts the focus in the message box', async () => {
    const wide = await signedInSara('click-focus', WIDE);
    await openConversation(wide.page, ACME.name);
    await expect.poll(() => isComposerFocused(wide.page), WAIT).toBe(true);
    await suite.close(wide);

    const phone = await signedInSara('drawer-focus', PHONE);
    await row(conversationList(phone.page), NILE.name).click();
    await phone.page.getByTestId('open-drawer').click();
    const drawer = phone.page.getByRole('dialog');
    await row(drawer, ACME.name).click();
    await drawer.waitFor({ state: 'detached' });
    await expect.poll(() => isComposerFocused(phone.page), WAIT).toBe(true);
    await suite.close(phone);
  });
});
