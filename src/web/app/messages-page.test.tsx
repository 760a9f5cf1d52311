import { act, screen, waitFor, within } from '@testing-library/react';
import { candidateScenario, companyScenario } from '../../../test-support/web/fixtures.js';
import {
  conversationList,
  renderMessagesPage,
  rowFor,
} from '../../../test-support/web/render-messages-page.js';
import { setSmallScreen } from '../../../test-support/web/setup.js';
import { paths } from '../../shared/paths.js';

/** The top bar's controls in the order a keyboard or screen-reader user meets them. */
/** The page's top bar (the first banner: an open chat's header may be one too). */
const topBar = () => screen.getAllByRole('banner')[0]!;
/** The top bar's controls one can reach (not those in the closed settings panel). */
const topBarControls = () =>
  [...topBar().querySelectorAll<HTMLElement>('button, select, input, a[href]')].filter(
    (control) => control.closest('[hidden]') === null,
  );

/** Holds the next messages call until the returned function is called. */
const holdNextMessages = (page: Awaited<ReturnType<typeof renderMessagesPage>>): (() => void) => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const original = page.api.getMessages.getMockImplementation()!;
  page.api.getMessages.mockImplementationOnce(async (body) => {
    await gate;
    return original(body);
  });
  return release;
};

describe('messages page: conversation panel and selecting', () => {
  it('shows the placeholder until a conversation is selected', async () => {
    await renderMessagesPage();
    expect(screen.getByRole('heading', { name: 'all messages' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'no message item selected' })).toBeInTheDocument();
    expect(screen.getByText('please select message item from messages list')).toBeInTheDocument();
    expect(screen.queryByPlaceholderText('Write Message...')).not.toBeInTheDocument();
  });

  it('names each row by the other party and its unread count, then what it shows; the badge shows only when non-zero', async () => {
    await renderMessagesPage();
    const list = conversationList();
    const acme = rowFor(/^Acme Robotics, 2 unread/, list);
    expect(within(acme).getByTestId('unread-badge')).toHaveTextContent('2');
    // the visible text is part of the name (WCAG 2.5.3): job and preview too
    expect(acme).toHaveAccessibleName(/Robotics Engineer/);
    const nile = rowFor('Nile Software', list);
    expect(nile).not.toHaveAccessibleName(/unread/);
    expect(within(nile).queryByTestId('unread-badge')).not.toBeInTheDocument();
    // a candidate sees the company's name, logo and the job title
    expect(within(acme).getByText('Robotics Engineer')).toBeInTheDocument();
    // the logo once decoded (the initials until then)
    await waitFor(() =>
      expect(acme.querySelector('img')).toHaveAttribute('src', '/images/companies/acme.svg'),
    );
    // no logo: initials
    expect(within(nile).getByText('NS')).toBeInTheDocument();
    // a conversation without a job reads 'No Title'
    expect(within(rowFor('Blue Harbor Logistics', list)).getByText('No Title')).toBeInTheDocument();
  });

  it('a company sees candidate names and photos, and the job of each conversation', async () => {
    await renderMessagesPage({ scenario: companyScenario() });
    const list = conversationList();
    const sara = rowFor('Sara Haddad', list);
    await waitFor(() =>
      expect(sara.querySelector('img')).toHaveAttribute('src', '/images/candidates/sara.svg'),
    );
    // Two candidates about different jobs are told apart by the job on their rows.
    expect(within(sara).getByText('Robotics Engineer')).toBeInTheDocument();
    expect(rowFor(/^Omar Khalil, 1 unread/, list)).toBeInTheDocument();
  });

  it('selecting: highlighted, spinner and disabled input while loading, unread to 0, then the messages', async () => {
    const page = await renderMessagesPage();
    const release = holdNextMessages(page);

    await page.user.click(rowFor('Acme Robotics'));

    expect(page.api.getMessages).toHaveBeenCalledWith({ receiver_id: 10, job_id: 100 });
    expect(screen.getByText('Loading messages…')).toBeInTheDocument();
    expect(screen.getByPlaceholderText('Write Message...')).toBeDisabled();
    const row = rowFor('Acme Robotics', conversationList());
    expect(row).not.toHaveAccessibleName(/unread/);
    expect(row).toHaveAttribute('aria-current', 'true');
    expect(within(row).queryByTestId('unread-badge')).not.toBeInTheDocument();

    release();
    expect(await screen.findByText('Can you do an interview on Monday?')).toBeInTheDocument();
    expect(screen.queryByText('Loading messages…')).not.toBeInTheDocument();
    expect(screen.getByPlaceholderText('Write Message...')).toBeEnabled();
    expect(screen.getAllByTestId('chat-message')).toHaveLength(3);
    expect(screen.getAllByTestId('date-separator')).toHaveLength(2);
  });

  it('the header shows the job, its status and deadline, and the company for a candidate', async () => {
    const page = await renderMessagesPage();
    await page.user.click(rowFor('Acme Robotics'));
    const chat = await screen.findByTestId('chat-pane');
    await within(chat).findByText('Can you do an interview on Monday?');
    expect(
      within(chat).getByRole('heading', { level: 2, name: 'Robotics Engineer' }),
    ).toBeInTheDocument();
    expect(within(chat).getByText('active')).toBeInTheDocument();
    expect(within(chat).getByText(/job expires in/)).toHaveTextContent(
      'job expires in Dec 31, 2026',
    );

    await page.user.click(rowFor('Nile Software'));
    await within(screen.getByTestId('chat-pane')).findByText('The role is closed, sorry.');
    expect(within(screen.getByTestId('chat-pane')).getByText('inactive')).toBeInTheDocument();
    // A closed job with a past deadline does not "expire in" the past.
    expect(within(screen.getByTestId('chat-pane')).getByText(/expired on/)).toHaveTextContent(
      'closed; expired on Oct 1, 2026',
    );
    expect(
      within(screen.getByTestId('chat-pane')).queryByText(/job expires in/),
    ).not.toBeInTheDocument();

    await page.user.click(rowFor('Blue Harbor Logistics'));
    await waitFor(() =>
      expect(
        within(screen.getByTestId('chat-pane')).getByRole('heading', { level: 2 }),
      ).toHaveTextContent('No Title'),
    );
  });

  it('a job without a deadline (the host may leave it out) shows its title and status, and no date', async () => {
    const scenario = candidateScenario();
    // Desert Studio's conversation, about the Product Designer job (deadline null), not archived
    scenario.conversations = scenario.conversations.map((conversation) =>
      conversation.id === 4 ? { ...conversation, candidate_archive: 0 } : conversation,
    );
    const page = await renderMessagesPage({ scenario });
    await page.user.click(rowFor(/Product Designer/));
    const chat = await screen.findByTestId('chat-pane');
    await within(chat).findByText('Archived hello');
    const header = within(chat)
      .getByRole('heading', { level: 2, name: 'Product Designer' })
      .closest('header')!;
    expect(within(header).getByText('active')).toBeInTheDocument();
    expect(within(header).queryByText(/expire/)).not.toBeInTheDocument();
    expect(header).not.toHaveTextContent(/Invalid|NaN|null/);
    expect(header.querySelector('time')).toBeNull();
  });

  it('a company sees the candidate and the application group in the header', async () => {
    const page = await renderMessagesPage({ scenario: companyScenario() });
    await page.user.click(rowFor('Omar Khalil'));
    const chat = screen.getByTestId('chat-pane');
    await within(chat).findByText('Hi from Omar');
    expect(page.api.getMessages).toHaveBeenCalledWith({ receiver_id: 2, job_id: 100 });
    expect(within(chat).getByText('Application group: Shortlist')).toBeInTheDocument();
    // others' messages carry the sender name
    expect(within(screen.getByTestId('chat-message')).getByText('Omar Khalil')).toBeInTheDocument();
  });

  it('opens the conversation named by ?target=&tab= on load and keeps the address in step', async () => {
    const page = await renderMessagesPage({ search: '?target=11&tab=2' });
    expect(await screen.findByText('The role is closed, sorry.')).toBeInTheDocument();
    expect(page.api.getMessages).toHaveBeenCalledWith({ receiver_id: 11, job_id: 101 });
    // opened by the address, not by the user: the focus stays where it was
    expect(screen.getByPlaceholderText('Write Message...')).not.toHaveFocus();

    await page.user.click(rowFor('Acme Robotics'));
    expect(new URL(location.href).searchParams.get('target')).toBe('10');
    expect(new URL(location.href).searchParams.get('tab')).toBe('1');
  });

  it('opening a conversation from the list puts the focus in its message box once it takes input', async () => {
    const page = await renderMessagesPage();
    await page.user.click(rowFor('Acme Robotics'));
    await screen.findByText('Can you do an interview on Monday?');
    await waitFor(() => expect(screen.getByPlaceholderText('Write Message...')).toHaveFocus());

    // by keyboard too
    rowFor('Nile Software').focus();
    await page.user.keyboard('{Enter}');
    await waitFor(() => expect(page.api.getMessages).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(screen.getByPlaceholderText('Write Message...')).toHaveFocus());
  });

  it('does not take the focus from the search field while the messages load', async () => {
    const page = await renderMessagesPage();
    const release = holdNextMessages(page);
    await page.user.click(rowFor('Acme Robotics'));
    const search = screen.getByPlaceholderText('search company');
    await page.user.click(search);
    release();
    await screen.findByText('Can you do an interview on Monday?');
    expect(screen.getByPlaceholderText('Write Message...')).toBeEnabled();
    expect(search).toHaveFocus();
  });

  it('the skip link comes first and leads to the chat, or to the open conversation’s message box', async () => {
    const page = await renderMessagesPage();
    await page.user.tab();
    const skip = screen.getByRole('link', { name: 'Skip to conversation' });
    expect(skip).toHaveFocus();
    await page.user.keyboard('{Enter}');
    expect(screen.getByRole('main')).toHaveFocus();

    await page.user.click(rowFor('Acme Robotics'));
    await screen.findByText('Can you do an interview on Monday?');
    const link = screen.getByRole('link', { name: 'Skip to message box' });
    rowFor('Acme Robotics').focus();
    await page.user.click(link);
    expect(screen.getByPlaceholderText('Write Message...')).toHaveFocus();
  });

  it('signs out', async () => {
    const page = await renderMessagesPage();
    await page.user.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(page.api.logout).toHaveBeenCalled();
    await waitFor(() => expect(page.navigate).toHaveBeenCalledWith(paths.login));
  });
});

