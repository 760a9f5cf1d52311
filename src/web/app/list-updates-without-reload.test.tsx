/**
 * Lists at scale: the page applies events and answers to the list it holds; after
 * the first load it asks for the list again only after a (re)subscription (ADR 010).
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { ApiError } from '../lib/api-client.js';
import { makeChat, users } from '../../../test-support/web/fixtures.js';
import {
  archivedList,
  conversationList,
  messageTexts,
  renderMessagesPage,
  rowFor,
  rowIds,
} from '../../../test-support/web/render-messages-page.js';

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('the list is updated in place, never reloaded', () => {
  it('a received message: the row takes the event’s record (preview, unread) and moves to the top', async () => {
    const page = await renderMessagesPage();
    const listLoads = page.api.getInitialData.mock.calls.length;
    expect(rowIds(conversationList())).toEqual([1, 2, 3]);
    const harbor = page.fake.state.conversations.find((item) => item.id === 3)!;

    act(() => page.realtime.emit(makeChat(harbor, users.harbor, 'Shipping news', { id: 7201 })));

    await waitFor(() => expect(rowIds(conversationList())).toEqual([3, 1, 2]));
    const row = rowFor(/^Blue Harbor Logistics, 1 unread/, conversationList());
    expect(within(row).getByText('Shipping news')).toBeInTheDocument();
    await settle();
    expect(page.api.getInitialData.mock.calls.length).toBe(listLoads);
  });

  it('a send: the row takes the send’s answer and moves to the top', async () => {
    const page = await renderMessagesPage();
    await page.user.click(rowFor('Nile Software'));
    await screen.findByPlaceholderText('Write Message...');
    const listLoads = page.api.getInitialData.mock.calls.length;

    await page.user.type(screen.getByPlaceholderText('Write Message...'), 'Still hiring?');
    await page.user.click(screen.getByRole('button', { name: 'Send' }));

    await waitFor(() => expect(messageTexts()).toContain('Still hiring?'));
    await waitFor(() => expect(rowIds(conversationList())).toEqual([2, 1, 3]));
    expect(
      within(rowFor('Nile Software', conversationList())).getByText('Still hiring?'),
    ).toBeInTheDocument();
    await settle();
    expect(page.api.getInitialData.mock.calls.length).toBe(listLoads);
  });

  it('marking seen: opening an unread conversation and a message arriving in it (the seen-mark’s answer applies)', async () => {
    const page = await renderMessagesPage();
    const listLoads = page.api.getInitialData.mock.calls.length;
    expect(rowFor(/^Acme Robotics, 2 unread/, conversationList())).toBeInTheDocument();

    await page.user.click(rowFor('Acme Robotics'));
    await screen.findByText('Can you do an interview on Monday?');
    expect(
      within(rowFor('Acme Robotics', conversationList())).queryByTestId('unread-badge'),
    ).not.toBeInTheDocument();

    const acme = page.fake.state.conversations.find((item) => item.id === 1)!;
    act(() => page.realtime.emit(makeChat(acme, users.acme, 'Seen at once', { id: 7202 })));
    await waitFor(() => expect(page.api.markSeen).toHaveBeenCalledWith(1));
    const answer = (await page.api.markSeen.mock.results[0]!.value) as {
      messengerUser: { is_seen_messages_count: number };
    };
    expect(answer.messengerUser.is_seen_messages_count).toBe(0);
    const row = rowFor('Acme Robotics', conversationList());
    await waitFor(() => expect(within(row).getByText('Seen at once')).toBeInTheDocument());
    expect(within(row).queryByTestId('unread-badge')).not.toBeInTheDocument();
    await settle();
    expect(page.api.getInitialData.mock.calls.length).toBe(listLoads);
  });

  it('archive and unarchive: the rows move from the answers alone', async () => {
    const page = await renderMessagesPage();
    const listLoads = page.api.getInitialData.mock.calls.length;

    const nileItem = rowFor('Nile Software', conversationList()).parentElement!;
    await page.user.click(within(nileItem).getByRole('button', { name: 'Archive' }));
    await waitFor(() => expect(rowIds(archivedList())).toEqual([2, 4]));
    const desertItem = rowFor('Desert Bloom Studios', archivedList()).parentElement!;
    await page.user.click(within(desertItem).getByRole('button', { name: 'Unarchive' }));
    await waitFor(() => expect(rowIds(archivedList())).toEqual([2]));
    expect(rowIds(conversationList())).toEqual([1, 3, 4]);

    await settle();
    expect(page.api.archiveConversation).toHaveBeenCalledWith(2);
    expect(page.api.unarchiveConversation).toHaveBeenCalledWith(4);
    expect(page.api.getInitialData.mock.calls.length).toBe(listLoads);
  });

  it('Undo whose unarchive fails: the row stays archived, as the server has it', async () => {
    const page = await renderMessagesPage();
    const nileItem = rowFor('Nile Software', conversationList()).parentElement!;
    await page.user.click(within(nileItem).getByRole('button', { name: 'Archive' }));
    await waitFor(() => expect(rowIds(archivedList())).toEqual([2, 4]));
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    page.api.unarchiveConversation.mockRejectedValueOnce(new ApiError(500, 'Server Error'));

    const toast = screen.getByTestId('archive-toast');
    await page.user.click(within(toast).getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(page.api.unarchiveConversation).toHaveBeenCalledWith(2));
    await waitFor(() => expect(console.error).toHaveBeenCalled());

    expect(page.fake.state.conversations.find((item) => item.id === 2)?.candidate_archive).toBe(1);
    await waitFor(() => expect(rowIds(archivedList())).toEqual([2, 4]));
    expect(rowIds(conversationList())).toEqual([1, 3]);
    vi.restoreAllMocks();
  });

  it('only a reconnection asks for the list again', async () => {
    const page = await renderMessagesPage();
    const listLoads = page.api.getInitialData.mock.calls.length;
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await settle();
    expect(page.api.getInitialData.mock.calls.length).toBe(listLoads);

    act(() => page.realtime.drop());
    act(() => page.realtime.reconnect());
    // the first page of each list held (active and archived), nothing more
    await waitFor(() => expect(page.api.getInitialData.mock.calls.length).toBe(listLoads + 2));
    await settle();
    const asked = page.api.getInitialData.mock.calls.slice(listLoads).map(([params]) => params);
    expect(asked).toEqual([
      expect.objectContaining({ limit: 50, cursor: null, archived: false }),
      expect.objectContaining({ limit: 50, cursor: null, archived: true }),
    ]);
  });

  it('an archive during a catch-up: the cancelled list fetch is made again once the call is over', async () => {
    const page = await renderMessagesPage();
    const listLoads = page.api.getInitialData.mock.calls.length;
    page.api.getInitialData.mockImplementationOnce(() => new Promise(() => undefined));
    act(() => page.realtime.reconnect());
    await waitFor(() => expect(page.api.getInitialData.mock.calls.length).toBe(listLoads + 2));

    const nileItem = rowFor('Nile Software', conversationList()).parentElement!;
    await page.user.click(within(nileItem).getByRole('button', { name: 'Archive' }));
    await waitFor(() => expect(rowIds(archivedList())).toEqual([2, 4]));
    await waitFor(() => expect(page.api.getInitialData.mock.calls.length).toBe(listLoads + 4));
    await waitFor(() => expect(rowIds(archivedList())).toEqual([2, 4]));
  });
});
