import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ApiError } from '../../../lib/api-client.js';
import { candidateScenario, makeChat, users } from '../../../../../test-support/web/fixtures.js';
import {
  conversationList,
  messageTexts,
  renderMessagesPage,
  rowFor,
} from '../../../../../test-support/web/render-messages-page.js';

const openAcme = async () => {
  const page = await renderMessagesPage();
  await page.user.click(rowFor('Acme Robotics'));
  await screen.findByText('Can you do an interview on Monday?');
  return page;
};

/** A slow server: each send waits until `release()` lets the oldest waiting one through. */
const holdSends = (page: Awaited<ReturnType<typeof renderMessagesPage>>) => {
  const waiting: (() => void)[] = [];
  const original = page.api.sendMessage.getMockImplementation()!;
  page.api.sendMessage.mockImplementation(async (body) => {
    await new Promise<void>((resolve) => waiting.push(resolve));
    return original(body);
  });
  return () => waiting.shift()?.();
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('chat pane: sending', () => {
  it('Send is disabled for an empty or whitespace-only message', async () => {
    const page = await openAcme();
    const send = screen.getByRole('button', { name: 'Send' });
    expect(send).toBeDisabled();
    await page.user.type(screen.getByPlaceholderText('Write Message...'), '   ');
    expect(send).toBeDisabled();
    await page.user.keyboard('{Enter}');
    expect(page.api.sendMessage).not.toHaveBeenCalled();
  });

  it('Send is disabled for a message of only invisible characters, as the server judges it', async () => {
    const page = await openAcme();
    const send = screen.getByRole('button', { name: 'Send' });
    const input = screen.getByPlaceholderText('Write Message...');
    // zero-width space, right-to-left mark, word joiner, soft hyphen, byte order mark
    fireEvent.change(input, { target: { value: ' \u200b\u200f\u2060\u00ad\ufeff ' } });
    expect(send).toBeDisabled();
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(page.api.sendMessage).not.toHaveBeenCalled();
    // Visible text with bidi marks around it is sent as it is.
    fireEvent.change(input, { target: { value: '\u200fمرحبا\u200f' } });
    expect(send).toBeEnabled();
    fireEvent.click(send);
    await waitFor(() => expect(page.api.sendMessage).toHaveBeenCalledTimes(1));
    expect(page.api.sendMessage.mock.calls[0]![0].message).toBe('\u200fمرحبا\u200f');
  });

  it('sends: appended to today, input cleared, conversation record refreshed from the answer, list not reloaded', async () => {
    const page = await openAcme();
    const listLoads = page.api.getInitialData.mock.calls.length;
    const input = screen.getByPlaceholderText('Write Message...');
    await page.user.type(input, 'See you on Monday');
    await page.user.click(screen.getByRole('button', { name: 'Send' }));

    await waitFor(() => expect(messageTexts()).toContain('See you on Monday'));
    expect(page.api.sendMessage).toHaveBeenCalledWith({
      receiver_id: 10,
      messenger_user: 1,
      job_id: 100,
      message: 'See you on Monday',
      client_id: expect.stringMatching(UUID),
    });
    expect(input).toHaveValue('');
    // appended to the last (today's) date group, own message on the end side
    const groups = screen.getAllByTestId('date-separator');
    expect(groups).toHaveLength(2);
    const lastGroup = groups[1]!.closest('section')!;
    const sent = within(lastGroup).getAllByTestId('chat-message').at(-1)!;
    expect(sent).toHaveTextContent('See you on Monday');
    expect(sent).toHaveClass('message--own');
    expect(sent.querySelector('.message__text')).toHaveAttribute('dir', 'auto');
    // the row shows the new preview, from the send's answer: no list request
    await waitFor(() =>
      expect(
        within(rowFor('Acme Robotics', conversationList())).getByText('See you on Monday'),
      ).toBeInTheDocument(),
    );
    expect(page.api.getInitialData.mock.calls.length).toBe(listLoads);
  });

  it('says so near and past the length limit instead of cutting a paste silently', async () => {
    const page = await openAcme();
    const input = screen.getByPlaceholderText('Write Message...');
    const send = screen.getByRole('button', { name: 'Send' });
    fireEvent.change(input, { target: { value: 'a'.repeat(4_400) } });
    expect(screen.queryByTestId('message-counter')).not.toBeInTheDocument();
    fireEvent.change(input, { target: { value: 'a'.repeat(4_600) } });
    expect(screen.getByTestId('message-counter')).toHaveTextContent('4600 / 5000 characters');
    expect(send).toBeEnabled();
    fireEvent.change(input, { target: { value: 'b'.repeat(5_003) } });
    expect(input).toHaveValue('b'.repeat(5_003)); // nothing cut
    expect(screen.getByRole('alert')).toHaveTextContent(
      '3 characters too many: a message holds at most 5000.',
    );
    expect(send).toBeDisabled();
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(page.api.sendMessage).not.toHaveBeenCalled();
  });

  it('Enter sends; Shift+Enter adds a new line', async () => {
    const page = await openAcme();
    const input = screen.getByPlaceholderText('Write Message...');
    await page.user.type(input, 'line one{Shift>}{Enter}{/Shift}line two');
    expect(input).toHaveValue('line one\nline two');
    expect(page.api.sendMessage).not.toHaveBeenCalled();
    await page.user.keyboard('{Enter}');
    await waitFor(() => expect(page.api.sendMessage).toHaveBeenCalledTimes(1));
    expect(page.api.sendMessage.mock.calls[0]![0].message).toBe('line one\nline two');
  });

  it('shows a message at once as a pending "Sending…" bubble, replaced by the stored one when confirmed', async () => {
    const page = await openAcme();
    const release = holdSends(page);
    const input = screen.getByPlaceholderText('Write Message...');
    await page.user.type(input, 'Hello{Enter}');
    const pending = await screen.findByTestId('pending-message');
    expect(pending).toHaveTextContent('Hello');
    expect(pending).toHaveTextContent('Sending…');
    expect(pending).toHaveClass('message--own', 'message--pending');
    expect(input).toHaveValue('');
    expect(messageTexts()).not.toContain('Hello');
    release();
    await waitFor(() => expect(messageTexts()).toContain('Hello'));
    expect(screen.queryByTestId('pending-message')).not.toBeInTheDocument();
    expect(messageTexts().filter((text) => text === 'Hello')).toHaveLength(1);
  });

  it('Enter during an in-flight send queues the next message: both show at once and go out in order', async () => {
    const page = await openAcme();
    const release = holdSends(page);
    const input = screen.getByPlaceholderText('Write Message...');
    await page.user.type(input, 'first{Enter}');
    await page.user.type(input, 'second{Enter}');
    await waitFor(() => expect(screen.getAllByTestId('pending-message')).toHaveLength(2));
    expect(screen.getAllByTestId('pending-message').map((item) => item.textContent)).toEqual([
      expect.stringContaining('first'),
      expect.stringContaining('second'),
    ]);
    // one at a time: the second waits for the first
    expect(page.api.sendMessage).toHaveBeenCalledTimes(1);
    release();
    await waitFor(() => expect(page.api.sendMessage).toHaveBeenCalledTimes(2));
    release();
    await waitFor(() => expect(screen.queryByTestId('pending-message')).not.toBeInTheDocument());
    expect(page.api.sendMessage.mock.calls.map(([body]) => body.message)).toEqual([
      'first',
      'second',
    ]);
    expect(messageTexts().slice(-2)).toEqual(['first', 'second']);
  });

  it('a pending message whose live event arrives before the response shows once', async () => {
    const page = await openAcme();
    const release = holdSends(page);
    await page.user.type(screen.getByPlaceholderText('Write Message...'), 'echoed{Enter}');
    await screen.findByTestId('pending-message');
    const clientId = page.api.sendMessage.mock.calls[0]![0].client_id!;
    const acme = page.fake.state.conversations.find((item) => item.id === 1)!;
    act(() =>
      page.realtime.emit(
        makeChat(acme, users.sara, 'echoed', { id: page.fake.state.nextId, clientId }),
      ),
    );
    await waitFor(() => expect(messageTexts()).toContain('echoed'));
    expect(screen.queryByTestId('pending-message')).not.toBeInTheDocument();
    release();
    await waitFor(() => expect(page.api.sendMessage).toHaveBeenCalledTimes(1));
    expect(messageTexts().filter((text) => text === 'echoed')).toHaveLength(1);
  });

  it('a failed send keeps the text, shows a quiet retry notice, and retry reuses the client_id', async () => {
    const page = await openAcme();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    page.api.sendMessage.mockRejectedValueOnce(new ApiError(503, 'Service unavailable'));
    const input = screen.getByPlaceholderText('Write Message...');
    await page.user.type(input, 'Are you there?');
    await page.user.click(screen.getByRole('button', { name: 'Send' }));

    const notice = await screen.findByTestId('send-failed');
    expect(notice).toHaveTextContent('Not sent.');
    expect(input).toHaveValue('Are you there?');
    expect(messageTexts()).not.toContain('Are you there?');
    const firstClientId = page.api.sendMessage.mock.calls[0]![0].client_id;
    expect(firstClientId).toMatch(UUID);

    await page.user.click(within(notice).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(messageTexts()).toContain('Are you there?'));
    expect(page.api.sendMessage).toHaveBeenCalledTimes(2);
    expect(page.api.sendMessage.mock.calls[1]![0].client_id).toBe(firstClientId);
    expect(screen.queryByTestId('send-failed')).not.toBeInTheDocument();
    expect(input).toHaveValue('');
    errors.mockRestore();
  });

  it('keeps a typed draft and a failed message per conversation across switches', async () => {
    const page = await openAcme();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    page.api.sendMessage.mockRejectedValueOnce(new ApiError(503, 'Service unavailable'));
    await page.user.type(screen.getByPlaceholderText('Write Message...'), 'Still interested?');
    await page.user.click(screen.getByRole('button', { name: 'Send' }));
    await screen.findByTestId('send-failed');
    const firstClientId = page.api.sendMessage.mock.calls[0]![0].client_id;

    // Elsewhere, a half-typed note.
    await page.user.click(rowFor('Nile Software'));
    const elsewhere = await screen.findByPlaceholderText('Write Message...');
    await waitFor(() => expect(elsewhere).toBeEnabled());
    expect(elsewhere).toHaveValue('');
    expect(screen.queryByTestId('send-failed')).not.toBeInTheDocument();
    await page.user.type(elsewhere, 'half a thought');

    // Back: the text and the notice are there, and the retry lands once (same client_id).
    await page.user.click(rowFor('Acme Robotics'));
    await screen.findByText('Can you do an interview on Monday?');
    expect(screen.getByPlaceholderText('Write Message...')).toHaveValue('Still interested?');
    const notice = await screen.findByTestId('send-failed');
    await page.user.click(within(notice).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(messageTexts()).toContain('Still interested?'));
    expect(page.api.sendMessage.mock.calls.at(-1)![0].client_id).toBe(firstClientId);

    await page.user.click(rowFor('Nile Software'));
    await waitFor(() =>
      expect(screen.getByPlaceholderText('Write Message...')).toHaveValue('half a thought'),
    );
    errors.mockRestore();
  });

  it('keeps the draft and the failed message across a reload, and retries when back online', async () => {
    const first = await openAcme();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    first.api.sendMessage.mockRejectedValueOnce(new ApiError(503, 'Service unavailable'));
    await first.user.type(screen.getByPlaceholderText('Write Message...'), 'Sent offline');
    await first.user.click(screen.getByRole('button', { name: 'Send' }));
    await screen.findByTestId('send-failed');
    const clientId = first.api.sendMessage.mock.calls[0]![0].client_id;
    first.unmount();

    const page = await openAcme();
    expect(screen.getByPlaceholderText('Write Message...')).toHaveValue('Sent offline');
    await screen.findByTestId('send-failed');
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(page.api.sendMessage).toHaveBeenCalledTimes(1));
    expect(page.api.sendMessage.mock.calls[0]![0]).toMatchObject({
      message: 'Sent offline',
      client_id: clientId,
    });
    await waitFor(() => expect(screen.queryByTestId('send-failed')).not.toBeInTheDocument());
    expect(screen.getByPlaceholderText('Write Message...')).toHaveValue('');
    errors.mockRestore();
  });

  it('a new message after a successful send gets a new client_id', async () => {
    const page = await openAcme();
    const input = screen.getByPlaceholderText('Write Message...');
    await page.user.type(input, 'one{Enter}');
    await waitFor(() => expect(messageTexts()).toContain('one'));
    await page.user.type(input, 'two{Enter}');
    await waitFor(() => expect(messageTexts()).toContain('two'));
    const [first, second] = page.api.sendMessage.mock.calls.map(([body]) => body.client_id);
    expect(first).not.toBe(second);
  });
});

