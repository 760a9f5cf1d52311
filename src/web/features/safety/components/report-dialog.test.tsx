import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ApiError } from '../../../lib/api-client.js';
import { axeViolations } from '../../../../../test-support/web/axe.js';
import {
  renderMessagesPage,
  rowFor,
} from '../../../../../test-support/web/render-messages-page.js';

const openReport = async (options: Parameters<typeof renderMessagesPage>[0] = {}) => {
  const page = await renderMessagesPage(options);
  await page.user.click(rowFor('Acme Robotics'));
  await screen.findByText('Can you do an interview on Monday?');
  await page.user.click(screen.getByRole('button', { name: 'Conversation options' }));
  await page.user.click(screen.getByRole('menuitem', { name: 'Report' }));
  return { ...page, dialog: screen.getByRole('dialog', { name: 'Report' }) };
};

const menuButton = () => screen.getByRole('button', { name: 'Conversation options' });

describe('report dialog', () => {
  it('is a modal dialog named Report: the reasons as radio buttons in a group, Details with a counter, Also block, Send report and Cancel; the first reason has the focus', async () => {
    const { dialog } = await openReport();
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    const reasons = within(dialog).getByRole('group', { name: 'Reason' });
    expect(
      within(reasons)
        .getAllByRole('radio')
        .map((radio) => radio.closest('label')?.textContent),
    ).toEqual(['Spam', 'Scam', 'Harassment', 'Inappropriate', 'Other']);
    expect(within(reasons).getByRole('radio', { name: 'Spam' })).toHaveFocus();
    expect(within(dialog).getByRole('textbox', { name: 'Details' })).toHaveValue('');
    expect(within(dialog).getByTestId('report-details-counter')).toHaveTextContent(
      '0 / 1000 characters',
    );
    expect(within(dialog).getByRole('checkbox', { name: 'Also block' })).not.toBeChecked();
    expect(within(dialog).getByRole('button', { name: 'Send report' })).toBeEnabled();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeEnabled();
    expect(dialog).toHaveAccessibleDescription(/Acme Robotics/);
    expect(await axeViolations(dialog)).toEqual([]);
  });

  it('keeps Tab inside; Escape closes it and the menu button gets the focus back; so does Cancel', async () => {
    const page = await openReport();
    const radio = within(page.dialog).getByRole('radio', { name: 'Spam' });
    await page.user.click(within(page.dialog).getByRole('radio', { name: 'Harassment' }));
    // the last stop (Send report) → the first (the checked reason)
    within(page.dialog).getByRole('button', { name: 'Send report' }).focus();
    await page.user.tab();
    expect(within(page.dialog).getByRole('radio', { name: 'Harassment' })).toHaveFocus();
    await page.user.tab({ shift: true });
    expect(within(page.dialog).getByRole('button', { name: 'Send report' })).toHaveFocus();
    expect(radio).not.toHaveFocus();

    await page.user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(menuButton()).toHaveFocus();
    // the conversation is still open
    expect(screen.getByPlaceholderText('Write Message...')).toBeInTheDocument();

    await page.user.keyboard('{Enter}');
    await page.user.click(screen.getByRole('menuitem', { name: 'Report' }));
    await page.user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(menuButton()).toHaveFocus();
    expect(page.api.reportConversation).not.toHaveBeenCalled();
  });

  it('the focus stays on Send report while sending; with the focus fallen out of the dialog, Escape still closes it and Tab brings it back', async () => {
    const page = await openReport();
    let answer!: () => void;
    page.api.reportConversation.mockImplementationOnce(
      () =>
        new Promise((resolve) => {
          answer = () =>
            resolve({ report: { id: 1, status: 'open', created_at: new Date().toISOString() } });
        }),
    );
    await page.user.click(within(page.dialog).getByRole('radio', { name: 'Spam' }));
    const send = within(page.dialog).getByRole('button', { name: 'Send report' });
    await page.user.click(send);
    const sending = within(page.dialog).getByRole('button', { name: 'Sending…' });
    expect(sending).toHaveFocus();
    expect(sending).toHaveAttribute('aria-disabled', 'true');
    await page.user.click(sending);
    expect(page.api.reportConversation).toHaveBeenCalledTimes(1);
    answer();
    await within(page.dialog).findByText('Thanks — your report was sent.');

    // the focus on the page's body (outside the dialog): Tab comes back in, Escape closes
    (document.activeElement as HTMLElement | null)?.blur();
    expect(document.body).toHaveFocus();
    await page.user.tab();
    expect(page.dialog).toContainElement(document.activeElement as HTMLElement);
    (document.activeElement as HTMLElement | null)?.blur();
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('asks for a reason before sending', async () => {
    const page = await openReport();
    await page.user.click(within(page.dialog).getByRole('button', { name: 'Send report' }));
    expect(within(page.dialog).getByRole('alert')).toHaveTextContent('Choose a reason.');
    expect(page.api.reportConversation).not.toHaveBeenCalled();
  });

  it('sends the reason, the details and "also block"; thanks the user, and the conversation becomes blocked', async () => {
    const page = await openReport();
    await page.user.click(within(page.dialog).getByRole('radio', { name: 'Scam' }));
    await page.user.type(
      within(page.dialog).getByRole('textbox', { name: 'Details' }),
      'Asked me to pay for training',
    );
    expect(within(page.dialog).getByTestId('report-details-counter')).toHaveTextContent(
      '28 / 1000 characters',
    );
    await page.user.click(within(page.dialog).getByRole('checkbox', { name: 'Also block' }));
    await page.user.click(within(page.dialog).getByRole('button', { name: 'Send report' }));

    await waitFor(() =>
      expect(page.api.reportConversation).toHaveBeenCalledWith({
        messenger_user_id: 1,
        reason: 'scam',
        details: 'Asked me to pay for training',
        block: true,
      }),
    );
    const thanks = await within(page.dialog).findByRole('status');
    expect(thanks).toHaveTextContent('Thanks — your report was sent.');
    await waitFor(() =>
      expect(within(page.dialog).getByRole('button', { name: 'Close' })).toHaveFocus(),
    );
    // behind the dialog, the conversation is blocked and the row says so
    expect(await screen.findByTestId('blocked-notice')).toBeInTheDocument();
    expect(within(rowFor('Acme Robotics')).getByTestId('blocked-badge')).toBeInTheDocument();

    await page.user.click(within(page.dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(menuButton()).toHaveFocus();
  });

  it('without "also block": only the reason is sent and the conversation stays open for writing', async () => {
    const page = await openReport();
    await page.user.click(within(page.dialog).getByRole('radio', { name: 'Spam' }));
    await page.user.click(within(page.dialog).getByRole('button', { name: 'Send report' }));
    await within(page.dialog).findByText('Thanks — your report was sent.');
    expect(page.api.reportConversation).toHaveBeenCalledWith({
      messenger_user_id: 1,
      reason: 'spam',
    });
    expect(page.api.blockUser).not.toHaveBeenCalled();
    expect(screen.queryByTestId('blocked-notice')).toBeNull();
  });

  it('details over 1000 characters: the counter warns and Send waits', async () => {
    const page = await openReport();
    await page.user.click(within(page.dialog).getByRole('radio', { name: 'Other' }));
    const details = within(page.dialog).getByRole('textbox', { name: 'Details' });
    fireEvent.change(details, { target: { value: 'x'.repeat(1002) } });
    expect(within(page.dialog).getByTestId('report-details-counter')).toHaveTextContent(
      '2 characters too many: details hold at most 1000.',
    );
    expect(details).toHaveAttribute('aria-invalid', 'true');
    expect(within(page.dialog).getByRole('button', { name: 'Send report' })).toBeDisabled();
    fireEvent.change(details, { target: { value: 'x'.repeat(1000) } });
    expect(within(page.dialog).getByRole('button', { name: 'Send report' })).toBeEnabled();
  });

  it("says the server's refusal (429: the day's reports are used up; 422: the fields) and keeps what was written", async () => {
    const page = await openReport();
    page.api.reportConversation.mockRejectedValueOnce(
      new ApiError(429, 'You have sent too many reports today. Try again tomorrow.'),
    );
    await page.user.click(within(page.dialog).getByRole('radio', { name: 'Harassment' }));
    await page.user.type(within(page.dialog).getByRole('textbox', { name: 'Details' }), 'Rude');
    await page.user.click(within(page.dialog).getByRole('button', { name: 'Send report' }));
    expect(await within(page.dialog).findByRole('alert')).toHaveTextContent(
      'You have sent too many reports today. Try again tomorrow.',
    );
    expect(within(page.dialog).getByRole('textbox', { name: 'Details' })).toHaveValue('Rude');
    expect(within(page.dialog).getByRole('radio', { name: 'Harassment' })).toBeChecked();

    page.api.reportConversation.mockRejectedValueOnce(
      new ApiError(422, 'The given data was invalid.', {
        details: ['may not contain a NUL character.'],
      }),
    );
    await page.user.click(within(page.dialog).getByRole('button', { name: 'Send report' }));
    await waitFor(() =>
      expect(within(page.dialog).getByRole('alert')).toHaveTextContent(
        'The given data was invalid. may not contain a NUL character.',
      ),
    );

    page.api.reportConversation.mockRejectedValueOnce(new ApiError(0, 'Network error'));
    await page.user.click(within(page.dialog).getByRole('button', { name: 'Send report' }));
    await waitFor(() =>
      expect(within(page.dialog).getByRole('alert')).toHaveTextContent(
        'The report could not be sent. Check the connection, then try again.',
      ),
    );
    expect(screen.queryByTestId('blocked-notice')).toBeNull();
  });

  it('in Arabic', async () => {
    const page = await renderMessagesPage({ language: 'ar' });
    await page.user.click(rowFor('Acme Robotics'));
    await screen.findByText('Can you do an interview on Monday?');
    await page.user.click(screen.getByRole('button', { name: 'خيارات المحادثة' }));
    await page.user.click(screen.getByRole('menuitem', { name: 'إبلاغ' }));
    const dialog = screen.getByRole('dialog', { name: 'إبلاغ' });
    expect(within(dialog).getByRole('group', { name: 'السبب' })).toBeInTheDocument();
    expect(within(dialog).getAllByRole('radio')).toHaveLength(5);
    expect(within(dialog).getByRole('checkbox', { name: 'احظره أيضًا' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'إرسال البلاغ' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'إلغاء' })).toBeInTheDocument();
  });
});
