import { act, screen, waitFor, within } from '@testing-library/react';
import { makeChat, users } from '../../../test-support/web/fixtures.js';
import {
  conversationList,
  messageTexts,
  renderMessagesPage,
  rowFor,
  rowIds,
} from '../../../test-support/web/render-messages-page.js';

const openAcme = async () => {
  const page = await renderMessagesPage();
  await page.user.click(rowFor('Acme Robotics'));
  await screen.findByText('Can you do an interview on Monday?');
  const acme = page.fake.state.conversations.find((item) => item.id === 1)!;
  return { page, acme };
};

/** Gives the message list a geometry (jsdom has no layout): 40 px per message, 400 px tall. */
const withGeometry = () => {
  const list = screen.getByTestId('message-list');
  Object.defineProperty(list, 'scrollHeight', {
    configurable: true,
    get: () => list.querySelectorAll('[data-testid="chat-message"]').length * 40 + 400,
  });
  Object.defineProperty(list, 'clientHeight', { configurable: true, get: () => 400 });
  return list;
};

describe('live updates', () => {
  it('a viewer reading history stays put when a message arrives, and gets "New messages ↓"', async () => {
    const { page, acme } = await openAcme();
    const list = withGeometry();
    list.scrollTop = 0; // reading from the top
    act(() => {
      list.dispatchEvent(new Event('scroll'));
    });
    const chat = makeChat(acme, users.acme, 'While you were reading', { id: 7101 });
    page.fake.receive(chat);
    act(() => page.realtime.emit(chat));
    await waitFor(() => expect(messageTexts()).toContain('While you were reading'));
    expect(list.scrollTop).toBe(0);
    const jump = await screen.findByTestId('new-messages-below');
    expect(jump).toHaveTextContent('New messages ↓');
    await page.user.click(jump);
    expect(list.scrollTop).toBe(list.scrollHeight);
    expect(screen.queryByTestId('new-messages-below')).not.toBeInTheDocument();
  });

  it('a viewer at the newest message follows a new one to the bottom', async () => {
    const { page, acme } = await openAcme();
    const list = withGeometry();
    list.scrollTop = list.scrollHeight - list.clientHeight;
    act(() => {
      list.dispatchEvent(new Event('scroll'));
    });
    const chat = makeChat(acme, users.acme, 'Right on time', { id: 7102 });
    page.fake.receive(chat);
    act(() => page.realtime.emit(chat));
    await waitFor(() => expect(messageTexts()).toContain('Right on time'));
    expect(list.scrollTop).toBe(list.scrollHeight);
    expect(screen.queryByTestId('new-messages-below')).not.toBeInTheDocument();
  });

  it('listens on the viewer’s own channel', async () => {
    const page = await renderMessagesPage();
    expect(page.realtime.listenedUserIds).toContain(1);
    expect(page.realtime.connect).toHaveBeenCalledWith(
      expect.objectContaining({ key: 'pk', cluster: 'mt1' }),
    );
  });

  it('a message for the open conversation: appended once (even if delivered twice), marked seen, list not reloaded, announced', async () => {
    const { page, acme } = await openAcme();
    const listLoads = page.api.getInitialData.mock.calls.length;
    const chat = makeChat(acme, users.acme, 'Monday at 10 works?', { id: 7001 });
    page.fake.receive(chat);

    act(() => page.realtime.emit(chat));
    act(() => page.realtime.emit(chat));

    await waitFor(() =>
      expect(messageTexts().filter((text) => text === 'Monday at 10 works?')).toHaveLength(1),
    );
    expect(page.api.markSeen).toHaveBeenCalledWith(1);
    const row = rowFor('Acme Robotics', conversationList());
    await waitFor(() => expect(within(row).getByText('Monday at 10 works?')).toBeInTheDocument());
    expect(within(row).queryByTestId('unread-badge')).not.toBeInTheDocument();
    expect(page.api.getInitialData.mock.calls.length).toBe(listLoads);
    expect(screen.getByTestId('live-region')).toHaveTextContent(
      'New message from Acme Robotics: Monday at 10 works?',
    );
    expect(page.sound.play).toHaveBeenCalled();
  });

  it('a message for another conversation increments its unread badge and updates its preview', async () => {
    const { page } = await openAcme();
    const nile = page.fake.state.conversations.find((item) => item.id === 2)!;
    const chat = makeChat(nile, users.nile, 'Actually, we reopened the role', { id: 7002 });
    const listLoads = page.api.getInitialData.mock.calls.length;

    act(() => page.realtime.emit(chat));

    const row = await waitFor(() => rowFor(/^Nile Software, 1 unread/, conversationList()));
    expect(within(row).getByTestId('unread-badge')).toHaveTextContent('1');
    expect(within(row).getByText('Actually, we reopened the role')).toBeInTheDocument();
    expect(messageTexts()).not.toContain('Actually, we reopened the role');
    expect(page.api.markSeen).not.toHaveBeenCalled();
    expect(page.api.getInitialData.mock.calls.length).toBe(listLoads);

    act(() => page.realtime.emit({ ...chat, id: 7003 }));
    await waitFor(() =>
      expect(rowFor(/^Nile Software, 2 unread/, conversationList())).toBeInTheDocument(),
    );
  });

  it('a message for a conversation not in the list adds it at the top, from the event, without a list request', async () => {
    const page = await renderMessagesPage();
    const listLoads = page.api.getInitialData.mock.calls.length;
    const newCo = { id: 55, role: 'company' as const, name: 'New Co', suspended: false };
    const brandNew = {
      ...page.fake.state.conversations[0]!,
      id: 77,
      company_id: 55,
      company: { id: 2055, logo: null, user: { name: 'New Co' } },
      last_message: 'Hi!',
      is_seen_messages_count: 1,
    };
    act(() => page.realtime.emit(makeChat(brandNew, newCo, 'Hi!', { id: 7004 }), brandNew));
    await waitFor(() => expect(rowIds(conversationList())[0]).toBe(77));
    expect(rowFor(/^New Co, 1 unread/, conversationList())).toBeInTheDocument();
    expect(page.api.getInitialData.mock.calls.length).toBe(listLoads);
  });

  it('the unread count comes from the event (the viewer’s own count), not from counting events', async () => {
    const page = await renderMessagesPage();
    const listLoads = page.api.getInitialData.mock.calls.length;
    const nile = page.fake.state.conversations.find((item) => item.id === 2)!;
    const chat = makeChat(nile, users.nile, 'Counted on the server', { id: 7030 });
    act(() =>
      page.realtime.emit(chat, {
        ...nile,
        last_message: chat.message,
        last_message_at: chat.created_at,
        is_seen_messages_count: 5,
      }),
    );
    const row = await waitFor(() => rowFor(/^Nile Software, 5 unread/, conversationList()));
    expect(within(row).getByText('Counted on the server')).toBeInTheDocument();
    expect(rowIds(conversationList())[0]).toBe(2);
    expect(page.api.getInitialData.mock.calls.length).toBe(listLoads);
  });

  it('the sound plays only for messages addressed to the viewer, and never when muted', async () => {
    const { page, acme } = await openAcme();
    const ownFromOtherTab = makeChat(acme, users.sara, 'sent from my phone', { id: 7005 });
    act(() => page.realtime.emit(ownFromOtherTab));
    await waitFor(() => expect(messageTexts()).toContain('sent from my phone'));
    expect(page.sound.play).not.toHaveBeenCalled();

    act(() => page.realtime.emit(makeChat(acme, users.acme, 'ding', { id: 7006 })));
    expect(page.sound.play).toHaveBeenCalledTimes(1);

    const toggle = screen.getByTestId('mute-toggle');
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await page.user.click(toggle);
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
    expect(localStorage.getItem('messenger.muted')).toBe('1');
    act(() => page.realtime.emit(makeChat(acme, users.acme, 'silent', { id: 7007 })));
    await waitFor(() => expect(messageTexts()).toContain('silent'));
    expect(page.sound.play).toHaveBeenCalledTimes(1);
  });

  it('the mute choice is remembered', async () => {
    localStorage.setItem('messenger.muted', '1');
    const page = await renderMessagesPage();
    expect(screen.getByTestId('mute-toggle')).toHaveAttribute('aria-pressed', 'true');
    const acme = page.fake.state.conversations[0]!;
    act(() => page.realtime.emit(makeChat(acme, users.acme, 'quiet', { id: 7008 })));
    expect(page.sound.play).not.toHaveBeenCalled();
  });

  it('after a reconnect, missed messages appear once and the list reloads', async () => {
    const { page, acme } = await openAcme();
    const listLoads = page.api.getInitialData.mock.calls.length;
    const seenLive = makeChat(acme, users.acme, 'delivered live', { id: 7010 });
    page.fake.receive(seenLive);
    act(() => page.realtime.emit(seenLive));
    await waitFor(() => expect(messageTexts()).toContain('delivered live'));
    // while the connection was down: the page says so
    act(() => page.realtime.drop());
    expect(screen.getByTestId('live-status')).toHaveTextContent(/^Offline — reconnecting…/);
    page.fake.receive(makeChat(acme, users.acme, 'missed while offline', { id: 7011 }));
    page.fake.receive(makeChat(acme, users.acme, 'also missed', { id: 7012 }));

    act(() => page.realtime.reconnect());
    expect(screen.getByTestId('live-status')).toBeEmptyDOMElement();

    await waitFor(() => expect(messageTexts()).toContain('also missed'));
    expect(messageTexts()).toEqual([
      'Thanks for applying!',
      'Happy to be here.',
      'Can you do an interview on Monday?',
      'delivered live',
      'missed while offline',
      'also missed',
    ]);
    expect(page.api.getMessages).toHaveBeenLastCalledWith({ receiver_id: 10, job_id: 100 });
    await waitFor(() =>
      expect(page.api.getInitialData.mock.calls.length).toBeGreaterThan(listLoads),
    );
  });

  it('the tab becoming visible again fetches nothing (only a reconnection catches up)', async () => {
    const { page, acme } = await openAcme();
    const listLoads = page.api.getInitialData.mock.calls.length;
    const threadLoads = page.api.getMessages.mock.calls.length;
    page.fake.receive(makeChat(acme, users.acme, 'while you were away', { id: 7020 }));
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(page.api.getInitialData.mock.calls.length).toBe(listLoads);
    expect(page.api.getMessages.mock.calls.length).toBe(threadLoads);
    act(() => page.realtime.reconnect());
    await waitFor(() => expect(messageTexts()).toContain('while you were away'));
    expect(messageTexts().filter((text) => text === 'while you were away')).toHaveLength(1);
  });
});
