import { act, screen, waitFor, within } from '@testing-library/react';
import { renderMessagesPage } from '../../../test-support/web/render-messages-page.js';
import { setSmallScreen } from '../../../test-support/web/setup.js';

describe('small screens: the conversation drawer', () => {
  const openSmall = async () => {
    const page = await renderMessagesPage();
    act(() => setSmallScreen(true));
    return page;
  };
  /** Phones start on the list itself; the drawer serves a conversation that is open. */
  const openSmallWithChat = async () => {
    const page = await openSmall();
    const list = await screen.findByTestId('conversation-list');
    expect(screen.queryByTestId('open-drawer')).not.toBeInTheDocument();
    await page.user.click(await within(list).findByRole('button', { name: /^Acme Robotics/ }));
    await screen.findByTestId('chat-pane');
    return page;
  };

  it('opens from the Messages button as a dialog titled "all messages", traps focus and restores it', async () => {
    const page = await openSmallWithChat();
    const opener = screen.getByTestId('open-drawer');
    expect(opener).toHaveAccessibleName('Messages');
    await page.user.click(opener);

    const dialog = screen.getByRole('dialog', { name: 'all messages' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    const close = within(dialog).getByRole('button', { name: 'Close' });
    expect(close).toHaveFocus();
    expect(within(dialog).getByRole('heading', { name: 'Archived Messages' })).toBeInTheDocument();
    expect(await within(dialog).findByTestId('conversation-list')).toBeInTheDocument();
    // one list at a time: the page's own list (phones start on it) steps aside for the drawer's
    expect(screen.getAllByTestId('conversation-list')).toHaveLength(1);

    // Shift+Tab from the first element wraps to the last one inside the dialog
    await page.user.tab({ shift: true });
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    expect(document.activeElement).not.toBe(close);
    // and Tab from the last one wraps back to the first
    await page.user.tab();
    expect(close).toHaveFocus();
    for (let i = 0; i < 30; i += 1) {
      await page.user.tab();
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    }

    await page.user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  });

  it('the close button closes it', async () => {
    const page = await openSmallWithChat();
    await page.user.click(screen.getByTestId('open-drawer'));
    await page.user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByTestId('open-drawer')).toHaveFocus();
  });

  it('choosing a conversation closes the drawer and opens it', async () => {
    const page = await openSmallWithChat();
    await page.user.click(screen.getByTestId('open-drawer'));
    const dialog = screen.getByRole('dialog');
    await page.user.click(await within(dialog).findByRole('button', { name: /^Nile Software/ }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('The role is closed, sorry.')).toBeInTheDocument();
  });

  it('starts on the conversation list; the chat has a back arrow that returns to it', async () => {
    const page = await openSmall();
    expect(screen.queryByTestId('chat-placeholder')).not.toBeInTheDocument();
    const list = await screen.findByTestId('conversation-list');
    await page.user.click(await within(list).findByRole('button', { name: /^Nile Software/ }));
    expect(await screen.findByText('The role is closed, sorry.')).toBeInTheDocument();
    expect(screen.queryByTestId('conversation-list')).not.toBeInTheDocument();
    expect(new URLSearchParams(location.search).get('tab')).not.toBeNull();

    await page.user.click(screen.getByRole('button', { name: 'Back to conversations' }));
    expect(await screen.findByTestId('conversation-list')).toBeInTheDocument();
    expect(screen.queryByTestId('chat-pane')).not.toBeInTheDocument();
  });
});
