import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { makeChat, users } from '../../../test-support/web/fixtures.js';
import {
  conversationList,
  messageTexts,
  renderMessagesPage,
  rowFor,
  rowIds,
} from '../../../test-support/web/render-messages-page.js';

const BROWSER_SWITCH = 'Browser notifications';
const BLOCKED =
  "Your browser did not allow notifications, so they stay off. You can allow them in the browser's settings for this site.";

/** Makes the tab hidden (or visible again) as the browser would, telling the page. */
const setTabHidden = (hidden: boolean) => {
  Object.defineProperty(document, 'visibilityState', {
    configurable: true,
    value: hidden ? 'hidden' : 'visible',
  });
  act(() => {
    document.dispatchEvent(new Event('visibilitychange'));
  });
};

afterEach(() => {
  // back to jsdom's own (visible) value
  delete (document as { visibilityState?: DocumentVisibilityState }).visibilityState;
});

type Page = Awaited<ReturnType<typeof renderMessagesPage>>;

const conversation = (page: Page, id: number) =>
  page.fake.state.conversations.find((item) => item.id === id)!;

/** A live message from the other party of conversation `id` (stored by the fake server too). */
const arrives = (
  page: Page,
  id: number,
  from: (typeof users)[keyof typeof users],
  text: string,
) => {
  const chat = makeChat(conversation(page, id), from, text);
  page.fake.receive(chat);
  act(() => page.realtime.emit(chat));
  return chat;
};

/** Lets the page finish what a live message started (the settings fetch, the notification). */
const settle = async (page: Page) => {
  await waitFor(() => expect(page.realtime.listening).toBe(true));
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
};

const settingsPanel = () => screen.getByTestId('settings-panel');