describe('chat pane: history paging', () => {
  const longScenario = () => {
    const scenario = candidateScenario();
    const acme = scenario.conversations[0]!;
    const start = Date.now() - 200 * 60_000;
    scenario.chats.set(
      1,
      Array.from({ length: 120 }, (_, index) =>
        makeChat(acme, index % 2 ? users.sara : users.acme, `message ${index + 1}`, {
          id: 1000 + index,
          createdAt: new Date(start + index * 60_000).toISOString(),
        }),
      ),
    );
    return scenario;
  };

  it('loads older messages when scrolled to the top, with `before`, without moving the view', async () => {
    const page = await renderMessagesPage({ scenario: longScenario() });
    await page.user.click(rowFor('Acme Robotics'));
    await screen.findByText('message 120');
    expect(screen.getAllByTestId('chat-message')).toHaveLength(50);
    expect(screen.queryByText('message 70')).not.toBeInTheDocument();

    const list = screen.getByTestId('message-list');
    Object.defineProperty(list, 'scrollHeight', {
      configurable: true,
      get: () => list.querySelectorAll('[data-testid="chat-message"]').length * 40,
    });
    list.scrollTop = 1500; // 2000 tall, 500 from the bottom
    fireEvent.scroll(list);
    expect(page.api.getMessages).toHaveBeenCalledTimes(1);

    list.scrollTop = 0;
    fireEvent.scroll(list);
    await screen.findByText('message 70');
    expect(page.api.getMessages).toHaveBeenLastCalledWith({
      receiver_id: 10,
      job_id: 100,
      before: 1070,
    });
    expect(screen.getAllByTestId('chat-message')).toHaveLength(100);
    // same distance from the bottom as before the older page arrived: 4000 - 2000
    expect(list.scrollTop).toBe(2000);

    list.scrollTop = 0;
    fireEvent.scroll(list);
    await screen.findByText('message 1');
    expect(page.api.getMessages).toHaveBeenLastCalledWith({
      receiver_id: 10,
      job_id: 100,
      before: 1020,
    });
    expect(screen.getAllByTestId('chat-message')).toHaveLength(120);
    expect(
      await screen.findByText('This is the beginning of the conversation'),
    ).toBeInTheDocument();

    list.scrollTop = 0;
    fireEvent.scroll(list);
    expect(page.api.getMessages).toHaveBeenCalledTimes(3);
  });

  it('offers a button for older messages (keyboard users, short first pages)', async () => {
    const page = await renderMessagesPage({ scenario: longScenario() });
    await page.user.click(rowFor('Acme Robotics'));
    await screen.findByText('message 120');
    await page.user.click(screen.getByRole('button', { name: 'Load older messages' }));
    expect(await screen.findByText('message 70')).toBeInTheDocument();
  });
});