describe('messages page: the top bar', () => {
  it('wide: the title, then language, sound, settings and sign-out, each with its name', async () => {
    await renderMessagesPage();
    const banner = topBar();
    expect(within(banner).getByRole('heading', { level: 1, name: 'Messages' })).toBeVisible();
    const [language, sound, settings, signOut, ...rest] = topBarControls();
    expect(rest).toEqual([]);
    expect(language).toHaveAccessibleName('Language');
    expect(language).toHaveDisplayValue('English');
    expect(sound).toHaveAccessibleName('Mute notification sound');
    expect(settings).toHaveAccessibleName('Settings');
    expect(signOut).toHaveAccessibleName('Sign out');
    expect(signOut).toHaveTextContent('Sign out');
  });

  it('small screen: the list is the page (no drawer button); with a chat open the Messages (drawer) button comes first; the language box shows its code', async () => {
    const page = await renderMessagesPage({ smallScreen: true });
    expect(screen.queryByTestId('open-drawer')).not.toBeInTheDocument();
    expect(topBarControls()).toHaveLength(4);
    await page.user.click(rowFor('Nile Software'));
    await screen.findByText('The role is closed, sorry.');
    const [messages, language, sound, settings, signOut, ...rest] = topBarControls();
    expect(rest).toEqual([]);
    expect(messages).toHaveAccessibleName('Messages');
    expect(messages).toHaveAttribute('aria-haspopup', 'dialog');
    expect(messages).toHaveAttribute('aria-expanded', 'false');
    expect(language).toHaveAccessibleName('Language');
    expect(sound).toHaveAccessibleName('Mute notification sound');
    // icon-only on small screens (the label is hidden by CSS), still named and with a tooltip
    expect(settings).toHaveAccessibleName('Settings');
    expect(settings).toHaveAttribute('title', 'Settings');
    expect(signOut).toHaveAccessibleName('Sign out');
    expect(signOut).toHaveAttribute('title', 'Sign out');

    const banner = topBar();
    expect(within(banner).getByText('EN')).toBeInTheDocument();
    await page.user.selectOptions(language!, 'ar');
    await waitFor(() => expect(within(banner).getByText('AR')).toBeInTheDocument());
    expect(topBarControls()[0]).toHaveAccessibleName('الرسائل');
  });

  it('the Messages button tells whether the drawer is open', async () => {
    const page = await renderMessagesPage();
    act(() => setSmallScreen(true));
    await page.user.click(rowFor('Nile Software'));
    const opener = await screen.findByTestId('open-drawer');
    await page.user.click(opener);
    expect(screen.getByRole('dialog', { name: 'all messages' })).toBeInTheDocument();
    expect(opener).toHaveAttribute('aria-expanded', 'true');
    await page.user.keyboard('{Escape}');
    expect(opener).toHaveAttribute('aria-expanded', 'false');
  });
});

