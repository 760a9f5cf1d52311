import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ACME, NILE, SARA } from '../test-support/accounts.js';
import { WAIT } from '../test-support/wait.js';
import { boxOf, PHONE, WIDE } from './support/browser.js';
import {
  chatMessages,
  conversationList,
  expectMessageOnce,
  openConversation,
  row,
  uniqueTag,
  waitForMessagesPage,
} from './support/messages-page.js';
import { openMessagesIn } from './support/language.js';
import { saveScreenshot } from './support/screenshots.js';
import { signInWithDemoButton, signInWithForm } from './support/sign-in.js';
import { useE2eSuite } from './support/suite.js';

/** Demo messages in Sara's conversation with Acme: one she wrote, one Acme wrote. */
const OWN_TEXT = 'I led the path-planning module';
const OTHER_TEXT = 'Would Tuesday at 10:00 work for you?';

/** Where a bubble's text sits within the message list: 'left' or 'right' of its middle. */
const sideOf = async (page: Page, text: string): Promise<'left' | 'right'> => {
  const list = await boxOf(page.getByTestId('message-list'));
  const bubble = await boxOf(chatMessages(page, text).getByText(text, { exact: false }).first());
  const middle = list.x + list.width / 2;
  const bubbleMiddle = bubble.x + bubble.width / 2;
  return bubbleMiddle < middle ? 'left' : 'right';
};

const documentDirection = (page: Page) =>
  page.evaluate(() => ({ dir: document.documentElement.dir, lang: document.documentElement.lang }));

const horizontalOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe('messaging page: wide and small screens, English and Arabic', () => {
  const suite = useE2eSuite({ failOnConsoleErrors: true });

  it('at 1280×800 shows the list beside the chat; own messages on the right (screenshot: wide)', async () => {
    const sara = await suite.newUser('wide', { viewport: WIDE });
    await signInWithForm(sara.page, SARA);
    const page = sara.page;
    expect(await documentDirection(page)).toEqual({ dir: 'ltr', lang: 'en' });
    expect(await page.getByTestId('open-drawer').count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'all messages', exact: true }).isVisible()).toBe(
      true,
    );
    expect(await page.getByText('no message item selected').isVisible()).toBe(true);

    await openConversation(page, ACME.name);
    const list = await boxOf(conversationList(page));
    const chat = await boxOf(page.getByTestId('message-list'));
    expect(list.x + list.width).toBeLessThanOrEqual(chat.x + 1);
    expect(await sideOf(page, OWN_TEXT)).toBe('right');
    expect(await sideOf(page, OTHER_TEXT)).toBe('left');
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);

    await saveScreenshot(page, 'wide', { docs: true });
    await suite.close(sara);
  });

  it('at 375 px the list is the first screen (no drawer button); with a chat open the list lives in a drawer that opens, selects and closes (screenshot: mobile)', async () => {
    const sara = await suite.newUser('mobile', { viewport: PHONE });
    await signInWithDemoButton(sara.page, SARA);
    const page = sara.page;
    const opener = page.getByTestId('open-drawer');
    // phones start on the list itself: no button repeats it
    await conversationList(page).waitFor({ state: 'visible' });
    expect(await opener.count()).toBe(0);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await saveScreenshot(page, 'mobile-list', { docs: true });
    await row(conversationList(page), NILE.name).click();
    await page.getByTestId('chat-pane').waitFor({ state: 'visible' });
    expect(await opener.isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Messages', exact: true }).count()).toBe(1);

    // open, choose a conversation: the drawer closes and the chat shows it
    await opener.click();
    const drawer = page.getByRole('dialog');
    await drawer.waitFor({ state: 'visible' });
    expect(await conversationList(page).count()).toBe(1);
    expect(await drawer.getByText('all messages', { exact: true }).isVisible()).toBe(true);
    const drawerBox = await boxOf(drawer);
    expect(drawerBox.width).toBeLessThanOrEqual(PHONE.width);
    await row(drawer, ACME.name).waitFor({ state: 'visible' });
    await saveScreenshot(page, 'mobile-drawer');
    await row(drawer, ACME.name).click();
    await drawer.waitFor({ state: 'detached' });
    await chatMessages(page, OTHER_TEXT).waitFor({ state: 'visible' });
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await saveScreenshot(page, 'mobile', { docs: true });

    // the selected row is marked when the drawer opens again; its close button closes it
    await opener.click();
    await drawer.waitFor({ state: 'visible' });
    await expect.poll(() => row(drawer, ACME.name).getAttribute('aria-current'), WAIT).toBe('true');
    await drawer.getByRole('button', { name: 'Close', exact: true }).click();
    await drawer.waitFor({ state: 'detached' });
    // focus goes back to the button that opened it
    expect(await opener.evaluate((element) => element === document.activeElement)).toBe(true);

    // Escape closes it as well
    await opener.click();
    await drawer.waitFor({ state: 'visible' });
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
    expect(await chatMessages(page, OTHER_TEXT).isVisible()).toBe(true);
    await suite.close(sara);
  });

  it('?lang=ar renders the page right-to-left with own messages on the left (screenshot: arabic)', async () => {
    const sara = await suite.newUser('arabic', { viewport: WIDE });
    await signInWithForm(sara.page, SARA);
    const page = sara.page;
    await page.goto('/messages?lang=ar');
    await waitForMessagesPage(page);
    expect(await documentDirection(page)).toEqual({ dir: 'rtl', lang: 'ar' });
    expect(await page.getByRole('heading', { name: 'كل الرسائل', exact: true }).isVisible()).toBe(
      true,
    );

    await openConversation(page, ACME.name, page, { placeholder: 'اكتب رسالة...' });
    // the list is on the right of the chat
    const list = await boxOf(conversationList(page));
    const chat = await boxOf(page.getByTestId('message-list'));
    expect(chat.x + chat.width).toBeLessThanOrEqual(list.x + 1);
    expect(await sideOf(page, OWN_TEXT)).toBe('left');
    expect(await sideOf(page, OTHER_TEXT)).toBe('right');

    // sending in Arabic works and the new own message is on the left too
    const text = `مرحبا ${uniqueTag()}`;
    await page.getByPlaceholder('اكتب رسالة...', { exact: true }).fill(text);
    await page.getByRole('button', { name: 'إرسال', exact: true }).click();
    await expectMessageOnce(page, text);
    expect(await sideOf(page, text)).toBe('left');
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);

    await saveScreenshot(page, 'arabic', { docs: true });
    // `?lang=` is saved as Sara's language: English again for the next test
    await openMessagesIn(page, 'en');
    await suite.close(sara);
  });

  it('the language switch turns the page to Arabic (remembered after reload) and back', async () => {
    const sara = await suite.newUser('language-switch', { viewport: WIDE });
    await signInWithForm(sara.page, SARA);
    const page = sara.page;
    expect(await documentDirection(page)).toEqual({ dir: 'ltr', lang: 'en' });

    // the choice is saved as Sara's locale: the next visit opens in it
    const saved = page.waitForResponse(
      (response) =>
        response.url().includes('/user/settings') && response.request().method() === 'PATCH',
    );
    await page.getByTestId('language-switch').selectOption('ar');
    await expect.poll(() => documentDirection(page), WAIT).toEqual({ dir: 'rtl', lang: 'ar' });
    await page.getByRole('heading', { name: 'كل الرسائل', exact: true }).waitFor();
    expect(await page.getByPlaceholder('ابحث عن شركة', { exact: true }).count()).toBe(1);
    expect((await saved).status()).toBe(200);

    await page.goto('/messages');
    await waitForMessagesPage(page);
    expect(await documentDirection(page)).toEqual({ dir: 'rtl', lang: 'ar' });

    await page.getByTestId('language-switch').selectOption('en');
    await expect.poll(() => documentDirection(page), WAIT).toEqual({ dir: 'ltr', lang: 'en' });
    await page.getByRole('heading', { name: 'all messages', exact: true }).waitFor();
    await suite.close(sara);
  });
});
