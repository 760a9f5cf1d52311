import type { Locator, Page, Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { paths } from '../src/shared/paths.js';
import { OMAR } from '../test-support/accounts.js';
import { boxOf, PHONE, WIDE } from './support/browser.js';
import { WAIT } from '../test-support/wait.js';
import { waitForMessagesPage } from './support/messages-page.js';
import { signInWithForm } from './support/sign-in.js';
import { useE2eSuite } from './support/suite.js';

const ONLINE_EN = 'Show others when I am online';
const ONLINE_AR = 'أظهِر للآخرين حالة اتصالي';

const settingsButton = (page: Page, name = 'Settings'): Locator =>
  page.getByRole('button', { name, exact: true });
const panel = (page: Page): Locator => page.getByTestId('settings-panel');
const switchNamed = (page: Page, name: string): Locator =>
  panel(page).getByRole('switch', { name, exact: true });

/** Opens the menu and waits for its switches (the settings are fetched when it first opens). */
const openMenu = async (page: Page, buttonName?: string) => {
  const button = settingsButton(page, buttonName);
  await button.click();
  await switchNamed(page, buttonName === undefined ? ONLINE_EN : ONLINE_AR).waitFor();
  expect(await button.getAttribute('aria-expanded')).toBe('true');
};

/** The page's next PATCH of the settings. */
const nextSave = (page: Page): Promise<Response> =>
  page.waitForResponse(
    (response) =>
      new URL(response.url()).pathname === paths.settings &&
      response.request().method() === 'PATCH',
  );

/** `show_online` as a successful save answered it. */
const savedShowOnline = async (response: Response): Promise<boolean> => {
  expect(response.status()).toBe(200);
  return ((await response.json()) as { settings: { show_online: boolean } }).settings.show_online;
};

describe('settings menu', () => {
  const suite = useE2eSuite({ failOnConsoleErrors: true });

  it('switching "Show others when I am online" off is saved: still off after a reload, and in Arabic the menu reads right to left', async () => {
    const omar = await suite.newUser('settings', { viewport: WIDE });
    await signInWithForm(omar.page, OMAR);
    const page = omar.page;

    await openMenu(page);
    const online = switchNamed(page, ONLINE_EN);
    expect(await online.isChecked()).toBe(true);
    expect(await panel(page).getByRole('switch').count()).toBe(4);

    const saved = nextSave(page);
    await online.click();
    // shown at once (the optimistic update lands a moment after the click)
    await expect.poll(() => online.isChecked(), WAIT).toBe(false);
    expect(await savedShowOnline(await saved)).toBe(false);

    // Escape closes the menu and gives the button its focus back
    await page.keyboard.press('Escape');
    await panel(page).waitFor({ state: 'hidden' });
    expect(await settingsButton(page).evaluate((button) => button === document.activeElement)).toBe(
      true,
    );

    await page.reload();
    await waitForMessagesPage(page);
    await openMenu(page);
    expect(await switchNamed(page, ONLINE_EN).isChecked()).toBe(false);
    expect(await switchNamed(page, 'E-mail me about unread messages').isChecked()).toBe(true);

    // a click outside closes it
    await page.getByRole('heading', { name: 'Messages', exact: true }).click();
    await panel(page).waitFor({ state: 'hidden' });

    // Arabic, on a phone: right to left, Arabic labels, the saved choice, inside the window
    await page.setViewportSize(PHONE);
    await page.goto('/messages?lang=ar');
    await waitForMessagesPage(page);
    await openMenu(page, 'الإعدادات');
    expect(await panel(page).evaluate((element) => getComputedStyle(element).direction)).toBe(
      'rtl',
    );
    const onlineAr = switchNamed(page, ONLINE_AR);
    expect(await onlineAr.isChecked()).toBe(false);
    for (const label of [
      'راسلني بالبريد الإلكتروني بشأن الرسائل غير المقروءة',
      'أظهِر للآخرين أنني قرأت رسائلهم',
      'إشعارات المتصفح',
    ]) {
      expect(await switchNamed(page, label).count()).toBe(1);
    }
    expect(await panel(page).textContent()).not.toMatch(/[A-Za-z]{3,}/);
    // the label reads first, so it sits on the right of its switch
    const label = await boxOf(panel(page).getByText(ONLINE_AR, { exact: true }));
    const control = await boxOf(onlineAr);
    expect(control.x + control.width).toBeLessThanOrEqual(label.x + 1);
    const box = await boxOf(panel(page));
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);

    // and a change in Arabic is saved the same way
    const savedAgain = nextSave(page);
    await onlineAr.click();
    expect(await savedShowOnline(await savedAgain)).toBe(true);
    await suite.close(omar);
  });
});
