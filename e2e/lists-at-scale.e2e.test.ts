import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../src/shared/paths.js';
import { signInOverHttp, type HttpSession } from '../test-support/http-session.js';
import { conversationOf, initialData, sendMessage } from '../test-support/messaging.js';
import { seedScaleDatabase } from '../test-support/seed-bulk.js';
import { UNLIMITED_SENDING } from '../test-support/server-process.js';
import { WAIT } from '../test-support/wait.js';
import type { UserPage } from './support/browser.js';
import {
  conversationList,
  expectMessageOnce,
  openConversation,
  row,
  sendFromUi,
  uniqueTag,
  unreadBadge,
  waitForLive,
} from './support/messages-page.js';
import { signInWithForm } from './support/sign-in.js';
import { useE2eSuite } from './support/suite.js';

const CONVERSATIONS = 10_000;
const PAGE_SIZE = 50;
/** Every tenth conversation has its last two messages unread by the company (see seedScale in test-support/seed-bulk.ts). */
const UNREAD_TOTAL = (CONVERSATIONS / 10) * 2;

interface ListRequest {
  query: URLSearchParams;
  status: number;
  rows: number;
}

/** Every initial-data call the page makes, with the number of conversations each answer carried. */
const watchListRequests = (page: Page) => {
  const seen: ListRequest[] = [];
  const pending: Promise<unknown>[] = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname !== paths.initialData) return;
    pending.push(
      response
        .json()
        .then((body: { messengerUsers?: unknown[] }) =>
          seen.push({
            query: url.searchParams,
            status: response.status(),
            rows: body.messengerUsers?.length ?? -1,
          }),
        )
        .catch(() => seen.push({ query: url.searchParams, status: response.status(), rows: -1 })),
    );
  });
  return {
    all: async (): Promise<ListRequest[]> => {
      await Promise.all(pending);
      return [...seen];
    },
  };
};

/** Scrolls the conversation list's scroll container to its end (the virtualizer asks for the next page). */
const scrollListToEnd = (page: Page): Promise<void> =>
  conversationList(page).evaluate((list) => {
    const scrollable = (element: Element | null): element is HTMLElement =>
      element instanceof HTMLElement &&
      element.scrollHeight > element.clientHeight + 1 &&
      /(auto|scroll)/.test(getComputedStyle(element).overflowY);
    let scroller: HTMLElement | null = scrollable(list) ? list : null;
    for (let element = list.parentElement; !scroller && element; element = element.parentElement)
      if (scrollable(element)) scroller = element;
    if (!scroller) throw new Error('no scroll container around the conversation list');
    scroller.scrollTop = scroller.scrollHeight;
  });

/**
 * Issue 14: a recruiter with 10,000 conversations. The page asks for the list 50 at a time, pages
 * on as it scrolls, and keeps the list current from live events: no answer ever carries the whole
 * list, and messages flowing in and out never make the page load the list again.
 */
describe('a recruiter with 10,000 conversations', () => {
  const suite = useE2eSuite({
    failOnConsoleErrors: true,
    // outside demo mode the sign-in page's question for demo accounts is answered 404 (contract)
    allowConsole: [/\/api\/demo-accounts/],
    env: { DEMO_SEED: 'off', ...UNLIMITED_SENDING },
    prepareDatabase: async (database) => {
      await seedScaleDatabase(database, {
        conversations: CONVERSATIONS,
        messagesPerConversation: 2,
        jobs: 20,
      });
    },
  });
  let recruiter: UserPage;
  let requests: ReturnType<typeof watchListRequests>;

  beforeAll(async () => {
    recruiter = await suite.newUser('company');
    requests = watchListRequests(recruiter.page);
    await signInWithForm(recruiter.page, { email: 'company@scale.test' });
  });

  it('asks for the list 50 at a time, shows the unread total of all 10,000, and pages on while scrolling', async () => {
    const { page } = recruiter;
    await expect
      .poll(() => page.getByTestId('unread-total').textContent(), WAIT)
      .toBe(`${UNREAD_TOTAL.toLocaleString('en-US')} unread messages`);
    await row(page, `Candidate ${CONVERSATIONS - 1}`).waitFor();

    const answered = async () =>
      (await requests.all()).filter(
        (request) => request.query.get('cursor') && request.status === 200,
      ).length;
    for (let scrolls = 1; scrolls <= 3; scrolls += 1) {
      const before = await answered();
      // as a user does, scroll again until the next page is asked for (a scroll made while the
      // previous page was still being laid out lands above the new end and asks for nothing), and
      // not once more after it: each scroll to the end asks for one page
      await expect
        .poll(async () => {
          if ((await answered()) > before) return answered();
          await scrollListToEnd(page);
          return answered();
        }, WAIT)
        .toBeGreaterThan(before);
    }
    // rows past the third page are shown (conversations 9,849 and older), newest first
    const oldestShown = () =>
      page
        .getByTestId('conversation-row')
        .evaluateAll((rows) =>
          Math.min(
            ...rows.map((row) => Number(/Candidate (\d+)/.exec(row.textContent ?? '')?.[1] ?? 1e9)),
          ),
        );
    // (the user scrolls on to see them: the fourth page's rows were added below the window)
    await expect
      .poll(async () => {
        await scrollListToEnd(page);
        return oldestShown();
      }, WAIT)
      .toBeLessThanOrEqual(CONVERSATIONS - 1 - 3 * PAGE_SIZE);

    const all = await requests.all();
    expect(all.length).toBeGreaterThanOrEqual(4);
    for (const request of all) {
      expect(request.status).toBe(200);
      expect(request.query.get('limit')).toBe(String(PAGE_SIZE));
      expect(request.rows).toBeGreaterThanOrEqual(0);
      expect(request.rows).toBeLessThanOrEqual(PAGE_SIZE);
    }
  });

  it('messages flowing in and out, in the open conversation and beyond the loaded pages, never load the list again', async () => {
    const { page } = recruiter;
    const newest = `Candidate ${CONVERSATIONS - 1}`;
    await openConversation(page, newest);
    await waitForLive(recruiter);
    const listCallsBefore = (await requests.all()).length;

    const signInCandidate = (index: number): Promise<HttpSession> =>
      signInOverHttp(suite.url, `c${index}@scale.test`);
    const candidate = await signInCandidate(CONVERSATIONS - 1);
    const conversation = conversationOf(
      candidate.userId,
      (await initialData(candidate)).messengerUsers[0]!,
    );
    const tag = uniqueTag();
    for (let i = 0; i < 5; i += 1) {
      const text = `Message ${i} from the candidate ${tag}`;
      const sent = await sendMessage(candidate, conversation, text);
      expect(sent.ok).toBe(true);
      await expectMessageOnce(page, text);
      await sendFromUi(page, `Reply ${i} from the recruiter ${tag}`);
    }

    // a candidate whose conversation is far beyond the loaded pages writes: the row comes to the top
    const far = await signInCandidate(7);
    const farConversation = conversationOf(far.userId, (await initialData(far)).messengerUsers[0]!);
    expect((await sendMessage(far, farConversation, `Are you still hiring? ${tag}`)).ok).toBe(true);
    await expect.poll(() => unreadBadge(page, 'Candidate 7').textContent(), WAIT).toBe('1');
    await expect
      .poll(() => page.getByTestId('unread-total').textContent(), WAIT)
      .toBe(`${(UNREAD_TOTAL + 1).toLocaleString('en-US')} unread messages`);

    // the page applied every event to what it held: not one list call since the conversation opened
    expect((await requests.all()).length).toBe(listCallsBefore);
  });
});
