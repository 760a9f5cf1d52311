import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { paths } from '../src/shared/paths.js';
import { ACME, DANIEL, HARBOR, MAYA, ORBIT, SARA } from '../test-support/accounts.js';
import { signInOverHttp } from '../test-support/http-session.js';
import { conversationWith, sendMessage } from '../test-support/messaging.js';
import { WAIT, waitForValue } from '../test-support/wait.js';
import { useE2eDatabase } from './support/e2e-database.js';
import {
  chatIds,
  chatMessages,
  conversationList,
  expectMessageOnce,
  messageInput,
  openConversation,
  row,
  sendFromUi,
  uniqueTag,
  waitForLive,
  waitForMessagesPage,
} from './support/messages-page.js';
import { signInWithForm } from './support/sign-in.js';
import { useE2eSuite } from './support/suite.js';

/** How many of a bubble's sender names and times take room on screen (visually hidden ones do not). */
const shownHeaderParts = (bubble: Locator): Promise<number> =>
  bubble.evaluate(
    (element) =>
      [...element.querySelectorAll('.message__sender, time')].filter((part) => {
        const box = part.getBoundingClientRect();
        return box.width > 2 && box.height > 2;
      }).length,
  );

/** Where a text element's own text ends on screen, against the element's box (RTL: its right edge). */
const textEdges = (line: Locator) =>
  line.evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    const text = range.getBoundingClientRect();
    const box = element.getBoundingClientRect();
    return {
      dir: element.getAttribute('dir'),
      textRight: text.right,
      boxRight: box.right,
      textLeft: text.left,
      boxLeft: box.left,
    };
  });

