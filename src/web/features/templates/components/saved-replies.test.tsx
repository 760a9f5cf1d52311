import { screen, waitFor, within } from '@testing-library/react';
import type { Template } from '../../../../shared/saved-replies.js';
import { ApiError } from '../../../lib/api-client.js';
import { axeViolations } from '../../../../../test-support/web/axe.js';
import { companyScenario, type Scenario } from '../../../../../test-support/web/fixtures.js';
import {
  renderMessagesPage,
  rowFor,
} from '../../../../../test-support/web/render-messages-page.js';

const template = (id: number, name: string, body: string): Template => ({
  id,
  name,
  body,
  updated_at: '2026-11-20T10:00:00.000Z',
});

const INVITATION = template(
  1,
  'Interview invitation',
  'Hi {{candidate.first_name}}, we would like to interview you for {{job.title}}. {{me.name}}',
);
const RECEIVED = template(2, 'Application received', 'Thanks {{candidate.name}}, we got it.');
const FILLED_INVITATION =
  'Hi Sara, we would like to interview you for Robotics Engineer. Acme Robotics';

/** Acme (company) with Sara's conversation about Robotics Engineer open. */
const openSara = async (templates: Template[] = [INVITATION, RECEIVED]) => {
  const scenario: Scenario = { ...companyScenario(), templates };
  const page = await renderMessagesPage({ scenario });
  await page.user.click(rowFor('Sara Haddad'));
  await screen.findByText('Hello Acme');
  return page;
};

const composer = () => screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Message' });
const optionNames = () =>
  within(screen.getByRole('listbox', { name: 'Saved replies' }))
    .getAllByRole('option')
    .map((option) => option.querySelector('.saved-replies__name')?.textContent);
const options = () =>
  within(screen.getByRole('listbox', { name: 'Saved replies' })).getAllByRole('option');
const status = () => screen.getByTestId('saved-replies-status');

