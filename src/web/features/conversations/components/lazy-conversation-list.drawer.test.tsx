import { screen, within } from '@testing-library/react';
import {
  renderMessagesPage,
  rowIds,
} from '../../../../../test-support/web/render-messages-page.js';
import { preloadConversationList } from './lazy-conversation-list.js';

// Its own file: the list's code is loaded once per module graph, and this checks the very first
// time the list renders (each test file gets a fresh one).
describe('the conversation list code, loaded at startup (small screen)', () => {
  it('the list shows its rows at once on the first screen, without a loading spinner', async () => {
    await renderMessagesPage({ smallScreen: true });
    // what the page does at boot
    await preloadConversationList();

    // phones start on the list itself (no drawer): its rows are there at once
    const list = await screen.findByTestId('conversation-list');
    expect(screen.queryByTestId('open-drawer')).not.toBeInTheDocument();
    expect(screen.queryByText('Loading conversations…')).not.toBeInTheDocument();
    expect(rowIds(list)).toEqual([1, 2, 3]);
    expect(rowIds(screen.getByTestId('archived-list'))).toEqual([4]);
  });

  it('the drawer (a conversation open) shows the rows at once too', async () => {
    const page = await renderMessagesPage({ smallScreen: true });
    await preloadConversationList();
    const list = await screen.findByTestId('conversation-list');
    await page.user.click(within(list).getAllByTestId('conversation-row')[0]!);
    await page.user.click(await screen.findByTestId('open-drawer'));

    // no waiting: the rows are there on the first frame of the drawer
    const dialog = screen.getByRole('dialog', { name: 'all messages' });
    expect(within(dialog).queryByText('Loading conversations…')).not.toBeInTheDocument();
    expect(rowIds(within(dialog).getByTestId('conversation-list'))).toEqual([1, 2, 3]);
    expect(rowIds(within(dialog).getByTestId('archived-list'))).toEqual([4]);
  });
});