describe('tab title', () => {
  // the site's name, as the server writes it into the page (SITE_NAME)
  let siteName: HTMLMetaElement;
  beforeEach(() => {
    siteName = document.createElement('meta');
    siteName.name = 'site-name';
    siteName.content = 'Nile Jobs';
    document.head.append(siteName);
  });
  afterEach(() => siteName.remove());

  it('shows the total unread count, archived conversations included, and follows live messages', async () => {
    const page = await renderMessagesPage();
    // Acme has 2 unread
    await waitFor(() => expect(document.title).toBe('(2) Messages · Nile Jobs'));
    arrives(page, 2, users.nile, 'One more thing');
    await waitFor(() => expect(document.title).toBe('(3) Messages · Nile Jobs'));
    // a message in the archived conversation counts as well
    arrives(page, 4, users.desert, 'Still interested?');
    await waitFor(() => expect(document.title).toBe('(4) Messages · Nile Jobs'));
  });

  it('reading a conversation takes its messages off the count; the open one never adds to it', async () => {
    const page = await renderMessagesPage();
    await page.user.click(rowFor('Acme Robotics'));
    await screen.findByText('Can you do an interview on Monday?');
    await waitFor(() => expect(document.title).toBe('Messages · Nile Jobs'));
    arrives(page, 2, users.nile, 'One more thing');
    await waitFor(() => expect(document.title).toBe('(1) Messages · Nile Jobs'));
    arrives(page, 1, users.acme, 'Seen right away');
    await waitFor(() => expect(messageTexts()).toContain('Seen right away'));
    expect(document.title).toBe('(1) Messages · Nile Jobs');
  });

  it('is the plain title with nothing unread, and is translated', async () => {
    const page = await renderMessagesPage({ language: 'ar' });
    // the header names the site, in every language
    expect(screen.getByRole('heading', { level: 1, name: 'Nile Jobs' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('(2) الرسائل · Nile Jobs'));
    await page.user.click(rowFor('Acme Robotics'));
    await waitFor(() => expect(document.title).toBe('الرسائل · Nile Jobs'));
  });

  it('keeps counting every conversation while a job filter narrows the list', async () => {
    const page = await renderMessagesPage();
    await waitFor(() => expect(document.title).toBe('(2) Messages · Nile Jobs'));
    await page.user.selectOptions(screen.getByTestId('job-filter'), 'Backend Developer');
    await waitFor(() => expect(rowIds(conversationList())).toEqual([2]));
    expect(document.title).toBe('(2) Messages · Nile Jobs');
    // a message in a conversation the filter hides still counts
    arrives(page, 1, users.acme, 'Hidden by the filter');
    await waitFor(() => expect(document.title).toBe('(3) Messages · Nile Jobs'));
  });
});

describe('system notifications', () => {
  it('never asks for the permission on load', async () => {
    const page = await renderMessagesPage();
    setTabHidden(true);
    arrives(page, 2, users.nile, 'Hello?');
    await settle(page);
    expect(page.notifications.service.requestPermission).not.toHaveBeenCalled();
    expect(page.notifications.shown).toHaveLength(0);
  });

  it('shows one only when the tab is hidden, the setting is on and the browser allows it', async () => {
    const page = await renderMessagesPage({
      notificationPermission: 'granted',
      settings: { browser_notifications: true },
    });

    // visible tab: the page itself shows it
    arrives(page, 2, users.nile, 'While you look');
    await settle(page);
    expect(page.notifications.shown).toHaveLength(0);

    setTabHidden(true);
    arrives(page, 2, users.nile, 'While you are away');
    await waitFor(() => expect(page.notifications.shown).toHaveLength(1));
    expect(page.notifications.shown[0]).toMatchObject({
      title: 'Nile Software',
      body: 'While you are away',
      tag: 'conversation-2',
      lang: 'en',
      dir: 'ltr',
    });

    // a long message is cut to about 140 characters
    arrives(page, 1, users.acme, 'x'.repeat(300));
    await waitFor(() => expect(page.notifications.shown).toHaveLength(2));
    expect(page.notifications.shown[1]?.body).toBe(`${'x'.repeat(139)}…`);
    expect(page.notifications.shown[1]?.tag).toBe('conversation-1');

    // bidi overrides cannot draw it backwards: isolates, closed (no <bdi> in a notification)
    arrives(page, 2, users.nile, 'x \u202eevil');
    await waitFor(() => expect(page.notifications.shown).toHaveLength(3));
    expect(page.notifications.shown[2]?.body).toBe('x \u2067evil\u2069');

    // the browser took its permission back
    page.notifications.state.permission = 'denied';
    arrives(page, 2, users.nile, 'Blocked now');
    await settle(page);
    expect(page.notifications.shown).toHaveLength(3);
  });

  it('shows none while the setting is off, even with the permission', async () => {
    const page = await renderMessagesPage({ notificationPermission: 'granted' });
    setTabHidden(true);
    arrives(page, 2, users.nile, 'Setting is off');
    await settle(page);
    await waitFor(() => expect(page.api.getSettings).toHaveBeenCalled());
    await settle(page);
    expect(page.notifications.shown).toHaveLength(0);
  });

  it('shows none without the permission, and none for the viewer’s own messages', async () => {
    const page = await renderMessagesPage({ settings: { browser_notifications: true } });
    setTabHidden(true);
    arrives(page, 2, users.nile, 'No permission');
    await settle(page);
    expect(page.notifications.shown).toHaveLength(0);

    page.notifications.state.permission = 'granted';
    arrives(page, 2, users.sara, 'Sent from my phone');
    await settle(page);
    expect(page.notifications.shown).toHaveLength(0);
  });

  it('in Arabic: the notification says its language and direction', async () => {
    const page = await renderMessagesPage({
      language: 'ar',
      notificationPermission: 'granted',
      settings: { browser_notifications: true },
    });
    setTabHidden(true);
    arrives(page, 2, users.nile, 'مرحبا');
    await waitFor(() => expect(page.notifications.shown).toHaveLength(1));
    expect(page.notifications.shown[0]).toMatchObject({ lang: 'ar', dir: 'rtl' });
  });

  it('clicking one focuses the tab and opens that conversation', async () => {
    const page = await renderMessagesPage({
      notificationPermission: 'granted',
      settings: { browser_notifications: true },
    });
    const focus = vi.spyOn(window, 'focus').mockImplementation(() => undefined);
    setTabHidden(true);
    arrives(page, 2, users.nile, 'Please open me');
    await waitFor(() => expect(page.notifications.shown).toHaveLength(1));

    setTabHidden(false);
    act(() => page.notifications.shown[0]!.click());
    expect(focus).toHaveBeenCalled();
    expect(
      await screen.findByRole('region', { name: 'Conversation with Nile Software' }),
    ).toBeInTheDocument();
    await waitFor(() => expect(messageTexts()).toContain('Please open me'));
    expect(rowFor('Nile Software')).toHaveAttribute('aria-current', 'true');
    focus.mockRestore();
  });
});

describe('browser notifications switch', () => {
  const openMenu = async (page: Page) => {
    await page.user.click(screen.getByTestId('settings-button'));
    return within(settingsPanel()).findByRole('switch', { name: BROWSER_SWITCH });
  };

  it('turning it on asks the browser’s permission, then saves it', async () => {
    const page = await renderMessagesPage();
    const toggle = await openMenu(page);
    expect(page.notifications.service.requestPermission).not.toHaveBeenCalled();
    await page.user.click(toggle);
    expect(page.notifications.service.requestPermission).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(page.fake.state.settings.browser_notifications).toBe(true));
    expect(toggle).toBeChecked();
    expect(screen.getByTestId('notification-permission-problem')).toBeEmptyDOMElement();

    // off and on again: the permission is there, nothing more is asked
    await page.user.click(toggle);
    await waitFor(() => expect(page.fake.state.settings.browser_notifications).toBe(false));
    await page.user.click(toggle);
    await waitFor(() => expect(page.fake.state.settings.browser_notifications).toBe(true));
    expect(page.notifications.service.requestPermission).toHaveBeenCalledTimes(1);
  });

  it('refused: the switch stays off, nothing is saved, and the menu says why', async () => {
    const page = await renderMessagesPage();
    page.notifications.state.answer = 'denied';
    const toggle = await openMenu(page);
    await page.user.click(toggle);
    const problem = screen.getByTestId('notification-permission-problem');
    await waitFor(() => expect(problem).toHaveTextContent(BLOCKED));
    expect(toggle).not.toBeChecked();
    // what the switch does, then why it stayed off
    expect(toggle).toHaveAccessibleDescription(
      `Your browser shows a notice when a message arrives while this tab is in the background. ${BLOCKED}`,
    );
    // (the page saves the browser's time zone on its own; nothing about notifications)
    expect(page.api.updateSettings).not.toHaveBeenCalledWith(
      expect.objectContaining({ browser_notifications: expect.anything() }),
    );
    expect(page.fake.state.settings.browser_notifications).toBe(false);
  });

  it('in Arabic: the refusal is said in Arabic', async () => {
    const page = await renderMessagesPage({ language: 'ar' });
    page.notifications.state.answer = 'denied';
    await page.user.click(screen.getByRole('button', { name: 'الإعدادات' }));
    const toggle = await within(settingsPanel()).findByRole('switch', { name: 'إشعارات المتصفح' });
    await page.user.click(toggle);
    await waitFor(() =>
      expect(screen.getByTestId('notification-permission-problem')).toHaveTextContent(
        'لم يسمح متصفحك بالإشعارات، لذا تبقى متوقفة.',
      ),
    );
    expect(toggle).not.toBeChecked();
  });

  it('a browser without notifications says so', async () => {
    const page = await renderMessagesPage({ notificationPermission: 'unsupported' });
    const toggle = await openMenu(page);
    await page.user.click(toggle);
    await waitFor(() =>
      expect(screen.getByTestId('notification-permission-problem')).toHaveTextContent(
        'This browser cannot show notifications.',
      ),
    );
    expect(toggle).not.toBeChecked();
  });
});
