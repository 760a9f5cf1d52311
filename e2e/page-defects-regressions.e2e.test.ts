import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { paths } from '../src/shared/paths.js';
import {
  ACME,
  DANIEL,
  LINA,
  MAYA,
  NILE,
  OMAR,
  ORBIT,
  SARA,
  YOUSSEF,
} from '../test-support/accounts.js';
import { signInOverHttp } from '../test-support/http-session.js';
import { conversationWith, sendMessage } from '../test-support/messaging.js';
import { WAIT, waitForValue } from '../test-support/wait.js';
import { PHONE } from './support/browser.js';
import { useE2eDatabase } from './support/e2e-database.js';
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
import { signInWithForm } from './support/sign-in.js';
import { useE2eSuite } from './support/suite.js';

/**
 * Defects first fixed with jsdom tests only, now checked in a real browser: local date groups,
 * conversation load errors, drafts, reading history, row names, links, the length limit, closed
 * jobs and the keyboard hint on touch screens.
 */

/** What the browser itself says the local calendar date of each instant is (in its time zone). */
const localDates = (page: Page, instants: readonly string[], language: string) =>
  page.evaluate(
    ([list, locale]) =>
      list.map((instant) =>
        new Intl.DateTimeFormat(locale, {
          weekday: 'long',
          year: 'numeric',
          month: 'long',
          day: 'numeric',
        }).format(new Date(instant)),
      ),
    [instants, language] as const,
  );