describe('chat pane: errors', () => {
  it('a conversation that failed to load says so, offers a retry and no composer', async () => {
    const page = await renderMessagesPage();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    page.api.getMessages.mockRejectedValueOnce(new ApiError(503, 'down'));
    await page.user.click(rowFor('Acme Robotics'));
    const alert = await screen.findByTestId('chat-load-error');
    expect(alert).toHaveTextContent('This conversation could not be loaded.');
    expect(screen.queryByText('No messages yet. Say hello!')).not.toBeInTheDocument();
    expect(screen.queryByPlaceholderText('Write Message...')).not.toBeInTheDocument();
    // The server is back: retrying shows the conversation and its composer.
    await page.user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await screen.findByText('Can you do an interview on Monday?');
    expect(screen.getByPlaceholderText('Write Message...')).toBeEnabled();
    errors.mockRestore();
  });

  it('a conversation that is not found (or not the viewer’s) says so, with nothing to retry or send', async () => {
    const page = await renderMessagesPage();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    page.api.getMessages.mockRejectedValue(new ApiError(404, 'Conversation not found.'));
    await page.user.click(rowFor('Acme Robotics'));
    const alert = await screen.findByTestId('chat-load-error');
    expect(alert).toHaveTextContent('This conversation was not found.');
    expect(within(alert).queryByRole('button')).not.toBeInTheDocument();
    expect(screen.queryByPlaceholderText('Write Message...')).not.toBeInTheDocument();
    errors.mockRestore();
  });
});

