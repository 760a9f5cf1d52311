import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { EDIT_WINDOW_PASSED_MESSAGE } from '../../../../shared/message-changes-paths.js';
import { ApiError } from '../../../lib/api-client.js';
import { candidateScenario, makeChat, users } from '../../../../../test-support/web/fixtures.js';
import {
  conversationList,
  messageTexts,
  renderMessagesPage,
  rowFor,
  rowIds,
} from '../../../../../test-support/web/render-messages-page.js';
import { preloadConversationList } from '../../conversations/components/lazy-conversation-list.js';
import { LONG_PRESS_MS } from './message-actions.js';

const WINDOW_MS = 900_000;

/** Sara's scenario with her own message of a minute ago (104), the conversation's latest. */
const scenarioWithRecentOwn = (createdAt = new Date(Date.now() - 60_000).toISOString()) => {
  const scenario = candidateScenario();
  const acme = scenario.conversations[0]!;
  scenario.chats.get(1)!.push(makeChat(acme, users.sara, 'See you Monday', { id: 104, createdAt }));
  acme.last_message = 'See you Monday';
  acme.last_message_at = createdAt;
  return scenario;
};

const openAcme = async (scenario = scenarioWithRecentOwn()) => {
  const page = await renderMessagesPage({ scenario });
  await page.user.click(rowFor('Acme Robotics'));
  await screen.findByText('Can you do an interview on Monday?');
  return page;
};

const bubble = (id: number) => {
  const found = screen
    .getAllByTestId('chat-message')
    .find((item) => item.getAttribute('data-chat-id') === String(id));
  if (!found) throw new Error(`no bubble ${id}`);
  return found;
};

const preview = (name: string) =>
  rowFor(name, conversationList()).querySelector('.conversation-row__preview')?.textContent;

