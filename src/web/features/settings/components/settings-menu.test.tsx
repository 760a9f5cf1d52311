import { screen, waitFor, within } from '@testing-library/react';
import type { UserSettingsResponse } from '../../../../shared/integration.js';
import { ApiError } from '../../../lib/api-client.js';
import { renderMessagesPage } from '../../../../../test-support/web/render-messages-page.js';
import { settingsKeys } from '../api/get-settings.js';

const LABELS = {
  email: 'E-mail me about unread messages',
  readReceipts: 'Show others when I have read their messages',
  online: 'Show others when I am online',
  browser: 'Browser notifications',
} as const;

const settingsButton = () => screen.getByRole('button', { name: 'Settings' });
const panel = () => screen.getByTestId('settings-panel');
const switchNamed = (name: string) => within(panel()).getByRole('switch', { name });

/** The page with its settings menu opened and loaded. */
const openMenu = async (options: Parameters<typeof renderMessagesPage>[0] = {}) => {
  const page = await renderMessagesPage(options);
  await page.user.click(screen.getByTestId('settings-button'));
  await within(panel()).findAllByRole('switch');
  return page;
};

const deferred = <T,>() => {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};

describe('settings menu', () => {
  it('sits next to the sound toggle and is a disclosure: collapsed until its button is pressed', async () => {
    const page = await renderMessagesPage();
    const button = settingsButton();
    expect(screen.getByTestId('mute-toggle').nextElementSibling).toContainElement(button);
    expect(button).toHaveAttribute('aria-expanded', 'false');
    const controlled = document.getElementById(button.getAttribute('aria-controls') ?? '');
    expect(controlled).toBe(panel());
    expect(panel()).not.toBeVisible();
    // the page fetches the settings once at load (the time zone is compared with the server's)
    await waitFor(() => expect(page.api.getSettings).toHaveBeenCalledTimes(1));

    await page.user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(panel()).toBeVisible();
    await within(panel()).findAllByRole('switch');
    // the menu shows them without asking again
    expect(page.api.getSettings).toHaveBeenCalledTimes(1);

    await page.user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(panel()).not.toBeVisible();
  });

  it('shows four labelled switches with the current settings, each described by what it does', async () => {
    await openMenu();
    expect(within(panel()).getAllByRole('switch')).toHaveLength(4);
    expect(switchNamed(LABELS.email)).toBeChecked();
    expect(switchNamed(LABELS.readReceipts)).toBeChecked();
    expect(switchNamed(LABELS.online)).toBeChecked();
    expect(switchNamed(LABELS.browser)).not.toBeChecked();
    for (const element of within(panel()).getAllByRole('switch')) {
      expect(element).toHaveAttribute('type', 'checkbox');
    }
    expect(switchNamed(LABELS.email)).toHaveAccessibleDescription(
      'When a message to you stays unread for a while, you get an e-mail about it.',
    );
    expect(switchNamed(LABELS.readReceipts)).toHaveAccessibleDescription(
      'Others see “Seen” under their messages once you have read them. Turned off, you do not see when others read yours either.',
    );
    expect(switchNamed(LABELS.online)).toHaveAccessibleDescription(
      'Others see when you are online and when you were last here. Turned off, you do not see theirs either.',
    );
    expect(switchNamed(LABELS.browser)).toHaveAccessibleDescription(
      'Your browser shows a notice when a message arrives while this tab is in the background.',
    );
    // every switch works: nothing says that a setting does not work yet
    expect(panel().textContent).not.toMatch(/takes effect|available/i);
  });

  it('saves a change at once, showing it before the server answers', async () => {
    const page = await openMenu();
    const answer = deferred<UserSettingsResponse>();
    page.api.updateSettings.mockImplementationOnce(() => answer.promise);

    await page.user.click(switchNamed(LABELS.online));
    expect(switchNamed(LABELS.online)).not.toBeChecked();
    expect(page.api.updateSettings).toHaveBeenCalledWith({ show_online: false });

    answer.resolve({
      settings: {
        email_notifications: true,
        read_receipts: true,
        show_online: false,
        browser_notifications: false,
        locale: 'en',
        time_zone: 'UTC',
      },
    });
    await waitFor(() => expect(page.api.updateSettings.mock.results[0]?.type).toBe('return'));
    expect(switchNamed(LABELS.online)).not.toBeChecked();
    expect(screen.getByTestId('settings-error')).toBeEmptyDOMElement();

    // the settings are the server's: reopening shows them without asking again
    await page.user.click(settingsButton());
    await page.user.click(settingsButton());
    expect(switchNamed(LABELS.online)).not.toBeChecked();
    expect(page.api.getSettings).toHaveBeenCalledTimes(1);
  });

  it('asks for the lists again after online status is saved, even when another switch was changed meanwhile', async () => {
    const page = await openMenu();
    const listLoads = page.api.getInitialData.mock.calls.length;
    const held = deferred<void>();
    const serverAnswer = page.api.updateSettings.getMockImplementation()!;
    page.api.updateSettings.mockImplementationOnce(async (patch) => {
      await held.promise;
      return serverAnswer(patch);
    });

    await page.user.click(switchNamed(LABELS.online));
    // e-mails switched while online status is still being saved
    await page.user.click(switchNamed(LABELS.email));
    await waitFor(() => expect(page.fake.state.settings.email_notifications).toBe(false));
    expect(page.api.getInitialData.mock.calls.length).toBe(listLoads);
    held.resolve();

    await waitFor(() => expect(page.fake.state.settings.show_online).toBe(false));
    await waitFor(() =>
      expect(page.api.getInitialData.mock.calls.length).toBeGreaterThan(listLoads),
    );
  });

  it('puts a change back and says so when the save fails; other switches keep theirs', async () => {
    const page = await openMenu();
    await page.user.click(switchNamed(LABELS.browser));
    await waitFor(() => expect(page.fake.state.settings.browser_notifications).toBe(true));

    const answer = deferred<UserSettingsResponse>();
    page.api.updateSettings.mockImplementationOnce(() => answer.promise);
    await page.user.click(switchNamed(LABELS.email));
    expect(switchNamed(LABELS.email)).not.toBeChecked();
    answer.reject(new ApiError(500, 'Server Error'));

    const alert = await within(panel()).findByText(
      'Your change could not be saved and was undone. Please try again.',
    );
    expect(alert.closest('[role="alert"]')).not.toBeNull();
    expect(switchNamed(LABELS.email)).toBeChecked();
    expect(switchNamed(LABELS.browser)).toBeChecked();

    // the next change that goes through clears the message
    await page.user.click(switchNamed(LABELS.email));
    await waitFor(() => expect(screen.getByTestId('settings-error')).toBeEmptyDOMElement());
    expect(switchNamed(LABELS.email)).not.toBeChecked();
    expect(page.fake.state.settings.email_notifications).toBe(false);
  });

  it('Escape closes it and gives the button its focus back', async () => {
    const page = await openMenu();
    switchNamed(LABELS.readReceipts).focus();
    await page.user.keyboard('{Escape}');
    expect(settingsButton()).toHaveAttribute('aria-expanded', 'false');
    expect(panel()).not.toBeVisible();
    expect(settingsButton()).toHaveFocus();
  });

  it('a click outside closes it; a click inside does not', async () => {
    const page = await openMenu();
    await page.user.click(within(panel()).getByText(LABELS.readReceipts).closest('li')!);
    expect(panel()).toBeVisible();
    await page.user.click(screen.getByRole('heading', { name: 'Messages' }));
    expect(settingsButton()).toHaveAttribute('aria-expanded', 'false');
    expect(panel()).not.toBeVisible();
  });

  it('says so when the settings cannot be loaded, and tries again', async () => {
    const page = await renderMessagesPage();
    await waitFor(() => expect(page.api.getSettings).toHaveBeenCalledTimes(1));
    // the page's own fetch at load failed as well: nothing is known of them
    page.queryClient.removeQueries({ queryKey: settingsKeys.all });
    page.api.getSettings.mockRejectedValueOnce(new ApiError(503, 'Service Unavailable'));
    await page.user.click(settingsButton());
    await within(panel()).findByText('Your settings could not be loaded.');
    await page.user.click(within(panel()).getByRole('button', { name: 'Try again' }));
    await within(panel()).findAllByRole('switch');
    expect(page.api.getSettings).toHaveBeenCalledTimes(3);
  });

  it('in Arabic: translated labels', async () => {
    const page = await renderMessagesPage({ language: 'ar' });
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
    await page.user.click(screen.getByRole('button', { name: 'الإعدادات' }));
    expect(
      await within(panel()).findByRole('switch', { name: 'أظهِر للآخرين حالة اتصالي' }),
    ).toBeChecked();
    expect(within(panel()).getByRole('switch', { name: 'إشعارات المتصفح' })).not.toBeChecked();
  });
});