describe('messages page: a conversation whose other party was erased', () => {
  const erasedScenario = () => {
    const scenario = companyScenario();
    const [sara] = scenario.conversations;
    if (!sara) throw new Error('no conversation');
    sara.candidate.user.name = 'Deleted user';
    sara.candidate.user.image_url = null;
    sara.closed = true;
    scenario.chats.set(
      sara.id,
      (scenario.chats.get(sara.id) ?? []).map((chat) =>
        chat.sender_id === sara.candidate_id
          ? { ...chat, sender: { ...chat.sender, name: 'Deleted user' } }
          : chat,
      ),
    );
    return scenario;
  };

  it('keeps the messages, says the conversation is closed instead of offering a composer', async () => {
    const page = await renderMessagesPage({ scenario: erasedScenario() });
    await page.user.click(rowFor('Deleted user', conversationList()));
    expect(await screen.findByText('Hello Acme')).toBeInTheDocument();
    expect(screen.getByTestId('conversation-closed')).toHaveTextContent(
      /the other person’s account was deleted/,
    );
    expect(screen.queryByPlaceholderText('Write Message...')).not.toBeInTheDocument();
  });

  it('names the erased person in the viewer’s language', async () => {
    await renderMessagesPage({ scenario: erasedScenario(), language: 'ar' });
    expect(await within(conversationList()).findByText('مستخدم محذوف')).toBeInTheDocument();
    expect(within(conversationList()).queryByText('Deleted user')).not.toBeInTheDocument();
  });
});