describe('page defects fixed before in jsdom only, now in Chromium', () => {
  const suite = useE2eSuite({
    failOnConsoleErrors: true,
    // the tests below make calls fail on purpose
    allowConsole: [
      // 403: a link to someone else's conversation is asked of the server first (the unseen call)
      /status of (403|404|500)/,
      /ApiError/,
      /Message not sent/,
      /net::ERR_FAILED/,
      /Failed to fetch/,
    ],
  });
  const db = useE2eDatabase(suite);

  it('groups messages by the viewer’s local date (Asia/Riyadh, America/Los_Angeles), in English and Arabic', async () => {
    // a conversation with only these two messages: on one UTC date (January 15), but on two local
    // dates in Riyadh (15 and 16) and in Los Angeles (14 and 15)
    const conversationId = db.addConversation(LINA.email, NILE.email);
    const tag = uniqueTag();
    const early = '2026-01-15T03:00:00.000Z';
    const late = '2026-01-15T22:30:00.000Z';
    db.addMessage({
      conversationId,
      fromEmail: NILE.email,
      text: `early ${tag}`,
      createdAt: early,
    });
    db.addMessage({ conversationId, fromEmail: LINA.email, text: `late ${tag}`, createdAt: late });

    for (const timezoneId of ['Asia/Riyadh', 'America/Los_Angeles']) {
      for (const language of ['en', 'ar']) {
        const lina = await suite.newUser(`lina-${timezoneId}-${language}`, { timezoneId });
        await signInWithForm(lina.page, LINA, `/messages?lang=${language}`);
        await row(conversationList(lina.page), NILE.name).click();
        await waitForValue(() => chatMessages(lina.page, tag).count(), 2, 'the two messages');
        const expected = await localDates(lina.page, [early, late], language);
        expect(new Set(expected).size, `${timezoneId}: two local dates`).toBe(2);
        const separators = await lina.page.getByTestId('date-separator').allTextContents();
        expect(separators, `${timezoneId} ${language}`).toEqual(expected);
        // each message under its own local date
        for (const [index, text] of [`early ${tag}`, `late ${tag}`].entries()) {
          const group = lina.page.locator('section.message-group').filter({
            has: lina.page.getByTestId('chat-message').filter({ hasText: text }),
          });
          expect(await group.getByTestId('date-separator').textContent()).toBe(expected[index]);
        }
        await suite.close(lina);
      }
    }
  });

  it('a conversation that fails to load says so with a retry that works; someone else’s says "not found", without a composer', async () => {
    const sara = await suite.newUser('candidate');
    await signInWithForm(sara.page, SARA);
    const failing = `**${paths.getMessage}**`;
    await sara.page.route(failing, (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: '{"message":"Server Error"}',
      }),
    );
    await row(sara.page, ACME.name).click();
    const error = sara.page.getByTestId('chat-load-error');
    await error.waitFor({ state: 'visible', timeout: WAIT.timeout });
    expect(await error.textContent()).toContain('This conversation could not be loaded.');
    expect(await messageInput(sara.page).count()).toBe(0);
    await sara.page.unroute(failing);
    await error.getByRole('button', { name: 'Try again', exact: true }).click();
    await chatMessages(sara.page).first().waitFor({ state: 'visible' });
    await waitForValue(() => messageInput(sara.page).isEnabled(), true, 'the composer');
    expect(await error.count()).toBe(0);

    // Omar opens a link to Sara's conversation with Nile: not his
    const saraNile = db.conversationId(SARA.email, NILE.email);
    const omar = await suite.newUser('other-candidate');
    await signInWithForm(
      omar.page,
      OMAR,
      `/messages?target=${db.userId(NILE.email)}&tab=${saraNile}`,
    );
    const notFound = omar.page.getByTestId('chat-load-error');
    await notFound.waitFor({ state: 'visible', timeout: WAIT.timeout });
    expect(await notFound.textContent()).toContain('This conversation was not found.');
    expect(await notFound.getByRole('button').count()).toBe(0);
    expect(await messageInput(omar.page).count()).toBe(0);
    await suite.close(sara);
    await suite.close(omar);
  });

  it('an unsent draft and a "Not sent" message survive switching conversations and a reload', async () => {
    const omar = await suite.newUser('candidate-drafts');
    const page = omar.page;
    await signInWithForm(page, OMAR);
    await openConversation(page, ACME.name);
    const tag = uniqueTag();
    const draft = `half a thought ${tag}`;
    await messageInput(page).fill(draft);
    await openConversation(page, 'Blue Harbor Logistics');
    expect(await messageInput(page).inputValue()).toBe('');
    await openConversation(page, ACME.name);
    expect(await messageInput(page).inputValue()).toBe(draft);
    await page.reload();
    await waitForMessagesPage(page);
    await waitForValue(() => messageInput(page).inputValue(), draft, 'the draft after a reload');

    // a message that could not be sent
    const sending = `**${paths.sendMessage}**`;
    await page.route(sending, (route) => route.abort('failed'));
    const unsent = `could not send ${tag}`;
    await messageInput(page).fill(unsent);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const failed = page.getByTestId('send-failed');
    await failed.waitFor({ state: 'visible' });
    await waitForValue(() => messageInput(page).inputValue(), unsent, 'the unsent text');
    await openConversation(page, 'Blue Harbor Logistics');
    expect(await failed.count()).toBe(0);
    await openConversation(page, ACME.name);
    await failed.waitFor({ state: 'visible' });
    expect(await messageInput(page).inputValue()).toBe(unsent);
    await page.reload();
    await waitForMessagesPage(page);
    await failed.waitFor({ state: 'visible', timeout: WAIT.timeout });
    await waitForValue(() => messageInput(page).inputValue(), unsent, 'the unsent text');
    expect(await failed.textContent()).toContain('Not sent.');

    await page.unroute(sending);
    await failed.getByRole('button', { name: 'Retry', exact: true }).click();
    await expectMessageOnce(page, unsent);
    await failed.waitFor({ state: 'detached' });
    await waitForValue(() => messageInput(page).inputValue(), '', 'the input after the retry');
    await suite.close(omar);
  });

  it('reading history, a live message does not move the view; "New messages ↓" scrolls to it', async () => {
    const conversationId = db.conversationId(DANIEL.email, ORBIT.email);
    const start = Date.now() - 60 * 60_000;
    for (let index = 0; index < 40; index += 1) {
      db.addMessage({
        conversationId,
        fromEmail: index % 3 === 0 ? DANIEL.email : ORBIT.email,
        text: `history line ${index + 1}`,
        createdAt: new Date(start + index * 60_000).toISOString(),
      });
    }
    const daniel = await suite.newUser('candidate-history');
    await signInWithForm(daniel.page, DANIEL);
    await openConversation(daniel.page, ORBIT.name);
    await waitForLive(daniel);
    const list = daniel.page.getByTestId('message-list');
    const position = () =>
      list.evaluate((element) => ({
        top: element.scrollTop,
        fromBottom: element.scrollHeight - element.scrollTop - element.clientHeight,
      }));
    // up into the history, away from both ends
    await list.evaluate((element) => {
      element.scrollTop = Math.max(400, element.scrollHeight / 2 - element.clientHeight);
    });
    const before = await position();
    expect(before.fromBottom).toBeGreaterThan(200);

    const orbit = await signInOverHttp(suite.url, ORBIT.email);
    const conversation = await conversationWith(orbit, db.userId(DANIEL.email));
    const text = `a new message while reading ${uniqueTag()}`;
    expect((await sendMessage(orbit, conversation, text)).ok).toBe(true);
    await expectMessageOnce(daniel.page, text);
    const jump = daniel.page.getByTestId('new-messages-below');
    await jump.waitFor({ state: 'visible' });
    expect(await jump.textContent()).toBe('New messages ↓');
    expect(Math.abs((await position()).top - before.top)).toBeLessThanOrEqual(2);

    await jump.click();
    await waitForValue(
      async () => (await position()).fromBottom <= 2,
      true,
      'the view at the newest message',
    );
    await jump.waitFor({ state: 'detached' });
    expect(await chatMessages(daniel.page, text).isVisible()).toBe(true);
    await suite.close(daniel);
  });

  it('at 1280 wide a name that fits is not cut, whether the archive button shows or not', async () => {
    const acme = await suite.newUser('company-names');
    await signInWithForm(acme.page, ACME);
    const name = acme.page.locator(
      `[data-testid="conversation-row"][data-conversation-id="${db.conversationId(MAYA.email, ACME.email)}"] .conversation-row__name`,
    );
    await name.waitFor();
    // the archive button shows beside the job and preview lines only: the name keeps its room
    await name.hover();
    const hovered = await name.evaluate((element) => element.clientWidth);
    await acme.page.mouse.move(5, 5);
    const room = await name.evaluate((element) => element.clientWidth);
    expect(hovered).toBe(room);
    // a name that nearly fills that room is shown whole, hovered or not
    const longName = await name.evaluate((element, width) => {
      const context = document.createElement('canvas').getContext('2d');
      if (!context) throw new Error('no canvas');
      context.font = getComputedStyle(element).font;
      let text = 'Maya Chen';
      const words = ['Abdelrahman', 'Al', 'Montgomery', 'Haddad', 'Okafor', 'Nasser', 'Farouk'];
      for (let index = 0; context.measureText(text).width < width - 12; index += 1)
        text += ` ${words[index % words.length]}`;
      while (context.measureText(text).width > width - 4) text = text.slice(0, -1).trimEnd();
      return text;
    }, room);
    db.renameUser(MAYA.email, longName);
    await acme.page.reload();
    await waitForMessagesPage(acme.page);
    await waitForValue(() => name.textContent(), longName, 'the renamed row');
    const fits = () =>
      name.evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth }));
    await acme.page.mouse.move(5, 5);
    const still = await fits();
    expect(still.scroll, `"${longName}" in ${still.client}px`).toBeLessThanOrEqual(still.client);
    await name.hover();
    const withButton = await fits();
    expect(withButton.scroll, `"${longName}" hovered`).toBeLessThanOrEqual(withButton.client);
    db.renameUser(MAYA.email, MAYA.name);
    await suite.close(acme);
  });

  it('rows show the job title, for a company viewer as for a candidate', async () => {
    const acme = await suite.newUser('company-rows');
    await signInWithForm(acme.page, ACME);
    const acmeList = conversationList(acme.page);
    expect(await row(acmeList, SARA.name).locator('.conversation-row__job').textContent()).toBe(
      'Senior Robotics Engineer',
    );
    expect(await row(acmeList, YOUSSEF.name).locator('.conversation-row__job').textContent()).toBe(
      'QA Technician',
    );
    expect(await row(acmeList, SARA.name).getByText('Senior Robotics Engineer').isVisible()).toBe(
      true,
    );
    const sara = await suite.newUser('candidate-rows');
    await signInWithForm(sara.page, SARA);
    expect(
      await row(conversationList(sara.page), ACME.name)
        .getByText('Senior Robotics Engineer')
        .isVisible(),
    ).toBe(true);
    await suite.close(acme);
    await suite.close(sara);
  });

  it('links are anchors with rel="noopener noreferrer nofollow" only for http(s); a javascript: link stays text', async () => {
    const acmeSession = await signInOverHttp(suite.url, ACME.email);
    const conversation = await conversationWith(acmeSession, db.userId(YOUSSEF.email));
    const tag = uniqueTag();
    const text = `Details: https://example.com/jobs/qa?ref=${tag} and javascript:alert(1) ${tag}`;
    expect((await sendMessage(acmeSession, conversation, text)).ok).toBe(true);

    const youssef = await suite.newUser('candidate-links');
    await signInWithForm(youssef.page, YOUSSEF);
    await openConversation(youssef.page, ACME.name);
    const bubble = chatMessages(youssef.page, tag);
    await bubble.waitFor();
    const links = bubble.locator('a');
    expect(await links.count()).toBe(1);
    const link = bubble.getByRole('link', { name: `https://example.com/jobs/qa?ref=${tag}` });
    expect(await link.getAttribute('href')).toBe(`https://example.com/jobs/qa?ref=${tag}`);
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer nofollow');
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await bubble.locator('a[href^="javascript"]').count()).toBe(0);
    expect(await bubble.textContent()).toContain('javascript:alert(1)');
    await suite.close(youssef);
  });

  it('pasting over 5,000 characters shows the counter and "too many", and Send is disabled', async () => {
    const youssef = await suite.newUser('candidate-paste');
    await signInWithForm(youssef.page, YOUSSEF);
    await openConversation(youssef.page, ACME.name);
    const input = messageInput(youssef.page);
    await input.focus();
    await youssef.page.keyboard.insertText('x'.repeat(5_004));
    const counter = youssef.page.getByTestId('message-counter');
    await counter.waitFor({ state: 'visible' });
    expect(await counter.textContent()).toBe(
      '4 characters too many: a message holds at most 5000.',
    );
    expect((await input.inputValue()).length).toBe(5_004); // nothing cut
    expect(await youssef.page.getByRole('button', { name: 'Send', exact: true }).isDisabled()).toBe(
      true,
    );
    await input.press('Enter');
    expect(await youssef.page.getByTestId('pending-message').count()).toBe(0);
    await input.fill('');
    await suite.close(youssef);
  });

  it('a closed or inactive job past its deadline reads "inactive" and "closed; expired on", never "expires in"', async () => {
    const youssef = await suite.newUser('candidate-closed');
    await signInWithForm(youssef.page, YOUSSEF);
    await openConversation(youssef.page, ACME.name); // QA Technician: closed, 5 days ago
    const header = youssef.page.getByTestId('chat-pane').locator('header').first();
    await waitForValue(
      () => header.getByRole('heading', { name: 'QA Technician' }).count(),
      1,
      'the job title',
    );
    const headerText = (await header.textContent()) ?? '';
    expect(headerText).toContain('inactive');
    expect(headerText).toContain('closed; expired on');
    expect(headerText).not.toContain('job expires in');
    await suite.close(youssef);
  });

  it('the "Shift+Enter" hint does not show on a touch phone, and does on a desktop', async () => {
    const saraAcme = db.conversationId(SARA.email, ACME.email);
    const deepLink = `/messages?target=${db.userId(ACME.email)}&tab=${saraAcme}`;
    const hint = 'Enter to send, Shift+Enter for a new line';

    const phone = await suite.newUser('candidate-phone', { viewport: PHONE, touch: true });
    await signInWithForm(phone.page, SARA, deepLink);
    await chatMessages(phone.page).first().waitFor({ state: 'visible' });
    await waitForValue(() => messageInput(phone.page).isEnabled(), true, 'the composer');
    expect(await phone.page.getByText(hint, { exact: true }).isVisible()).toBe(false);
    await suite.close(phone);

    const desktop = await suite.newUser('candidate-desktop');
    await signInWithForm(desktop.page, SARA, deepLink);
    await waitForValue(() => messageInput(desktop.page).isEnabled(), true, 'the composer');
    expect(await desktop.page.getByText(hint, { exact: true }).isVisible()).toBe(true);
    await suite.close(desktop);
  });
});
