import { screen, waitFor, within } from '@testing-library/react';
import { ApiError } from '../../../lib/api-client.js';
import { axeViolations } from '../../../../../test-support/web/axe.js';
import { candidateScenario } from '../../../../../test-support/web/fixtures.js';
import {
  archivedList,
  conversationList,
  renderMessagesPage,
  rowFor,
} from '../../../../../test-support/web/render-messages-page.js';

const ACME_USER_ID = 10;

const openAcme = async (options: Parameters<typeof renderMessagesPage>[0] = {}) => {
  const page = await renderMessagesPage(options);
  await page.user.click(rowFor('Acme Robotics'));
  await screen.findByText('Can you do an interview on Monday?');
  return page;
};

const menuButton = () => screen.getByRole('button', { name: 'Conversation options' });
const menuItems = () => within(screen.getByRole('menu')).getAllByRole('menuitem');
const composer = () => screen.queryByPlaceholderText('Write Message...');

describe('conversation menu: a menu button in the chat header', () => {
  it('opens with Enter on its first item; the arrows move round the items, Home and End go to the ends; Escape closes it and gives the button its focus back', async () => {
    const page = await openAcme();
    const button = menuButton();
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('menu')).toBeNull();

    button.focus();
    await page.user.keyboard('{Enter}');
    const menu = screen.getByRole('menu', { name: 'Conversation options' });
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(button).toHaveAttribute('aria-controls', menu.id);
    expect(menuItems().map((item) => item.textContent)).toEqual(['Block', 'Report']);
    expect(menuItems()[0]).toHaveFocus();
    expect(await axeViolations(screen.getByTestId('chat-pane'))).toEqual([]);

    await page.user.keyboard('{ArrowDown}');
    expect(menuItems()[1]).toHaveFocus();
    await page.user.keyboard('{ArrowDown}');
    expect(menuItems()[0]).toHaveFocus(); // round again
    await page.user.keyboard('{ArrowUp}');
    expect(menuItems()[1]).toHaveFocus();
    await page.user.keyboard('{Home}');
    expect(menuItems()[0]).toHaveFocus();
    await page.user.keyboard('{End}');
    expect(menuItems()[1]).toHaveFocus();

    await page.user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveFocus();
    // Escape in the menu closes only the menu: the conversation stays open
    expect(composer()).not.toBeNull();
  });

  it('opens with Space or Down on its first item and with Up on its last; Tab and a click outside close it', async () => {
    const page = await openAcme();
    menuButton().focus();
    await page.user.keyboard(' ');
    expect(menuItems()[0]).toHaveFocus();
    await page.user.keyboard('{Escape}');

    await page.user.keyboard('{ArrowDown}');
    expect(menuItems()[0]).toHaveFocus();
    await page.user.keyboard('{Escape}');

    await page.user.keyboard('{ArrowUp}');
    expect(menuItems()[1]).toHaveFocus();
    await page.user.keyboard('{Tab}');
    expect(screen.queryByRole('menu')).toBeNull();

    await page.user.click(menuButton());
    expect(screen.getByRole('menu')).toBeInTheDocument();
    await page.user.click(screen.getByRole('heading', { name: 'Robotics Engineer' }));
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('Block: POST /user/blocks with the other party; the composer gives way to the notice, the row says Blocked, the menu offers Unblock', async () => {
    const page = await openAcme();
    expect(within(conversationList()).queryByTestId('blocked-badge')).toBeNull();
    await page.user.click(menuButton());
    await page.user.click(screen.getByRole('menuitem', { name: 'Block' }));

    await waitFor(() => expect(page.api.blockUser).toHaveBeenCalledWith(ACME_USER_ID));
    const notice = await screen.findByTestId('blocked-notice');
    expect(notice).toHaveTextContent("You blocked this person. They can't send you messages.");
    expect(composer()).toBeNull();
    expect(menuButton()).toHaveFocus();
    expect(screen.getByTestId('live-region')).toHaveTextContent(
      "You blocked Acme Robotics. They can't send you messages.",
    );
    // the list marks the conversation, and its name says so
    const badge = within(rowFor('Acme Robotics')).getByTestId('blocked-badge');
    expect(badge).toHaveTextContent('Blocked');
    expect(rowFor('Acme Robotics')).toHaveAccessibleName(/^Acme Robotics.*Blocked/);
    // nothing was fetched again for it
    expect(page.api.getInitialData).toHaveBeenCalledTimes(2);

    await page.user.click(menuButton());
    expect(menuItems().map((item) => item.textContent)).toEqual(['Unblock', 'Report']);
  });

  it('Unblock from the notice: DELETE /user/blocks/{userId}; the composer comes back with the focus, the badge goes', async () => {
    const scenario = candidateScenario();
    scenario.conversations[0]!.blocked = true;
    const page = await openAcme({ scenario });
    expect(within(rowFor('Acme Robotics')).getByTestId('blocked-badge')).toBeInTheDocument();
    const notice = screen.getByTestId('blocked-notice');
    expect(composer()).toBeNull();

    await page.user.click(within(notice).getByRole('button', { name: 'Unblock' }));
    await waitFor(() => expect(page.api.unblockUser).toHaveBeenCalledWith(ACME_USER_ID));
    await waitFor(() => expect(composer()).not.toBeNull());
    expect(screen.queryByTestId('blocked-notice')).toBeNull();
    expect(composer()).toHaveFocus();
    expect(within(rowFor('Acme Robotics')).queryByTestId('blocked-badge')).toBeNull();
    expect(screen.getByTestId('live-region')).toHaveTextContent('You unblocked Acme Robotics.');
  });

  it('Unblock from the menu; a failed block is said and changes nothing', async () => {
    const scenario = candidateScenario();
    scenario.conversations[0]!.blocked = true;
    const page = await openAcme({ scenario });
    await page.user.click(menuButton());
    await page.user.click(screen.getByRole('menuitem', { name: 'Unblock' }));
    await waitFor(() => expect(composer()).not.toBeNull());

    page.api.blockUser.mockRejectedValueOnce(new ApiError(500, 'Server Error'));
    await page.user.click(menuButton());
    await page.user.click(screen.getByRole('menuitem', { name: 'Block' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Blocking did not work. Please try again.',
    );
    expect(composer()).not.toBeNull();
    expect(within(rowFor('Acme Robotics')).queryByTestId('blocked-badge')).toBeNull();
  });

  it('no menu where there is nothing to do: a conversation whose other party was erased, or one that could not be loaded', async () => {
    const scenario = candidateScenario();
    scenario.conversations[0]!.closed = true;
    const page = await openAcme({ scenario });
    expect(screen.getByTestId('conversation-closed')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Conversation options' })).toBeNull();

    page.api.getMessages.mockRejectedValueOnce(new ApiError(404, 'Not found'));
    await page.user.click(rowFor('Nile Software'));
    await screen.findByTestId('chat-load-error');
    expect(screen.queryByRole('button', { name: 'Conversation options' })).toBeNull();
  });

  it('an archived blocked conversation carries the badge in the archived list too', async () => {
    const scenario = candidateScenario();
    scenario.conversations[3]!.blocked = true;
    await renderMessagesPage({ scenario });
    expect(
      within(rowFor('Desert Bloom Studios', archivedList())).getByTestId('blocked-badge'),
    ).toHaveTextContent('Blocked');
  });

  it('in Arabic: the menu and the notice read in Arabic', async () => {
    const scenario = candidateScenario();
    scenario.conversations[0]!.blocked = true;
    const page = await renderMessagesPage({ scenario, language: 'ar' });
    await page.user.click(rowFor('Acme Robotics'));
    expect(await screen.findByTestId('blocked-notice')).toHaveTextContent(
      'لقد حظرت هذا الشخص. لا يمكنه إرسال رسائل إليك.',
    );
    await page.user.click(screen.getByRole('button', { name: 'خيارات المحادثة' }));
    expect(menuItems().map((item) => item.textContent)).toEqual(['إلغاء الحظر', 'إبلاغ']);
    expect(within(rowFor('Acme Robotics')).getByTestId('blocked-badge')).toHaveTextContent('محظور');
  });
});
