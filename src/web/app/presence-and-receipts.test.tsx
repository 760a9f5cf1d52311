/**
 * Presence, read receipts and typing on the page: the green marker and the
 * header follow `PresenceChanged`, "Seen" follows `MessagesSeen`, the typing line follows `Typing`.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { makeChat, users } from '../../../test-support/web/fixtures.js';
import {
  conversationList,
  renderMessagesPage,
  rowFor,
} from '../../../test-support/web/render-messages-page.js';

const fiveMinutesAgo = () => new Date(Date.now() - 5 * 60_000).toISOString();

describe('who is there, who has read it, who is typing', () => {
  it('the green marker and the header follow the partner’s presence', async () => {
    const page = await renderMessagesPage();
    const acmeRow = () => rowFor(/^Acme Robotics/, conversationList());
    expect(within(acmeRow()).queryByTestId('online-marker')).toBeNull();
    const listLoads = page.api.getInitialData.mock.calls.length;

    act(() =>
      page.realtime.emitPresence({ user_id: users.acme.id, online: true, last_seen_at: null }),
    );
    await waitFor(() => expect(within(acmeRow()).getByTestId('online-marker')).toBeInTheDocument());
    // only Acme's row
    expect(
      within(rowFor(/^Nile Software/, conversationList())).queryByTestId('online-marker'),
    ).toBeNull();

    await page.user.click(acmeRow());
    await waitFor(() => expect(screen.getByTestId('presence-status')).toHaveTextContent('online'));

    act(() =>
      page.realtime.emitPresence({
        user_id: users.acme.id,
        online: false,
        last_seen_at: fiveMinutesAgo(),
      }),
    );
    await waitFor(() =>
      expect(screen.getByTestId('presence-status')).toHaveTextContent('last seen 5 minutes ago'),
    );
    expect(within(acmeRow()).queryByTestId('online-marker')).toBeNull();
    // nothing was fetched for it
    expect(page.api.getInitialData).toHaveBeenCalledTimes(listLoads);
  });

  it('"Sent" under the latest own message turns "Seen" when the other party reads it', async () => {
    const page = await renderMessagesPage();
    await page.user.click(rowFor(/^Acme Robotics/, conversationList()));
    const receipt = await screen.findByTestId('message-receipt');
    expect(receipt).toHaveTextContent('Sent');
    // under Sara's own latest message (id 102), not under Acme's later one
    expect(receipt.previousElementSibling?.getAttribute('data-chat-id')).toBe('102');

    const seenAt = new Date().toISOString();
    act(() =>
      page.realtime.emitSeen({
        messenger_user_id: 1,
        reader_id: users.acme.id,
        seen_at: seenAt,
        last_seen_id: 102,
      }),
    );
    await waitFor(() => expect(screen.getByTestId('message-receipt')).toHaveTextContent('Seen'));
    // the time it was seen, for hover and keyboard focus
    const seen = within(screen.getByTestId('message-receipt')).getByText('Seen');
    expect(seen).toHaveAttribute('tabindex', '0');
    expect(seen).toHaveAccessibleDescription(/\d/);
  });

  it('the typing line shows while the partner types and goes when their message arrives', async () => {
    const page = await renderMessagesPage();
    await page.user.click(rowFor(/^Acme Robotics/, conversationList()));
    const typing = await screen.findByTestId('typing-indicator');
    expect(typing).toHaveTextContent('');
    expect(typing).toHaveAttribute('role', 'status');

    // typing in another conversation does not show here
    act(() => page.realtime.emitTyping({ messenger_user_id: 2, user_id: users.nile.id }));
    expect(typing).toHaveTextContent('');

    act(() => page.realtime.emitTyping({ messenger_user_id: 1, user_id: users.acme.id }));
    await waitFor(() => expect(typing).toHaveTextContent('Acme Robotics is typing…'));

    const acme = page.fake.state.conversations.find((item) => item.id === 1)!;
    act(() => page.realtime.emit(makeChat(acme, users.acme, 'Here it is', { id: 7301 })));
    await waitFor(() => expect(typing).toHaveTextContent(''));
  });

  it('typing in the composer tells the other party, at most once every 2 s', async () => {
    const page = await renderMessagesPage();
    await page.user.click(rowFor(/^Acme Robotics/, conversationList()));
    const input = await screen.findByPlaceholderText('Write Message...');
    await waitFor(() => expect(input).toBeEnabled());
    await page.user.type(input, 'Hello there');
    expect(page.api.sendTyping).toHaveBeenCalledTimes(1);
    expect(page.api.sendTyping).toHaveBeenCalledWith(1);
  });
});
