import { configure, screen, waitFor, within } from '@testing-library/react';
import type { Chat } from '../../../../shared/models.js';
import { ApiError } from '../../../lib/api-client.js';
import {
  candidateScenario,
  companyScenario,
  makeChat,
  users,
  type Scenario,
} from '../../../../../test-support/web/fixtures.js';
import {
  conversationList,
  renderMessagesPage,
  rowIds,
} from '../../../../../test-support/web/render-messages-page.js';

// whole-page tests that page through long histories: room for a busy machine
configure({ asyncUtilTimeout: 4000 });

const searchBox = () => screen.getByRole('searchbox');
const switchTo = (name: 'Conversations' | 'Messages') =>
  within(screen.getByRole('radiogroup', { name: 'Search in' })).getByRole('radio', { name });
const results = () => screen.queryAllByTestId('message-search-result');
const status = () => screen.getByTestId('message-search-status');

/** Candidate Sara's scenario, her conversation with Acme holding `count` more messages, oldest first. */
const longHistory = (count: number, textOf: (index: number) => string): Scenario => {
  const scenario = candidateScenario();
  const acme = scenario.conversations[0]!;
  const start = Date.now() - (count + 10) * 60_000;
  const history: Chat[] = Array.from({ length: count }, (_, index) =>
    makeChat(acme, index % 2 === 0 ? users.acme : users.sara, textOf(index), {
      id: 10_000 + index,
      createdAt: new Date(start + index * 60_000).toISOString(),
    }),
  );
  scenario.chats.set(acme.id, history);
  return scenario;
};