describe('saved replies in the composer', { timeout: 30_000 }, () => {
  it('opens from the "Saved replies" button: a search field, the list by name, filtering, and arrow keys + Enter insert the reply with the conversation’s values, not sent', async () => {
    const page = await openSara();
    await page.user.type(composer(), 'Hello.');
    const button = screen.getByRole('button', { name: 'Saved replies' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    await page.user.click(button);
    const search = screen.getByRole('combobox', { name: 'Search saved replies' });
    await waitFor(() => expect(search).toHaveFocus());
    await waitFor(() =>
      expect(optionNames()).toEqual(['Application received', 'Interview invitation']),
    );
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(status()).toHaveTextContent('2 saved replies');
    // each option shows the start of its body
    expect(options()[1]).toHaveTextContent(/Hi \{\{candidate\.first_name\}\}/);
    expect(await axeViolations(screen.getByTestId('chat-pane'))).toEqual([]);

    await page.user.type(search, 'got');
    expect(optionNames()).toEqual(['Application received']);
    expect(status()).toHaveTextContent('1 saved reply');
    await page.user.clear(search);
    await page.user.type(search, 'nothing like it');
    expect(screen.queryByRole('listbox', { name: 'Saved replies' })).toBeNull();
    expect(status()).toHaveTextContent('No saved replies match.');
    await page.user.clear(search);

    expect(options()[0]).toHaveAttribute('aria-selected', 'true');
    await page.user.keyboard('{ArrowDown}');
    expect(options()[1]).toHaveAttribute('aria-selected', 'true');
    expect(search).toHaveAttribute('aria-activedescendant', options()[1]!.id);
    await page.user.keyboard('{ArrowDown}');
    expect(options()[0]).toHaveAttribute('aria-selected', 'true'); // round again
    await page.user.keyboard('{ArrowUp}');
    expect(options()[1]).toHaveAttribute('aria-selected', 'true'); // and back
    await page.user.keyboard('{Enter}');

    expect(screen.queryByTestId('saved-replies-picker')).toBeNull();
    const box = composer();
    expect(box.value).toBe(`Hello. ${FILLED_INVITATION}`);
    await waitFor(() => expect(box).toHaveFocus());
    expect(box.selectionStart).toBe(box.value.length);
    expect(page.api.sendMessage).not.toHaveBeenCalled();
  });

  it('opens with / typed first in an empty message box; what follows filters; Enter puts the filled reply in place of /query', async () => {
    const page = await openSara();
    await page.user.type(composer(), '/');
    expect(await screen.findByTestId('saved-replies-picker')).toBeInTheDocument();
    await waitFor(() => expect(optionNames()).toHaveLength(2));
    expect(composer()).toHaveFocus();
    await page.user.type(composer(), 'interv');
    expect(optionNames()).toEqual(['Interview invitation']);
    expect(composer()).toHaveAttribute(
      'aria-controls',
      screen.getByTestId('saved-replies-picker').id,
    );
    expect(composer()).toHaveAttribute(
      'aria-activedescendant',
      within(screen.getByRole('listbox', { name: 'Saved replies' })).getByRole('option').id,
    );
    await page.user.keyboard('{Enter}');
    expect(composer().value).toBe(FILLED_INVITATION);
    expect(screen.queryByTestId('saved-replies-picker')).toBeNull();
    expect(composer()).toHaveFocus();
    expect(composer()).not.toHaveAttribute('aria-activedescendant');
    expect(page.api.sendMessage).not.toHaveBeenCalled();
    // Enter now sends what the box holds
    await page.user.keyboard('{Enter}');
    await waitFor(() => expect(page.api.sendMessage).toHaveBeenCalledTimes(1));
    expect(page.api.sendMessage.mock.calls[0]![0].message).toBe(FILLED_INVITATION);
  });

  it('Escape closes the list and leaves the message box focused; / in a box that holds text opens nothing', async () => {
    const page = await openSara();
    await page.user.type(composer(), '/app');
    await waitFor(() => expect(optionNames()).toEqual(['Application received']));
    await page.user.keyboard('{Escape}');
    expect(screen.queryByTestId('saved-replies-picker')).toBeNull();
    expect(composer()).toHaveFocus();
    expect(composer().value).toBe('/app');

    await page.user.clear(composer());
    await page.user.type(composer(), 'a/b /');
    expect(screen.queryByTestId('saved-replies-picker')).toBeNull();

    // from the button's search field, Escape gives the message box the focus
    await page.user.click(screen.getByRole('button', { name: 'Saved replies' }));
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Search saved replies' })).toHaveFocus(),
    );
    await page.user.keyboard('{Escape}');
    expect(screen.queryByTestId('saved-replies-picker')).toBeNull();
    expect(composer()).toHaveFocus();
  });

  it('says how to add one when there are none, with "Manage saved replies"', async () => {
    const page = await openSara([]);
    await page.user.click(screen.getByRole('button', { name: 'Saved replies' }));
    expect(await screen.findByText(/You have no saved replies yet/)).toBeInTheDocument();
    await page.user.click(screen.getByRole('button', { name: 'Manage saved replies' }));
    const dialog = await screen.findByRole('dialog', { name: 'Saved replies' });
    expect(within(dialog).getByText('No saved replies yet.')).toBeInTheDocument();
    expect(screen.queryByTestId('saved-replies-picker')).toBeNull();
  });
});

describe('managing saved replies', { timeout: 30_000 }, () => {
  it('adds one (with a variable chip), shows the server’s refusal next to its field, edits and deletes one after a confirmation', async () => {
    const page = await openSara([RECEIVED]);
    await page.user.click(screen.getByRole('button', { name: 'Saved replies' }));
    await page.user.click(await screen.findByRole('button', { name: 'Manage saved replies' }));
    const dialog = await screen.findByRole('dialog', { name: 'Saved replies' });
    expect(await axeViolations(dialog)).toEqual([]);

    // add
    await page.user.click(within(dialog).getByRole('button', { name: 'Add saved reply' }));
    await page.user.type(within(dialog).getByLabelText('Name'), 'Follow-up');
    const body = within(dialog).getByLabelText('Text');
    await page.user.type(body, 'Hello ');
    await page.user.click(within(dialog).getByRole('button', { name: 'Candidate’s first name' }));
    expect(body).toHaveValue('Hello {{candidate.first_name}}');
    page.api.createTemplate.mockRejectedValueOnce(
      new ApiError(422, 'You can keep at most 100 saved replies.', {
        name: ['You can keep at most 100 saved replies.'],
      }),
    );
    await page.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    const nameError = await within(dialog).findByTestId('template-name-error');
    expect(nameError).toHaveTextContent('You can keep at most 100 saved replies.');
    expect(within(dialog).getByLabelText('Name')).toHaveAttribute('aria-describedby', nameError.id);
    await page.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(
        within(dialog)
          .getAllByRole('listitem')
          .map((item) => item.firstChild?.textContent),
      ).toEqual(['Application received', 'Follow-up']),
    );
    // saving in the dialog is not a send of the composer's message
    expect(page.api.sendMessage).not.toHaveBeenCalled();
    expect(page.api.createTemplate).toHaveBeenLastCalledWith({
      name: 'Follow-up',
      body: 'Hello {{candidate.first_name}}',
    });

    // edit
    await page.user.click(within(dialog).getByRole('button', { name: 'Edit Follow-up' }));
    const name = within(dialog).getByLabelText('Name');
    expect(name).toHaveValue('Follow-up');
    await page.user.clear(name);
    await page.user.type(name, 'Checking in');
    await page.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await within(dialog).findByText('Checking in');
    expect(page.fake.state.templates.map((item) => item.name)).toContain('Checking in');

    // delete, after a confirmation
    await page.user.click(
      within(dialog).getByRole('button', { name: 'Delete Application received' }),
    );
    expect(
      within(dialog).getByText(
        'Delete the saved reply “Application received”? This cannot be undone.',
      ),
    ).toBeInTheDocument();
    expect(page.api.deleteTemplate).not.toHaveBeenCalled();
    await page.user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(within(dialog).queryByText('Application received')).toBeNull());
    expect(page.api.deleteTemplate).toHaveBeenCalledWith(RECEIVED.id);

    // closed: the picker offers what was saved
    await page.user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await page.user.click(screen.getByRole('button', { name: 'Saved replies' }));
    await waitFor(() => expect(optionNames()).toEqual(['Checking in']));
    await page.user.keyboard('{Enter}');
    expect(composer().value).toBe('Hello Sara');
  });
});
