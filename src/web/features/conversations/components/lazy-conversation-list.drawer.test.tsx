import { screen, within } from '@testing-library/react';
import { renderMessagesPage, rowIds } from '../../../test/render-messages-page.js';
import { preloadConversationList } from './lazy-conversation-list.js';

// Its own file: the list's code is loaded once per module graph, and this checks the very first
// time the list renders (each test file gets a fresh one).
describe('the conversation list code, loaded at startup (small screen)', () => {
  it('the first opening of the drawer shows the rows at once, without a loading spinner', async () => {
    const page = await renderMessagesPage({ smallScreen: true });
    // what the page does at boot, well before anyone opens the drawer
    await preloadConversationList();
    expect(screen.queryByTestId('conversation-list')).not.toBeInTheDocument();

    await page.user.click(screen.getByTestId('open-drawer'));

    // no waiting: the rows are there on the first frame of the drawer
    const dialog = screen.getByRole('dialog', { name: 'all messages' });
    expect(within(dialog).queryByText('Loading conversations…')).not.toBeInTheDocument();
    expect(rowIds(within(dialog).getByTestId('conversation-list'))).toEqual([1, 2, 3]);
    expect(rowIds(within(dialog).getByTestId('archived-list'))).toEqual([4]);
  });
});
