import { screen, waitFor, within } from '@testing-library/react';
import {
  companyScenario,
  candidateScenario,
  makeConversation,
  users,
  jobs,
} from '../../../../../test-support/web/fixtures.js';
import {
  archivedList,
  conversationList,
  renderMessagesPage,
  rowFor,
  rowIds,
} from '../../../../../test-support/web/render-messages-page.js';

describe('conversation panel', () => {
  it('search: a candidate searches companies, case-insensitive "contains"', async () => {
    const page = await renderMessagesPage();
    const search = screen.getByPlaceholderText('search company');
    await page.user.type(search, 'SOFT');
    await waitFor(() => expect(rowIds(conversationList())).toEqual([2]));
    await page.user.clear(search);
    await page.user.type(search, 'zzz');
    await waitFor(() => expect(rowIds(conversationList())).toEqual([]));
    expect(screen.getByText('No conversations match your search')).toBeInTheDocument();
  });

  it('search: a company searches candidates by name', async () => {
    const page = await renderMessagesPage({ scenario: companyScenario() });
    expect(screen.queryByPlaceholderText('search company')).not.toBeInTheDocument();
    await page.user.type(screen.getByPlaceholderText('search candidates'), 'omar k');
    await waitFor(() => expect(rowIds(conversationList())).toEqual([5]));
  });

  it('an owner also gets the candidate search', async () => {
    const scenario = companyScenario();
    await renderMessagesPage({ scenario: { ...scenario, auth: users.harbor } });
    expect(screen.getByPlaceholderText('search candidates')).toBeInTheDocument();
  });

  it('the job filter asks for the first page with job_id; back to "all jobs", the list held (kept current by events) shows at once', async () => {
    const page = await renderMessagesPage();
    const filter = screen.getByTestId('job-filter');
    expect(
      within(filter)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['all jobs', 'Robotics Engineer', 'Backend Developer', 'Product Designer']);
    await page.user.selectOptions(filter, 'Backend Developer');
    expect(page.api.getInitialData).toHaveBeenCalledWith(
      expect.objectContaining({ jobId: 101, limit: 50, archived: false }),
    );
    await waitFor(() => expect(rowIds(conversationList())).toEqual([2]));
    // the other jobs stay offered
    expect(within(filter).getAllByRole('option')).toHaveLength(4);

    const calls = page.api.getInitialData.mock.calls.length;
    await page.user.selectOptions(filter, 'all jobs');
    await waitFor(() => expect(rowIds(conversationList())).toEqual([1, 2, 3]));
    expect(page.api.getInitialData.mock.calls.length).toBe(calls);
  });

  it('Filter (or Enter in the search box) applies the search and the job together: reloads the list and counts the result', async () => {
    const page = await renderMessagesPage();
    const calls = page.api.getInitialData.mock.calls.length;
    await page.user.click(screen.getByRole('button', { name: 'Filter' }));
    // the first page of the active list and of the archived section, again
    await waitFor(() => expect(page.api.getInitialData.mock.calls.length).toBe(calls + 2));
    expect(
      page.api.getInitialData.mock.calls.slice(calls).map(([params]) => params.archived),
    ).toEqual([false, true]);
    expect(await screen.findByTestId('filter-result')).toHaveTextContent('4 conversations found');

    // changing the search hides the stale count; Enter in the search box applies it with the job
    const search = screen.getByPlaceholderText('search company');
    await page.user.type(search, 'acme');
    expect(screen.queryByTestId('filter-result')).not.toBeInTheDocument();
    await page.user.selectOptions(screen.getByTestId('job-filter'), 'Robotics Engineer');
    await page.user.type(search, '{Enter}');
    await waitFor(() =>
      expect(screen.getByTestId('filter-result')).toHaveTextContent('1 conversation found'),
    );
    expect(page.api.getInitialData).toHaveBeenCalledWith(
      expect.objectContaining({ jobId: 100, limit: 50, archived: false }),
    );
    expect(rowIds(conversationList())).toEqual([1]);
  });

  it('the job filter carries each full job title as a tooltip (long titles end in an ellipsis)', async () => {
    const page = await renderMessagesPage();
    const filter = screen.getByTestId('job-filter');
    const option = within(filter).getByRole('option', { name: 'Robotics Engineer' });
    expect(option).toHaveAttribute('title', 'Robotics Engineer');
    await page.user.selectOptions(filter, 'Robotics Engineer');
    expect(filter).toHaveAttribute('title', 'Robotics Engineer');
  });

  it('archived conversations have their own section; archive and unarchive move rows', async () => {
    const page = await renderMessagesPage();
    expect(screen.getByRole('heading', { name: 'archived messages' })).toBeInTheDocument();
    expect(rowIds(conversationList())).toEqual([1, 2, 3]);
    expect(rowIds(archivedList())).toEqual([4]);
    expect(conversationList()).toHaveStyle({ maxHeight: '320px' });
    expect(archivedList()).toHaveStyle({ maxHeight: '350px' });

    const nileItem = rowFor('Nile Software', conversationList()).parentElement!;
    await page.user.click(within(nileItem).getByRole('button', { name: 'Archive' }));
    expect(page.api.archiveConversation).toHaveBeenCalledWith(2);
    await waitFor(() => expect(rowIds(archivedList())).toEqual([2, 4]));
    expect(rowIds(conversationList())).toEqual([1, 3]);

    const desertItem = rowFor('Desert Bloom Studios', archivedList()).parentElement!;
    await page.user.click(within(desertItem).getByRole('button', { name: 'Unarchive' }));
    expect(page.api.unarchiveConversation).toHaveBeenCalledWith(4);
    await waitFor(() =>
      expect(rowIds(conversationList())).toEqual([1, 2, 3, 4].filter((id) => id !== 2)),
    );
    expect(rowIds(archivedList())).toEqual([2]);
    expect(screen.getByTestId('live-region')).toHaveTextContent(
      'Conversation with Desert Bloom Studios moved back',
    );
  });

  it('without archived conversations the list may grow to 944px and the section is absent', async () => {
    const scenario = candidateScenario();
    scenario.conversations = scenario.conversations.filter((item) => item.candidate_archive === 0);
    await renderMessagesPage({ scenario });
    expect(conversationList()).toHaveStyle({ maxHeight: '944px' });
    expect(screen.queryByTestId('archived-list')).not.toBeInTheDocument();
  });

  it('a failed archive puts the row back', async () => {
    const page = await renderMessagesPage();
    page.api.archiveConversation.mockRejectedValueOnce(new Error('boom'));
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const nileItem = rowFor('Nile Software', conversationList()).parentElement!;
    await page.user.click(within(nileItem).getByRole('button', { name: 'Archive' }));
    await waitFor(() => expect(rowIds(conversationList())).toEqual([1, 2, 3]));
    errors.mockRestore();
  });

  it('10,000 conversations: only the visible rows are rendered, and search still works', async () => {
    const scenario = candidateScenario();
    scenario.conversations = Array.from({ length: 10_000 }, (_, index) =>
      makeConversation({
        id: index + 1,
        candidate: users.sara,
        company: {
          id: 20_000 + index,
          role: 'company',
          name: `Company ${index + 1}`,
          suspended: false,
        },
        job: jobs.robotics,
      }),
    );
    const page = await renderMessagesPage({ scenario });
    const rendered = rowIds(conversationList()).length;
    expect(rendered).toBeGreaterThan(5);
    expect(rendered).toBeLessThan(40);
    await page.user.type(screen.getByPlaceholderText('search company'), 'Company 9999');
    await waitFor(() => expect(rowIds(conversationList())).toEqual([9999]));
  });

  it('the list is one Tab stop: its current row and that row’s archive button', async () => {
    const page = await renderMessagesPage();
    const list = conversationList();
    const tabbable = () =>
      [...list.querySelectorAll<HTMLElement>('button')].filter((button) => button.tabIndex >= 0);
    const acme = rowFor('Acme Robotics', list);
    const acmeArchive = within(acme.parentElement!).getByRole('button', { name: 'Archive' });
    expect(tabbable()).toEqual([acme, acmeArchive]);

    // Tab from the filter reaches the first row, then its archive button, then leaves the list
    screen.getByRole('button', { name: 'Filter' }).focus();
    await page.user.tab();
    expect(acme).toHaveFocus();
    await page.user.tab();
    expect(acmeArchive).toHaveFocus();
    await page.user.tab();
    expect(list).not.toContainElement(document.activeElement as HTMLElement);

    // the row moved to with the arrows becomes the Tab stop
    acme.focus();
    await page.user.keyboard('{ArrowDown}');
    const nile = rowFor('Nile Software', list);
    expect(nile).toHaveFocus();
    expect(tabbable()).toEqual([
      nile,
      within(nile.parentElement!).getByRole('button', { name: 'Archive' }),
    ]);
  });

  it('arrow keys move between rows', async () => {
    const page = await renderMessagesPage();
    rowFor('Acme Robotics').focus();
    await page.user.keyboard('{ArrowDown}');
    expect(rowFor('Nile Software')).toHaveFocus();
    await page.user.keyboard('{End}');
    expect(rowFor('Blue Harbor Logistics')).toHaveFocus();
    await page.user.keyboard('{Home}');
    expect(rowFor('Acme Robotics')).toHaveFocus();
    await page.user.keyboard('{Enter}');
    expect(await screen.findByText('Can you do an interview on Monday?')).toBeInTheDocument();
  });

  it('a last-message preview with bidi controls cannot draw backwards: isolates inside a <bdi>', async () => {
    const scenario = candidateScenario();
    scenario.conversations[0]!.last_message = 'x \u202eevil';
    await renderMessagesPage({ scenario });
    const preview = rowFor('Acme Robotics', conversationList()).querySelector(
      '.conversation-row__preview',
    )!;
    expect(preview.textContent).toBe('x \u2067evil');
    expect(preview.querySelector('bdi')?.textContent).toBe('x \u2067evil');
    // plain text is drawn as it is
    const plain = rowFor('Nile Software', conversationList()).querySelector(
      '.conversation-row__preview',
    )!;
    expect(plain.querySelector('bdi')).toBeNull();
  });
});