describe('searching messages', { timeout: 20_000 }, () => {
  it('the search box switches between conversations and messages; a query shows the messages found, its words highlighted', async () => {
    const page = await renderMessagesPage();
    expect(switchTo('Conversations')).toHaveAttribute('aria-checked', 'true');
    expect(switchTo('Messages')).toHaveAttribute('aria-checked', 'false');
    expect(searchBox()).toHaveAccessibleName('search company');

    await page.user.click(switchTo('Messages'));
    expect(switchTo('Messages')).toHaveAttribute('aria-checked', 'true');
    expect(switchTo('Conversations')).toHaveAttribute('aria-checked', 'false');
    expect(searchBox()).toHaveAccessibleName('Search messages');
    // one character asks nothing: the list stays
    await page.user.type(searchBox(), 'i');
    expect(page.api.searchMessages).not.toHaveBeenCalled();
    expect(rowIds(conversationList())).toEqual([1, 2, 3]);

    await page.user.type(searchBox(), 'nterv');
    await waitFor(() => expect(results()).toHaveLength(1));
    expect(page.api.searchMessages).toHaveBeenLastCalledWith(
      expect.objectContaining({ q: 'interv' }),
    );
    // the results are in the list's place
    expect(screen.queryByTestId('conversation-list')).not.toBeInTheDocument();
    const [result] = results();
    expect(result).toHaveAttribute('data-message-id', '103');
    expect(within(result!).getByText('Acme Robotics')).toBeInTheDocument();
    expect(within(result!).getByText('Robotics Engineer')).toBeInTheDocument();
    const time = result!.querySelector('time');
    expect(time).toHaveAttribute('dateTime', expect.stringMatching(/^\d{4}-/));
    expect(time?.textContent).toBe(
      new Intl.DateTimeFormat('en', { dateStyle: 'medium' }).format(
        new Date(time!.getAttribute('dateTime')!),
      ),
    );
    const snippet = within(result!).getByTestId('search-result-snippet');
    expect(snippet).toHaveTextContent('Can you do an interview on Monday?');
    expect([...snippet.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual([
      'interview',
    ]);
    expect(status()).toHaveTextContent('1 message found');
    expect(status()).toHaveAttribute('role', 'status');
    // Down in the box goes to the first result
    expect(searchBox()).toHaveFocus();
    await page.user.keyboard('{ArrowDown}');
    expect(result).toHaveFocus();

    // back to conversations: the text typed stays in the box and narrows the list again
    await page.user.click(switchTo('Conversations'));
    expect(searchBox()).toHaveValue('interv');
    expect(searchBox()).toHaveAccessibleName('search company');
    await waitFor(() => expect(rowIds(conversationList())).toEqual([]));
  });

  it('words match by prefix whatever the case and accents; several words must all be there', async () => {
    const scenario = candidateScenario();
    const nile = scenario.conversations[1]!;
    scenario.chats
      .get(nile.id)!
      .push(makeChat(nile, users.nile, 'Le café est prêt pour l’entretien', { id: 202 }));
    const page = await renderMessagesPage({ scenario });
    await page.user.click(switchTo('Messages'));
    await page.user.type(searchBox(), 'CAFE entre');
    await waitFor(() => expect(results()).toHaveLength(1));
    const marks = [...results()[0]!.querySelectorAll('mark')].map((mark) => mark.textContent);
    expect(marks).toEqual(['café', 'entretien']);
  });

  it('"No messages match" when nothing matches; Escape empties the box and the list comes back, a second Escape goes back to conversations', async () => {
    const page = await renderMessagesPage();
    await page.user.click(switchTo('Messages'));
    await page.user.type(searchBox(), 'zebra');
    await waitFor(() => expect(status()).toHaveTextContent('No messages match'));
    expect(results()).toHaveLength(0);
    expect(screen.queryByTestId('conversation-list')).not.toBeInTheDocument();

    await page.user.keyboard('{Escape}');
    expect(searchBox()).toHaveValue('');
    expect(rowIds(conversationList())).toEqual([1, 2, 3]);
    expect(switchTo('Messages')).toHaveAttribute('aria-checked', 'true');
    await page.user.keyboard('{Escape}');
    expect(switchTo('Conversations')).toHaveAttribute('aria-checked', 'true');
    expect(searchBox()).toHaveAccessibleName('search company');
  });

  it('a failed search says so and offers to try again', async () => {
    const page = await renderMessagesPage();
    const answer = page.api.searchMessages.getMockImplementation()!;
    page.api.searchMessages.mockImplementation(async () => {
      throw new ApiError(503, 'Service unavailable');
    });
    await page.user.click(switchTo('Messages'));
    await page.user.type(searchBox(), 'hello');
    const alert = await screen.findByTestId('message-search-error');
    expect(alert).toHaveAttribute('role', 'alert');
    expect(alert).toHaveTextContent('Messages could not be searched.');
    page.api.searchMessages.mockImplementation(answer);
    await page.user.click(within(alert).getByRole('button', { name: 'Try again' }));
    // an archived conversation's message is found too
    await waitFor(() => expect(status()).toHaveTextContent('1 message found'));
    expect(results()[0]).toHaveAttribute('data-message-id', '401');
  });

  it('while the server answers, a spinner says the messages are being searched', async () => {
    const page = await renderMessagesPage();
    page.api.searchMessages.mockImplementation(() => new Promise(() => undefined));
    await page.user.click(switchTo('Messages'));
    await page.user.type(searchBox(), 'hello');
    await waitFor(() => expect(page.api.searchMessages).toHaveBeenCalled());
    expect(screen.getByText('Searching messages…')).toBeInTheDocument();
    expect(status()).toHaveTextContent('');
  });

  it('20 results a page: "Show more results" brings the next page and the focus goes to its first result; arrows move between results', async () => {
    const page = await renderMessagesPage({
      scenario: longHistory(30, (index) => `Status report number ${index}`),
    });
    await page.user.click(switchTo('Messages'));
    await page.user.type(searchBox(), 'report');
    await waitFor(() => expect(results()).toHaveLength(20));
    expect(status()).toHaveTextContent('20+ messages found');
    // newest first
    expect(results()[0]).toHaveAttribute('data-message-id', String(10_000 + 29));

    await page.user.click(screen.getByRole('button', { name: 'Show more results' }));
    await waitFor(() => expect(results()).toHaveLength(30));
    expect(status()).toHaveTextContent('30 messages found');
    expect(screen.queryByRole('button', { name: 'Show more results' })).not.toBeInTheDocument();
    expect(page.api.searchMessages).toHaveBeenLastCalledWith(
      expect.objectContaining({ q: 'report', cursor: '20' }),
    );
    expect(results()[20]).toHaveFocus();

    await page.user.keyboard('{ArrowDown}');
    expect(results()[21]).toHaveFocus();
    await page.user.keyboard('{ArrowUp}{ArrowUp}');
    expect(results()[19]).toHaveFocus();
    await page.user.keyboard('{Home}');
    expect(results()[0]).toHaveFocus();
    await page.user.keyboard('{End}');
    expect(results()[29]).toHaveFocus();
  });

  it('opening a result loads older pages until the message is there, then shows it highlighted and focused', async () => {
    // 260 messages: the latest page holds 50, the one searched for is the 6th
    const page = await renderMessagesPage({
      scenario: longHistory(260, (index) =>
        index === 5 ? 'The pineapple contract is signed' : `Message ${index}`,
      ),
    });
    await page.user.click(switchTo('Messages'));
    await page.user.type(searchBox(), 'pineapple');
    await waitFor(() => expect(results()).toHaveLength(1));
    const wanted = 10_005;
    await page.user.click(results()[0]!);

    const bubble = await waitFor(() => {
      const found = screen
        .getAllByTestId('chat-message')
        .find((item) => item.getAttribute('data-chat-id') === String(wanted));
      expect(found).toBeDefined();
      return found!;
    });
    await waitFor(() => expect(bubble).toHaveAttribute('data-highlighted', 'true'));
    expect(bubble).toHaveAttribute('aria-current', 'true');
    expect(bubble).toHaveClass('message--highlighted');
    await waitFor(() => expect(bubble).toHaveFocus());
    // the latest page, then older pages of 100 until the message was among them
    const calls = page.api.getMessages.mock.calls.map(([body]) => body);
    expect(calls[0]).not.toHaveProperty('before');
    const older = calls.slice(1);
    expect(older.length).toBeGreaterThanOrEqual(2);
    expect(older.every((body) => body.limit === 100)).toBe(true);
    expect(older[0]!.before).toBe(10_000 + 210);
    // the result of the open message is marked current; one highlighted message only
    expect(results()[0]).toHaveAttribute('aria-current', 'true');
    expect(document.querySelectorAll('[data-highlighted]')).toHaveLength(1);
    // the focus is on the message, not in the message box
    expect(screen.getByRole('textbox', { name: /message/i })).not.toHaveFocus();
  });

  it('the highlight goes after a few seconds; the message stays loaded', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const page = await renderMessagesPage();
      await page.user.click(switchTo('Messages'));
      await page.user.type(searchBox(), 'applying');
      await waitFor(() => expect(results()).toHaveLength(1));
      await page.user.click(results()[0]!);
      await waitFor(() =>
        expect(document.querySelector('[data-chat-id="101"]')).toHaveAttribute(
          'data-highlighted',
          'true',
        ),
      );
      await vi.advanceTimersByTimeAsync(4500);
      await waitFor(() =>
        expect(document.querySelector('[data-chat-id="101"]')).not.toHaveAttribute(
          'data-highlighted',
        ),
      );
    } finally {
      vi.useRealTimers();
    }
  });

  it('a company sees the candidate on each result, its own messages marked as its own', async () => {
    const page = await renderMessagesPage({ scenario: companyScenario() });
    await page.user.click(switchTo('Messages'));
    expect(searchBox()).toHaveAccessibleName('Search messages');
    page.fake.state.chats
      .get(5)!
      .push(makeChat(page.fake.state.conversations[1]!, users.acme, 'Hello Omar, welcome'));
    await page.user.type(searchBox(), 'hello');
    await waitFor(() => expect(results()).toHaveLength(2));
    const [ownReply, fromSara] = results();
    expect(within(ownReply!).getByText('Omar Khalil')).toBeInTheDocument();
    expect(ownReply).toHaveTextContent('You:');
    expect(within(fromSara!).getByText('Sara Haddad')).toBeInTheDocument();
    expect(fromSara).not.toHaveTextContent('You:');
  });

  it('in Arabic the switch and the box speak Arabic', async () => {
    const page = await renderMessagesPage({ language: 'ar' });
    const group = screen.getByRole('radiogroup', { name: 'البحث في' });
    await page.user.click(within(group).getByRole('radio', { name: 'الرسائل' }));
    expect(searchBox()).toHaveAccessibleName('ابحث في الرسائل');
    await page.user.type(searchBox(), 'zebra');
    await waitFor(() => expect(status()).toHaveTextContent('لا توجد رسائل مطابقة'));
  });

  it('on phones a result opens the chat like a row does', async () => {
    const page = await renderMessagesPage({ smallScreen: true });
    await page.user.click(switchTo('Messages'));
    await page.user.type(searchBox(), 'closed');
    await waitFor(() => expect(results()).toHaveLength(1));
    await page.user.click(results()[0]!);
    await waitFor(() =>
      expect(document.querySelector('[data-chat-id="201"]')).toHaveAttribute(
        'data-highlighted',
        'true',
      ),
    );
    expect(screen.getByTestId('chat-pane')).toBeInTheDocument();
    expect(new URL(location.href).searchParams.get('tab')).toBe('2');
  });
});
