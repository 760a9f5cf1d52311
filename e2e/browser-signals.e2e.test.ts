import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { paths } from '../src/shared/paths.js';
import { ACME, SARA } from '../test-support/accounts.js';
import { signInOverHttp } from '../test-support/http-session.js';
import { conversationOf, initialData, sendMessage } from '../test-support/messaging.js';
import { waitForValue } from '../test-support/wait.js';
import { chatMessages, row, uniqueTag, waitForLive } from './support/messages-page.js';
import { signInWithForm } from './support/sign-in.js';
import { useE2eSuite } from './support/suite.js';

interface RecordedNotification {
  title: string;
  body: string;
  tag: string;
  lang: string;
  dir: string;
}

declare global {
  interface Window {
    /** Every notification the page constructed (see `recordNotifications`). */
    __notifications?: (RecordedNotification & { notification: Notification })[];
  }
}

/**
 * Wraps `window.Notification` before the page's scripts run so that the test sees every notification
 * the page constructs (headless Chromium may not display them).
 */
const recordNotifications = (page: Page) =>
  page.addInitScript(() => {
    const Original = window.Notification;
    const recorded: NonNullable<Window['__notifications']> = [];
    class Recording extends Original {
      constructor(title: string, options: NotificationOptions = {}) {
        super(title, options);
        recorded.push({
          title,
          body: options.body ?? '',
          tag: options.tag ?? '',
          lang: options.lang ?? '',
          dir: options.dir ?? '',
          notification: this,
        });
      }
      static override get permission() {
        return Original.permission;
      }
      static override requestPermission(...args: Parameters<typeof Original.requestPermission>) {
        return Original.requestPermission(...args);
      }
    }
    window.Notification = Recording;
    window.__notifications = recorded;
  });

const recorded = (page: Page): Promise<RecordedNotification[]> =>
  page.evaluate(() =>
    (window.__notifications ?? []).map(({ title, body, tag, lang, dir }) => ({
      title,
      body,
      tag,
      lang,
      dir,
    })),
  );

/** The tab as the browser reports it when another tab is in front (or the window is minimised). */
const setHidden = (page: Page, hidden: boolean) =>
  page.evaluate((isHidden) => {
    if (isHidden)
      Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    else delete (document as { visibilityState?: DocumentVisibilityState }).visibilityState;
    document.dispatchEvent(new Event('visibilitychange'));
  }, hidden);

const title = (page: Page) => page.title();

describe('browser signals: tab title and system notifications', () => {
  const suite = useE2eSuite({ failOnConsoleErrors: true });

  it('the title counts unread messages live; with notifications on, a message to a hidden tab shows one, and clicking it opens the conversation', async () => {
    const sara = await suite.newUser('candidate', { permissions: ['notifications'] });
    await recordNotifications(sara.page);
    await signInWithForm(sara.page, SARA);
    await waitForLive(sara);
    const page = sara.page;

    // the title: every unread message of Sara's conversations (archived ones included)
    const saraHttp = await signInOverHttp(suite.url, SARA.email);
    const saraList = (await initialData(saraHttp)).messengerUsers;
    const unread = saraList.reduce((sum, item) => sum + item.is_seen_messages_count, 0);
    // `Messages · <SITE_NAME>` (SITE_NAME unset: the default, "Messages")
    const titleFor = (count: number) =>
      count > 0 ? `(${count}) Messages · Messages` : 'Messages · Messages';
    await waitForValue(() => title(page), titleFor(unread), 'the tab title at load');

    // Acme writes to Sara: the title follows at once
    const acme = await signInOverHttp(suite.url, ACME.email);
    const record = (await initialData(acme)).messengerUsers.find(
      (item) => item.candidate_id === saraHttp.userId,
    );
    if (!record) throw new Error('Acme has no conversation with Sara in the seed');
    const toSara = conversationOf(acme.userId, record);
    const unreadWithAcme =
      saraList.find((item) => item.id === toSara.id)?.is_seen_messages_count ?? 0;
    const tag = uniqueTag();
    const first = await sendMessage(acme, toSara, `Are you free on Monday? ${tag}`);
    expect(first.ok).toBe(true);
    await waitForValue(() => title(page), titleFor(unread + 1), 'the tab title after a message');

    // the switch, turned on in the settings menu (the context has the permission: no prompt)
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const toggle = page
      .getByTestId('settings-panel')
      .getByRole('switch', { name: 'Browser notifications', exact: true });
    const saved = page.waitForResponse(
      (response) =>
        new URL(response.url()).pathname === paths.settings &&
        response.request().method() === 'PATCH',
    );
    await toggle.click();
    expect((await saved).status()).toBe(200);
    expect(await toggle.isChecked()).toBe(true);
    expect(await page.getByTestId('notification-permission-problem').textContent()).toBe('');
    await page.keyboard.press('Escape');

    // nothing while the tab is in front
    expect(await recorded(page)).toEqual([]);

    // the tab goes to the background; Acme writes again
    await setHidden(page, true);
    const text = `The interview is at 10:00 ${tag}`;
    const second = await sendMessage(acme, toSara, text);
    expect(second.ok).toBe(true);
    await waitForValue(async () => (await recorded(page)).length, 1, 'notifications shown');
    expect((await recorded(page))[0]).toEqual({
      title: ACME.name,
      body: text,
      tag: `conversation-${toSara.id}`,
      lang: 'en',
      dir: 'ltr',
    });
    await waitForValue(() => title(page), titleFor(unread + 2), 'the tab title while hidden');

    // the user clicks it: the tab comes to the front and the conversation opens
    await setHidden(page, false);
    await page.evaluate(() => {
      const shown = window.__notifications?.[0]?.notification;
      shown?.onclick?.call(shown, new Event('click'));
    });
    await waitForValue(
      () => row(page, ACME.name).getAttribute('aria-current'),
      'true',
      'the conversation opened from the notification',
    );
    await chatMessages(page, text).waitFor({ state: 'visible' });
    // its messages are read now: only the others' unread stay in the title
    await waitForValue(
      () => title(page),
      titleFor(unread - unreadWithAcme),
      'the tab title after opening it',
    );
  });
});
