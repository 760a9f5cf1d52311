import type { Page, Response } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/server/db/database.js';
import { integrationPaths } from '../src/shared/integration.js';
import {
  BLOCKED_MESSAGE,
  moderationPaths,
  reportsResponseSchema,
  safetyPaths,
} from '../src/shared/safety.js';
import { ACME, DANIEL, HARBOR, OMAR, ORBIT, SARA } from '../test-support/accounts.js';
import { WAIT, waitForValue } from '../test-support/wait.js';
import { expectNoAxeViolations } from './support/axe.js';
import { WIDE } from './support/browser.js';
import {
  chatMessages,
  expectMessageOnce,
  messageInput,
  openConversation,
  row,
  selectConversation,
  uniqueTag,
  waitForLive,
  waitForMessagesPage,
} from './support/messages-page.js';
import { signInWithForm } from './support/sign-in.js';
import { useE2eSuite } from './support/suite.js';

const INTEGRATION_KEY = 'e2e-safety-integration-key-0123456789abcdef';
const DANIEL_EXTERNAL_ID = 'host-user-daniel';

const menuButton = (page: Page) =>
  page.getByRole('button', { name: 'Conversation options', exact: true });
const isFocused = (page: Page, locator: ReturnType<Page['getByRole']>) =>
  locator.evaluate((element) => element === document.activeElement);

/** The page's next answer to `method path` (a RegExp: any path it matches). */
const nextAnswer = (page: Page, method: string, path: string | RegExp): Promise<Response> =>
  page.waitForResponse((response) => {
    const pathname = new URL(response.url()).pathname;
    return (
      response.request().method() === method &&
      (typeof path === 'string' ? pathname === path : path.test(pathname))
    );
  });

/** Opens a conversation whose composer is replaced by a notice (blocked, suspended): no message box to wait for. */
const openWithNotice = async (page: Page, name: string, noticeTestId: string) => {
  await selectConversation(page, name);
  await page.getByTestId(noticeTestId).waitFor();
};

/**
 * Keeping people safe, in the browser against the real server: a block stops the other party's
 * sends on their page, a report goes to the host with "also block", and a suspended user reads
 * but has no composer.
 */