// typing and long presses take real time on a busy machine
describe('editing and deleting messages', { timeout: 20_000 }, () => {
  // the list's code is there before the first page renders (a cold import can outlast a wait)
  beforeAll(async () => {
    await preloadConversationList();
  });

  it('offers Edit and Delete on the viewer’s own recent messages only, reached by keyboard focus', async () => {
    const page = await openAcme();
    const own = bubble(104);
    expect(within(own).getByRole('button', { name: 'Edit' })).toBeInTheDocument();
    expect(within(own).getByRole('button', { name: 'Delete' })).toBeInTheDocument();
    // the other party's message, and the viewer's own of two days ago, offer nothing
    expect(within(bubble(103)).queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(within(bubble(102)).queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(within(bubble(102)).queryByRole('button', { name: 'Delete' })).toBeNull();

    // keyboard: from the message list, Tab lands on the message's Edit (its focus shows them)
    screen.getByTestId('message-list').focus();
    await page.user.tab();
    expect(within(own).getByRole('button', { name: 'Edit' })).toHaveFocus();
    expect(own.matches(':focus-within')).toBe(true);
    await page.user.tab();
    expect(within(own).getByRole('button', { name: 'Delete' })).toHaveFocus();
  });

  it('takes the controls away once the edit window has passed', async () => {
    // sent 8 s before the end of the window
    const createdAt = new Date(Date.now() - WINDOW_MS + 8_000).toISOString();
    await openAcme(scenarioWithRecentOwn(createdAt));
    expect(within(bubble(104)).getByRole('button', { name: 'Edit' })).toBeInTheDocument();
    await waitFor(
      () => expect(within(bubble(104)).queryByRole('button', { name: 'Edit' })).toBeNull(),
      { timeout: 12_000 },
    );
    expect(within(bubble(104)).queryByRole('button', { name: 'Delete' })).toBeNull();
  });

  it('edits in place: Enter saves (Shift+Enter a new line), the bubble says "(edited)" and the list preview follows', async () => {
    const page = await openAcme();
    const listLoads = page.api.getInitialData.mock.calls.length;
    await page.user.click(within(bubble(104)).getByRole('button', { name: 'Edit' }));
    const box = within(bubble(104)).getByRole('textbox', { name: 'Edit message' });
    expect(box).toHaveValue('See you Monday');
    expect(box).toHaveFocus();
    await page.user.clear(box);
    await page.user.type(box, 'Tuesday{Shift>}{Enter}{/Shift}at 10{Enter}');
    await waitFor(() => expect(page.api.editMessage).toHaveBeenCalledTimes(1));
    expect(page.api.editMessage).toHaveBeenCalledWith(104, { message: 'Tuesday\nat 10' });
    await waitFor(() => expect(messageTexts()).toContain('Tuesday\nat 10'));
    expect(within(bubble(104)).queryByRole('textbox')).toBeNull();
    expect(within(bubble(104)).getByTestId('message-edited')).toHaveTextContent('(edited)');
    expect(within(bubble(104)).getByRole('button', { name: 'Edit' })).toHaveFocus();
    expect(preview('Acme Robotics')).toBe('Tuesday\nat 10');
    // an edit is not new activity: the order stays, nothing is reloaded
    expect(rowIds(conversationList())).toEqual([1, 2, 3]);
    expect(page.api.getInitialData.mock.calls.length).toBe(listLoads);
  });

  it('Escape (or Cancel) leaves the message as it was', async () => {
    const page = await openAcme();
    await page.user.click(within(bubble(104)).getByRole('button', { name: 'Edit' }));
    await page.user.type(within(bubble(104)).getByRole('textbox'), ' ok');
    await page.user.keyboard('{Escape}');
    expect(within(bubble(104)).queryByRole('textbox')).toBeNull();
    expect(messageTexts()).toContain('See you Monday');
    expect(within(bubble(104)).getByRole('button', { name: 'Edit' })).toHaveFocus();

    await page.user.click(within(bubble(104)).getByRole('button', { name: 'Edit' }));
    await page.user.click(within(bubble(104)).getByRole('button', { name: 'Cancel' }));
    expect(within(bubble(104)).queryByRole('textbox')).toBeNull();
    expect(page.api.editMessage).not.toHaveBeenCalled();
    expect(within(bubble(104)).queryByTestId('message-edited')).toBeNull();
  });

  it('says the server’s refusal under the box and keeps what was written', async () => {
    const page = await openAcme();
    page.api.editMessage.mockRejectedValueOnce(
      new ApiError(422, EDIT_WINDOW_PASSED_MESSAGE, { message: [EDIT_WINDOW_PASSED_MESSAGE] }),
    );
    await page.user.click(within(bubble(104)).getByRole('button', { name: 'Edit' }));
    const box = within(bubble(104)).getByRole('textbox');
    await page.user.type(box, '!{Enter}');
    expect(await within(bubble(104)).findByRole('alert')).toHaveTextContent(
      'This message can no longer be changed.',
    );
    expect(box).toHaveValue('See you Monday!');
    expect(box).toHaveAttribute('aria-invalid', 'true');
    // an emptied message without files is not sent
    await page.user.clear(box);
    await page.user.keyboard('{Enter}');
    expect(within(bubble(104)).getByRole('alert')).toHaveTextContent('can’t be empty');
    expect(page.api.editMessage).toHaveBeenCalledTimes(1);
  });

  it('asks before deleting; once deleted the message says so, offers nothing, and the list preview goes back to the previous message', async () => {
    const page = await openAcme();
    await page.user.click(within(bubble(104)).getByRole('button', { name: 'Delete' }));
    let dialog = screen.getByRole('dialog', { name: 'Delete this message?' });
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await page.user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(page.api.deleteMessage).not.toHaveBeenCalled();
    expect(within(bubble(104)).getByRole('button', { name: 'Delete' })).toHaveFocus();

    await page.user.click(within(bubble(104)).getByRole('button', { name: 'Delete' }));
    dialog = screen.getByRole('dialog', { name: 'Delete this message?' });
    // the focus stays in the dialog
    await page.user.tab();
    expect(within(dialog).getByRole('button', { name: 'Delete' })).toHaveFocus();
    await page.user.tab();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await page.user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(page.api.deleteMessage).toHaveBeenCalledWith(104);
    expect(within(bubble(104)).getByTestId('message-deleted')).toHaveTextContent(
      'This message was deleted',
    );
    expect(messageTexts()).not.toContain('See you Monday');
    expect(within(bubble(104)).queryByRole('button')).toBeNull();
    expect(preview('Acme Robotics')).toBe('Can you do an interview on Monday?');
    expect(rowIds(conversationList())).toEqual([1, 2, 3]);
  });

  it('a refused deletion is said in the dialog', async () => {
    const page = await openAcme();
    page.api.deleteMessage.mockRejectedValueOnce(
      new ApiError(422, EDIT_WINDOW_PASSED_MESSAGE, { message: [EDIT_WINDOW_PASSED_MESSAGE] }),
    );
    await page.user.click(within(bubble(104)).getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete this message?' });
    await page.user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'This message can no longer be changed.',
    );
    expect(messageTexts()).toContain('See you Monday');
  });

  it('a long press (touch) opens a menu with the same two actions', async () => {
    const page = await openAcme();
    // opening the conversation gave its message box the focus; the menu takes it from there
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Message' })).toHaveFocus());
    const target = bubble(104).querySelector('.message__bubble')!;
    fireEvent.pointerDown(target, { pointerType: 'touch', clientX: 10, clientY: 10 });
    const menu = await screen.findByRole(
      'menu',
      { name: 'Message options' },
      { timeout: LONG_PRESS_MS + 1_000 },
    );
    fireEvent.pointerUp(target, { pointerType: 'touch' });
    // the menu hands its first item the focus once it is shown
    await waitFor(() => expect(within(menu).getByRole('menuitem', { name: 'Edit' })).toHaveFocus());
    await page.user.keyboard('{ArrowDown}');
    expect(within(menu).getByRole('menuitem', { name: 'Delete' })).toHaveFocus();
    await page.user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    // a press on another's message opens nothing
    fireEvent.pointerDown(bubble(103).querySelector('.message__bubble')!, { pointerType: 'touch' });
    await new Promise((resolve) => setTimeout(resolve, LONG_PRESS_MS + 100));
    expect(screen.queryByRole('menu')).toBeNull();
    // and from the menu, Edit edits
    fireEvent.pointerDown(target, { pointerType: 'touch' });
    await page.user.click(
      await screen.findByRole('menuitem', { name: 'Edit' }, { timeout: LONG_PRESS_MS + 1_000 }),
    );
    expect(within(bubble(104)).getByRole('textbox', { name: 'Edit message' })).toHaveFocus();
  });

  it('a live MessageUpdated: the bubble shows the new text with "(edited)", the list preview follows in place', async () => {
    const page = await openAcme(candidateScenario());
    const event = page.fake.changedElsewhere(103, 'Can you do an interview on Tuesday?');
    act(() => page.realtime.emitUpdated(event));
    await waitFor(() => expect(messageTexts()).toContain('Can you do an interview on Tuesday?'));
    expect(within(bubble(103)).getByTestId('message-edited')).toHaveTextContent('(edited)');
    expect(preview('Acme Robotics')).toBe('Can you do an interview on Tuesday?');
    expect(rowIds(conversationList())).toEqual([1, 2, 3]);

    // deleted by its sender: "This message was deleted", and the preview goes back
    act(() => page.realtime.emitUpdated(page.fake.changedElsewhere(103, null)));
    await waitFor(() =>
      expect(within(bubble(103)).getByTestId('message-deleted')).toHaveTextContent(
        'This message was deleted',
      ),
    );
    expect(within(bubble(103)).queryByTestId('message-edited')).toBeNull();
    expect(preview('Acme Robotics')).toBe('Happy to be here.');
  });

  it('a live MessageUpdated for a conversation not open changes its row in place, never adds a message nor moves the row', async () => {
    const page = await renderMessagesPage();
    const nile = page.fake.state.conversations.find((item) => item.id === 2)!;
    const unseen = makeChat(nile, users.nile, 'Not loaded anywhere', { id: 299 });
    page.fake.receive(unseen);
    const before = rowIds(conversationList());
    const event = page.fake.changedElsewhere(299, 'Edited, still not loaded');
    act(() => page.realtime.emitUpdated(event));
    await waitFor(() => expect(preview('Nile Software')).toBe('Edited, still not loaded'));
    expect(rowIds(conversationList())).toEqual(before);
    // its unread count follows the event's record
    expect(rowFor('Nile Software', conversationList())).toHaveAccessibleName(/1 unread/);
  });

  it('Arabic: the controls, the dialog and the states are in Arabic, on a right-to-left page', async () => {
    const page = await renderMessagesPage({ scenario: scenarioWithRecentOwn(), language: 'ar' });
    await page.user.click(rowFor('Acme Robotics'));
    await screen.findByText('Can you do an interview on Monday?');
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
    expect(within(bubble(104)).getByRole('button', { name: 'تعديل' })).toBeInTheDocument();
    await page.user.click(within(bubble(104)).getByRole('button', { name: 'حذف' }));
    const dialog = screen.getByRole('dialog', { name: 'حذف هذه الرسالة؟' });
    await page.user.click(within(dialog).getByRole('button', { name: 'إلغاء' }));
    act(() => page.realtime.emitUpdated(page.fake.changedElsewhere(103, 'الثلاثاء؟')));
    await waitFor(() =>
      expect(within(bubble(103)).getByTestId('message-edited')).toHaveTextContent('(معدّلة)'),
    );
    act(() => page.realtime.emitUpdated(page.fake.changedElsewhere(104, null)));
    await waitFor(() =>
      expect(within(bubble(104)).getByTestId('message-deleted')).toHaveTextContent(
        'حُذفت هذه الرسالة',
      ),
    );
  });
});