describe('page defects: runs, pending sends, mixed-script rows, the job filter and Filter', () => {
  const suite = useE2eSuite({ failOnConsoleErrors: true });
  const db = useE2eDatabase(suite);

  it('a run of messages from one sender shows the name and time once (theirs and own)', async () => {
    const acme = await suite.newUser('company');
    await signInWithForm(acme.page, ACME);
    await openConversation(acme.page, MAYA.name);
    await waitForLive(acme);

    const maya = await signInOverHttp(suite.url, MAYA.email);
    const conversation = await conversationWith(maya, db.userId(ACME.email));
    const tag = uniqueTag();
    const theirs = [`one ${tag}`, `two ${tag}`, `three ${tag}`];
    for (const text of theirs) {
      const outcome = await sendMessage(maya, conversation, text);
      expect(outcome.ok, text).toBe(true);
    }
    for (const text of theirs) await expectMessageOnce(acme.page, text);
    const bubbles = chatMessages(acme.page, tag);
    expect(await bubbles.count()).toBe(3);
    // the first bubble: name and time; the next two of the run: neither
    expect(await shownHeaderParts(bubbles.nth(0))).toBe(2);
    expect(await bubbles.nth(0).getByText(MAYA.name, { exact: true }).isVisible()).toBe(true);
    expect(await shownHeaderParts(bubbles.nth(1))).toBe(0);
    expect(await shownHeaderParts(bubbles.nth(2))).toBe(0);
    // the time is still there, as a tooltip
    expect(await bubbles.nth(2).locator('.message__bubble').getAttribute('title')).toBeTruthy();

    // the viewer's own run: the time once
    const own = [`mine a ${tag}`, `mine b ${tag}`];
    for (const text of own) await sendFromUi(acme.page, text);
    expect(await shownHeaderParts(chatMessages(acme.page, own[0]))).toBe(1);
    expect(await shownHeaderParts(chatMessages(acme.page, own[1]))).toBe(0);
    await suite.close(acme);
  });

  it('Enter shows the message at once as "Sending…"; a second Enter during the send queues it; both land once, in order', async () => {
    const daniel = await suite.newUser('candidate');
    await signInWithForm(daniel.page, DANIEL);
    await openConversation(daniel.page, ORBIT.name);
    const page = daniel.page;
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const sendRoute = `**${paths.sendMessage}**`;
    await page.route(sendRoute, async (route) => {
      await held; // the server answers slowly
      await route.continue();
    });

    const tag = uniqueTag();
    const first = `first ${tag}`;
    const second = `second ${tag}`;
    const input = messageInput(page);
    await input.fill(first);
    await input.press('Enter');
    const pending = page.getByTestId('pending-message');
    await waitForValue(() => pending.count(), 1, 'one pending bubble');
    expect(await pending.first().textContent()).toContain(first);
    expect(await pending.first().textContent()).toContain('Sending…');
    expect(await input.inputValue()).toBe('');

    await input.fill(second);
    await input.press('Enter');
    await waitForValue(() => pending.count(), 2, 'two pending bubbles');
    expect(await pending.allTextContents()).toEqual([
      expect.stringContaining(first),
      expect.stringContaining(second),
    ]);
    expect(await input.inputValue()).toBe('');

    release();
    await expectMessageOnce(page, first);
    await expectMessageOnce(page, second);
    await waitForValue(() => pending.count(), 0, 'no pending bubble left');
    await page.unroute(sendRoute);
    const ids = await chatIds(page);
    const idOf = async (text: string) =>
      (await chatMessages(page, text).getAttribute('data-chat-id')) ?? '';
    expect(ids.indexOf(await idOf(first))).toBeLessThan(ids.indexOf(await idOf(second)));

    // stored once each, in order
    await page.reload();
    await waitForMessagesPage(page);
    await expectMessageOnce(page, first);
    await expectMessageOnce(page, second);
    expect(await chatMessages(page, tag).allTextContents()).toEqual([
      expect.stringContaining(first),
      expect.stringContaining(second),
    ]);
    await suite.close(daniel);
  });

  it('in Arabic, every line of a mixed-script row aligns to the row’s start (right), English names too', async () => {
    const sara = await suite.newUser('candidate-ar');
    await signInWithForm(sara.page, SARA, '/messages?lang=ar');
    await waitForValue(
      () => sara.page.evaluate(() => document.documentElement.dir),
      'rtl',
      'the page direction',
    );
    // Blue Harbor Logistics (English) about no job ("بدون عنوان", Arabic), English preview;
    // Nile Software: a short English name with plenty of room beside it
    const harbor = row(conversationList(sara.page), HARBOR.name);
    await harbor.waitFor();
    expect(await harbor.locator('.conversation-row__job').textContent()).toBe('بدون عنوان');
    const nile = row(conversationList(sara.page), 'Nile Software');
    for (const [label, line] of [
      ['harbor name', harbor.locator('.conversation-row__name')],
      ['harbor job', harbor.locator('.conversation-row__job')],
      ['harbor preview', harbor.locator('.conversation-row__preview')],
      ['nile name', nile.locator('.conversation-row__name')],
      ['nile job', nile.locator('.conversation-row__job')],
    ] as const) {
      const edges = await textEdges(line);
      expect(edges.dir, label).toBe('auto');
      // the text reaches the right (start) edge of its line; a line too long for it fills it
      expect(edges.textRight, label).toBeGreaterThanOrEqual(edges.boxRight - 1);
    }
    // a short English name sits on the right, not at the far left of its line
    const name = await textEdges(nile.locator('.conversation-row__name'));
    expect(name.textLeft).toBeGreaterThan(name.boxLeft + 20);
    await suite.close(sara);
  });

  it('a long job title in the job filter ends in an ellipsis and carries the full title as its tooltip', async () => {
    const longTitle =
      'Principal Autonomous Systems Engineer, Motion Planning and Perception (Robotics Platform Team)';
    db.addJob({
      companyEmail: ACME.email,
      title: longTitle,
      status: 'active',
      deadline: '2030-01-31',
    });
    const acme = await suite.newUser('company-filter');
    await signInWithForm(acme.page, ACME);
    const filter = acme.page.locator('select[data-testid="job-filter"]');
    await filter.selectOption({ label: longTitle });
    const style = await filter.evaluate((element) => {
      const computed = getComputedStyle(element);
      return {
        textOverflow: computed.textOverflow,
        whiteSpace: computed.whiteSpace,
        width: element.getBoundingClientRect().width,
      };
    });
    expect(style.textOverflow).toBe('ellipsis');
    expect(style.whiteSpace).toBe('nowrap');
    // the title is wider than the select: without the ellipsis it would be cut mid-word
    const titleWidth = await filter.evaluate((element, text) => {
      const context = document.createElement('canvas').getContext('2d');
      if (!context) return 0;
      context.font = getComputedStyle(element).font;
      return context.measureText(text).width;
    }, longTitle);
    expect(titleWidth).toBeGreaterThan(style.width);
    expect(await filter.getAttribute('title')).toBe(longTitle);
    expect(
      await filter.locator('option', { hasText: 'Principal Autonomous' }).getAttribute('title'),
    ).toBe(longTitle);
    await suite.close(acme);
  });

  it('Filter (or Enter in the search box) applies the search and the job together and says what it found', async () => {
    const acme = await suite.newUser('company-search');
    await signInWithForm(acme.page, ACME);
    const page: Page = acme.page;
    const list = conversationList(page);
    const search = page.getByPlaceholder('search candidates', { exact: true });
    const filterButton = page.getByRole('button', { name: 'Filter', exact: true });
    const result = page.getByTestId('filter-result');

    await page
      .locator('select[data-testid="job-filter"]')
      .selectOption({ label: 'Senior Robotics Engineer' });
    await waitForValue(() => list.getByTestId('conversation-row').count(), 2, 'robotics rows');
    await search.fill('omar');
    await filterButton.click();
    await result.waitFor({ state: 'visible' });
    expect(await result.textContent()).toBe('1 conversation found');
    expect(await row(list, 'Omar Khalil').count()).toBe(1);

    // a new conversation on the server (no live event): Filter brings it, with the search applied
    await page.locator('select[data-testid="job-filter"]').selectOption({ label: 'all jobs' });
    await search.fill('');
    await waitForValue(() => list.getByTestId('conversation-row').count(), 4, 'all rows');
    const fresh = db.addConversation(DANIEL.email, ACME.email);
    db.addMessage({
      conversationId: fresh,
      fromEmail: DANIEL.email,
      text: 'Hello Acme, Daniel here',
      createdAt: new Date().toISOString(),
    });
    await search.fill('daniel');
    expect(await result.count()).toBe(0); // the old count went with the change
    await waitForValue(() => list.getByTestId('conversation-row').count(), 0, 'no row yet');
    await search.press('Enter');
    await result.waitFor({ state: 'visible' });
    await waitForValue(() => result.textContent(), '1 conversation found', 'the result', WAIT);
    expect(await row(list, DANIEL.name).count()).toBe(1);
    await suite.close(acme);
  });
});