describe('keeping people safe: block, report, suspension', () => {
  const suite = useE2eSuite({
    env: { INTEGRATION_KEYS: INTEGRATION_KEY },
    failOnConsoleErrors: true,
    // the blocked party's send is refused on purpose (403), and logged by the page
    allowConsole: [/status of 403/, /ApiError/, /Message not sent/],
  });

  const hostApi = async (method: 'GET' | 'PUT', path: string, body?: unknown) => {
    const response = await fetch(new URL(path, suite.url), {
      method,
      headers: {
        authorization: `Bearer ${INTEGRATION_KEY}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.status, `${method} ${path}: ${await response.clone().text()}`).toBe(200);
    return response.json() as Promise<unknown>;
  };

  beforeAll(async () => {
    // the host knows Daniel by its own id (as after importing its users)
    const db = openDatabase(suite.server.database.url);
    try {
      await db.kysely
        .updateTable('users')
        .set({ external_id: DANIEL_EXTERNAL_ID })
        .where('email', '=', DANIEL.email)
        .execute();
    } finally {
      await db.destroy();
    }
  });

  it('Sara blocks Acme from the conversation menu (keyboard): Acme’s send fails on Acme’s page with the neutral message and the text stays; Unblock lets the retry through', async () => {
    const sara = await suite.newUser('sara', { viewport: WIDE, bypassCSP: true });
    const acme = await suite.newUser('acme', { viewport: WIDE });
    await signInWithForm(sara.page, SARA);
    await signInWithForm(acme.page, ACME);
    await openConversation(sara.page, ACME.name);
    await openConversation(acme.page, SARA.name);

    // the menu button: Enter opens the menu on its first item; axe finds nothing serious
    const button = menuButton(sara.page);
    expect(await button.getAttribute('aria-haspopup')).toBe('menu');
    await button.focus();
    await sara.page.keyboard.press('Enter');
    await sara.page.getByRole('menu', { name: 'Conversation options' }).waitFor();
    const block = sara.page.getByRole('menuitem', { name: 'Block', exact: true });
    await expect.poll(() => isFocused(sara.page, block), WAIT).toBe(true);
    expect(await sara.page.getByRole('menuitem').allTextContents()).toEqual(['Block', 'Report']);
    await expectNoAxeViolations(sara.page, 'the open conversation menu');
    // Escape closes it and gives the button its focus back
    await sara.page.keyboard.press('Escape');
    await sara.page.getByRole('menu').waitFor({ state: 'detached' });
    expect(await isFocused(sara.page, button)).toBe(true);

    const blocked = nextAnswer(sara.page, 'POST', safetyPaths.blocks);
    await sara.page.keyboard.press('ArrowDown');
    await expect.poll(() => isFocused(sara.page, block), WAIT).toBe(true);
    await sara.page.keyboard.press('Enter');
    expect([200, 201]).toContain((await blocked).status());
    await sara.page
      .getByTestId('blocked-notice')
      .getByText("You blocked this person. They can't send you messages.")
      .waitFor();
    expect(await messageInput(sara.page).count()).toBe(0);
    await row(sara.page, ACME.name).getByTestId('blocked-badge').waitFor();

    // Acme writes: refused on Acme's page with the server's neutral words; the text stays
    const text = `Are you still interested? ${uniqueTag()}`;
    const refused = nextAnswer(acme.page, 'POST', '/user/send/message');
    await messageInput(acme.page).fill(text);
    await acme.page.getByRole('button', { name: 'Send', exact: true }).click();
    expect((await refused).status()).toBe(403);
    await acme.page.getByTestId('send-failed').getByText(BLOCKED_MESSAGE).waitFor();
    await waitForValue(() => messageInput(acme.page).inputValue(), text, 'the kept text');
    expect(await chatMessages(acme.page, text).count()).toBe(0);
    expect(await chatMessages(sara.page, text).count()).toBe(0);

    // the block is the server's: after a reload the list and the conversation still say so
    await sara.page.reload();
    await waitForMessagesPage(sara.page);
    await row(sara.page, ACME.name).getByTestId('blocked-badge').waitFor();
    if ((await row(sara.page, ACME.name).getAttribute('aria-current')) !== 'true')
      await openWithNotice(sara.page, ACME.name, 'blocked-notice');
    await sara.page.getByTestId('blocked-notice').waitFor();
    await waitForLive(sara);

    // Unblock from the notice: the composer is back, and Acme's retry reaches Sara
    const unblocked = nextAnswer(sara.page, 'DELETE', /^\/user\/blocks\/\d+$/);
    await sara.page
      .getByTestId('blocked-notice')
      .getByRole('button', { name: 'Unblock', exact: true })
      .click();
    expect((await unblocked).status()).toBe(204);
    await messageInput(sara.page).waitFor();
    expect(await row(sara.page, ACME.name).getByTestId('blocked-badge').count()).toBe(0);
    await acme.page.getByRole('button', { name: 'Retry', exact: true }).click();
    await expectMessageOnce(sara.page, text);
    await expectMessageOnce(acme.page, text);

    await suite.close(sara);
    await suite.close(acme);
  });

  it('Omar reports Blue Harbor with the dialog (reason, details, also block): thanked, the conversation is blocked, and the host reads the report', async () => {
    const omar = await suite.newUser('omar', { viewport: WIDE, bypassCSP: true });
    await signInWithForm(omar.page, OMAR);
    await openConversation(omar.page, HARBOR.name);

    // Up on the menu button opens the menu on its last item: Report
    await menuButton(omar.page).focus();
    await omar.page.keyboard.press('ArrowUp');
    const report = omar.page.getByRole('menuitem', { name: 'Report', exact: true });
    await expect.poll(() => isFocused(omar.page, report), WAIT).toBe(true);
    await omar.page.keyboard.press('Enter');

    const dialog = omar.page.getByRole('dialog', { name: 'Report' });
    await dialog.waitFor();
    expect(await dialog.getAttribute('aria-modal')).toBe('true');
    const reasons = dialog.getByRole('group', { name: 'Reason' });
    expect(await reasons.getByRole('radio').count()).toBe(5);
    await expect
      .poll(() => isFocused(omar.page, reasons.getByRole('radio', { name: 'Spam' })), WAIT)
      .toBe(true);
    await expectNoAxeViolations(omar.page, 'the open report dialog');

    // Tab stays inside the dialog
    for (let step = 0; step < 8; step += 1) {
      await omar.page.keyboard.press('Tab');
      expect(
        await dialog.evaluate((element) => element.contains(document.activeElement)),
        `the focus after ${step + 1} Tab(s)`,
      ).toBe(true);
    }

    const tag = uniqueTag();
    await reasons.getByRole('radio', { name: 'Scam' }).check();
    await dialog
      .getByRole('textbox', { name: 'Details' })
      .fill(`Asked for a fee to book the interview ${tag}`);
    await dialog.getByRole('checkbox', { name: 'Also block' }).check();
    const sent = nextAnswer(omar.page, 'POST', safetyPaths.reports);
    await dialog.getByRole('button', { name: 'Send report', exact: true }).click();
    const answer = await sent;
    expect(answer.status()).toBe(201);
    expect(((await answer.json()) as { report: { status: string } }).report.status).toBe('open');
    await dialog.getByText('Thanks — your report was sent.').waitFor();

    // closed: the focus is back on the menu button; the conversation is blocked
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await isFocused(omar.page, menuButton(omar.page))).toBe(true);
    await omar.page.getByTestId('blocked-notice').waitFor();
    await row(omar.page, HARBOR.name).getByTestId('blocked-badge').waitFor();

    // the host sees it, with the conversation's messages as they were
    const { reports } = reportsResponseSchema.parse(
      await hostApi('GET', `${moderationPaths.reports}?status=open`),
    );
    const filed = reports.find((item) => item.details?.includes(tag));
    expect(filed?.reason).toBe('scam');
    expect(filed?.messages.length).toBeGreaterThan(0);
    await suite.close(omar);
  });

  it('a suspended user reads their conversations, and the page says so in place of the composer (both languages)', async () => {
    await hostApi('PUT', integrationPaths.user(DANIEL_EXTERNAL_ID), {
      role: 'candidate',
      name: DANIEL.name,
      suspended: true,
    });
    const daniel = await suite.newUser('daniel', { viewport: WIDE, bypassCSP: true });
    await signInWithForm(daniel.page, DANIEL);
    await openWithNotice(daniel.page, ORBIT.name, 'suspended-notice');
    await daniel.page
      .getByTestId('suspended-notice')
      .getByText('Your account is suspended. You can still read your messages', { exact: false })
      .waitFor();
    expect(await messageInput(daniel.page).count()).toBe(0);
    expect(await daniel.page.getByRole('button', { name: 'Send', exact: true }).count()).toBe(0);
    expect(await chatMessages(daniel.page).count()).toBeGreaterThan(0);
    await expectNoAxeViolations(daniel.page, 'a suspended user’s conversation');

    await daniel.page.goto('/messages?lang=ar');
    await waitForMessagesPage(daniel.page);
    await openWithNotice(daniel.page, ORBIT.name, 'suspended-notice');
    await daniel.page
      .getByTestId('suspended-notice')
      .getByText('حسابك موقوف.', { exact: false })
      .waitFor();
    expect(await messageInput(daniel.page, 'اكتب رسالة...').count()).toBe(0);
    await suite.close(daniel);
  });
});
