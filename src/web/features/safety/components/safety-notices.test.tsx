import { screen, waitFor, within } from '@testing-library/react';
import { BLOCKED_MESSAGE, SUSPENDED_MESSAGE } from '../../../../shared/safety-paths.js';
import { ApiError } from '../../../lib/api-client.js';
import { candidateScenario, users } from '../../../../../test-support/web/fixtures.js';
import {
  renderMessagesPage,
  rowFor,
} from '../../../../../test-support/web/render-messages-page.js';

const composer = () => screen.queryByPlaceholderText('Write Message...');

const openAcme = async (options: Parameters<typeof renderMessagesPage>[0] = {}) => {
  const page = await renderMessagesPage(options);
  await page.user.click(rowFor('Acme Robotics'));
  await screen.findByText('Can you do an interview on Monday?');
  return page;
};

describe('where the composer was: a suspended account', () => {
  it('reads its conversations, and says it is suspended instead of offering a composer', async () => {
    const scenario = candidateScenario();
    scenario.auth = { ...users.sara, suspended: true };
    const page = await openAcme({ scenario });
    const notice = screen.getByTestId('suspended-notice');
    expect(notice).toHaveTextContent(
      'Your account is suspended. You can still read your messages, but you can’t send messages or files.',
    );
    expect(composer()).toBeNull();
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Attach files' })).toBeNull();
    // reading works: the messages are there, and another conversation opens too
    expect(screen.getByText('Thanks for applying!')).toBeInTheDocument();
    await page.user.click(rowFor('Nile Software'));
    await screen.findByText('The role is closed, sorry.');
    expect(screen.getByTestId('suspended-notice')).toBeInTheDocument();
    expect(page.api.sendMessage).not.toHaveBeenCalled();
  });

  it('in Arabic', async () => {
    const scenario = candidateScenario();
    scenario.auth = { ...users.sara, suspended: true };
    const page = await renderMessagesPage({ scenario, language: 'ar' });
    await page.user.click(rowFor('Acme Robotics'));
    expect(await screen.findByTestId('suspended-notice')).toHaveTextContent(
      'حسابك موقوف. ما زال بإمكانك قراءة رسائلك، لكن لا يمكنك إرسال رسائل أو ملفات.',
    );
  });

  it('an account not suspended (false, or not said) has its composer', async () => {
    const scenario = candidateScenario();
    scenario.auth = { ...users.sara, suspended: false };
    await openAcme({ scenario });
    expect(composer()).not.toBeNull();
    expect(screen.queryByTestId('suspended-notice')).toBeNull();
  });
});

describe('a send refused with 403', () => {
  it("says the server's reason (the other party blocked the viewer) beside Not sent, and keeps the typed text", async () => {
    const page = await openAcme();
    page.api.sendMessage.mockRejectedValueOnce(new ApiError(403, BLOCKED_MESSAGE));
    await page.user.type(composer()!, 'Are you still there?');
    await page.user.keyboard('{Enter}');

    const failed = await screen.findByTestId('send-failed');
    expect(failed).toHaveTextContent(`Not sent. ${BLOCKED_MESSAGE}`);
    expect(within(failed).getByTestId('send-refusal')).toHaveTextContent(BLOCKED_MESSAGE);
    await waitFor(() => expect(composer()).toHaveValue('Are you still there?'));
    // the refused message is no bubble
    expect(screen.queryByText('Are you still there?', { selector: '.message__text' })).toBeNull();

    // sent again once allowed: the reason goes with the failure
    await page.user.click(within(failed).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.queryByTestId('send-failed')).toBeNull());
    expect(page.api.sendMessage).toHaveBeenCalledTimes(2);
  });

  it('a suspension found on sending is said in the page language', async () => {
    const page = await renderMessagesPage({ language: 'ar' });
    await page.user.click(rowFor('Acme Robotics'));
    await screen.findByText('Can you do an interview on Monday?');
    page.api.sendMessage.mockRejectedValueOnce(new ApiError(403, SUSPENDED_MESSAGE));
    await page.user.type(screen.getByRole('textbox', { name: 'الرسالة' }), 'مرحبا');
    await page.user.keyboard('{Enter}');
    expect(await screen.findByTestId('send-refusal')).toHaveTextContent(
      'حسابك موقوف: يمكنك قراءة رسائلك، لكن لا يمكنك الإرسال أو الكتابة أو رفع الملفات.',
    );
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'الرسالة' })).toHaveValue('مرحبا'),
    );
  });

  it('another 403 reason is said as the server wrote it; other failures say only Not sent', async () => {
    const page = await openAcme();
    page.api.sendMessage.mockRejectedValueOnce(new ApiError(403, 'This conversation is closed.'));
    await page.user.type(composer()!, 'Hello?');
    await page.user.keyboard('{Enter}');
    expect(await screen.findByTestId('send-refusal')).toHaveTextContent(
      'This conversation is closed.',
    );

    page.api.sendMessage.mockRejectedValueOnce(new ApiError(500, 'Server Error'));
    await page.user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.queryByTestId('send-refusal')).toBeNull());
    expect(screen.getByTestId('send-failed')).toHaveTextContent('Not sent.');
  });
});