describe('chat pane: runs of one sender', () => {
  it('shows the name and time once per run; later bubbles of the run have no header but keep the time as a tooltip', async () => {
    const scenario = candidateScenario();
    const acme = scenario.conversations.find((item) => item.id === 1)!;
    const base = Date.now() - 60 * 60_000;
    const at = (minutes: number) => new Date(base + minutes * 60_000).toISOString();
    scenario.chats.set(1, [
      makeChat(acme, users.acme, 'run one a', { id: 201, createdAt: at(0) }),
      makeChat(acme, users.acme, 'run one b', { id: 202, createdAt: at(1) }),
      makeChat(acme, users.acme, 'run one c', { id: 203, createdAt: at(4) }),
      makeChat(acme, users.acme, 'after a pause', { id: 204, createdAt: at(20) }),
      makeChat(acme, users.sara, 'my reply', { id: 205, createdAt: at(21) }),
      makeChat(acme, users.sara, 'my second line', { id: 206, createdAt: at(22) }),
    ]);
    const page = await renderMessagesPage({ scenario });
    await page.user.click(rowFor('Acme Robotics'));
    await screen.findByText('after a pause');
    const bubbles = screen.getAllByTestId('chat-message');
    const header = (index: number) => within(bubbles[index]!).queryByTestId('message-meta');
    expect(bubbles.map((_, index) => header(index) !== null)).toEqual([
      true,
      false,
      false,
      true,
      true,
      false,
    ]);
    expect(within(bubbles[0]!).getByText('Acme Robotics')).toBeInTheDocument();
    expect(within(bubbles[1]!).queryByText('Acme Robotics')).not.toBeInTheDocument();
    expect(bubbles[1]!.querySelector('.message__bubble')).toHaveAttribute('title');
    expect(bubbles[1]!.querySelector('time')).toHaveAttribute('datetime', at(1));
  });
});
