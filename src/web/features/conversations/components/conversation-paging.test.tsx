/**
 * Lists at scale: the page asks for 50 conversations at a time, searches on the
 * server while the list is not loaded whole (once typing settles), and shows the unread total.
 */
import { act, screen, waitFor } from '@testing-library/react';
import type { AuthUser } from '../../../../shared/models.js';
import {
  makeChat,
  makeConversation,
  jobs,
  users,
  type Scenario,
} from '../../../../../test-support/web/fixtures.js';
import {
  conversationList,
  renderMessagesPage,
  rowIds,
} from '../../../../../test-support/web/render-messages-page.js';

/** Sara with `count` conversations, company i named "Company i" (newest first by id). */
const manyConversations = (count: number): Scenario => ({
  auth: users.sara,
  jobs: [jobs.robotics],
  conversations: Array.from({ length: count }, (_, i) => {
    const company: AuthUser = {
      id: 1_000 + i,
      role: 'company',
      name: `Company ${i + 1}`,
      suspended: false,
    };
    return makeConversation({
      id: i + 1,
      candidate: users.sara,
      company,
      job: jobs.robotics,
      unread: i % 10 === 0 ? 1 : 0,
    });
  }),
  chats: new Map(),
});

describe('the conversation list, a page at a time', () => {
  it('asks for 50 at a time and shows the total unread count of every conversation', async () => {
    const page = await renderMessagesPage({ scenario: manyConversations(120) });
    const first = page.api.getInitialData.mock.calls[0]?.[0];
    expect(first).toEqual(expect.objectContaining({ limit: 50, cursor: null, archived: false }));
    // 12 unread over 120 conversations, though only the first page is loaded
    expect(screen.getByTestId('unread-total')).toHaveTextContent('12 unread messages');
    expect(page.api.getInitialData.mock.calls.every(([params]) => params.limit === 50)).toBe(true);
    expect(document.title).toBe('(12) Messages · Messages');
  });

  it('a live message moves the unread total; opening the conversation takes its unread off', async () => {
    const page = await renderMessagesPage({ scenario: manyConversations(120) });
    // conversation 100 is not on the first page
    const far = page.fake.state.conversations.find((item) => item.id === 100)!;
    const company: AuthUser = {
      id: far.company_id,
      role: 'company',
      name: 'Company 100',
      suspended: false,
    };
    act(() => page.realtime.emit(makeChat(far, company, 'From far away', { id: 9100 })));
    await waitFor(() =>
      expect(screen.getByTestId('unread-total')).toHaveTextContent('13 unread messages'),
    );
    expect(rowIds(conversationList())[0]).toBe(100);
    await page.user.click(screen.getByRole('button', { name: /^Company 100, 1 unread/ }));
    await waitFor(() =>
      expect(screen.getByTestId('unread-total')).toHaveTextContent('12 unread messages'),
    );
  });

  it('while the list is not loaded whole, a search is asked of the server once typing settles', async () => {
    const page = await renderMessagesPage({
      scenario: manyConversations(120),
      holdLaterPages: true,
    });
    const calls = page.api.getInitialData.mock.calls.length;
    await page.user.type(screen.getByPlaceholderText('search company'), 'Company 11');
    await waitFor(() =>
      expect(page.api.getInitialData).toHaveBeenCalledWith(
        expect.objectContaining({ search: 'Company 11', limit: 50, archived: false }),
      ),
    );
    // one request for the settled text, not one per key
    const searches = page.api.getInitialData.mock.calls
      .slice(calls)
      .filter(([params]) => params.search);
    expect(searches).toHaveLength(1);
    // the few loaded rows matching the text while it was typed did not page through the whole list
    const wholeListPages = page.api.getInitialData.mock.calls
      .slice(calls)
      .filter(([params]) => !params.search && params.cursor);
    expect(wholeListPages).toHaveLength(0);
    // Company 11 and Company 110–119: the last ten are beyond the first page
    await waitFor(() =>
      expect(rowIds(conversationList())).toEqual([
        11, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119,
      ]),
    );
  });

  it('a list loaded whole is searched on the page, without asking the server', async () => {
    const page = await renderMessagesPage({ scenario: manyConversations(20) });
    const calls = page.api.getInitialData.mock.calls.length;
    await page.user.type(screen.getByPlaceholderText('search company'), 'Company 1');
    await waitFor(() =>
      expect(rowIds(conversationList())).toEqual([1, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19]),
    );
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(page.api.getInitialData.mock.calls.length).toBe(calls);
  });

  it('the job title is searched too, as the server searches', async () => {
    const page = await renderMessagesPage({ scenario: manyConversations(3) });
    await page.user.type(screen.getByPlaceholderText('search company'), 'robotics eng');
    await waitFor(() => expect(rowIds(conversationList())).toEqual([1, 2, 3]));
  });

  it('a conversation opened from a link beyond the loaded pages: its header follows presence', async () => {
    // conversation 100 (Company 100) is not on the first page, and later pages never come
    const page = await renderMessagesPage({
      scenario: manyConversations(120),
      holdLaterPages: true,
      search: '?target=1099&tab=100',
    });
    const status = () => screen.getByTestId('presence-status');
    // asked of the server (its job is needed to load its messages), then opened
    await waitFor(() => expect(page.api.markSeen).toHaveBeenCalledWith(100));
    await waitFor(() => expect(page.api.getMessages).toHaveBeenCalled());
    await screen.findByTestId('presence-status');
    expect(status()).not.toHaveTextContent('online');
    act(() => page.realtime.emitPresence({ user_id: 1099, online: true, last_seen_at: null }));
    await waitFor(() => expect(status()).toHaveTextContent('online'));
    const fiveMinutesAgo = new Date(Date.now() - 5 * 60_000).toISOString();
    act(() =>
      page.realtime.emitPresence({ user_id: 1099, online: false, last_seen_at: fiveMinutesAgo }),
    );
    await waitFor(() => expect(status()).toHaveTextContent('last seen 5 minutes ago'));
  });
});
