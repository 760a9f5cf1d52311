import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createUnsubscribeTokens } from '../src/server/modules/notifications/unsubscribe-token.js';
import type { Page } from 'playwright-core';
import { ACME, OMAR, SARA } from '../test-support/accounts.js';
import { WAIT } from '../test-support/wait.js';
import {
  archivedList,
  chatMessages,
  conversationList,
  openConversation,
  row,
  sendFromUi,
  uniqueTag,
  waitForLive,
  waitForMessagesPage,
} from './support/messages-page.js';
import { signInWithForm } from './support/sign-in.js';
import { useE2eSuite } from './support/suite.js';

const panel = (page: Page) => page.getByTestId('settings-panel');

/** Opens the settings menu and switches `name` (waiting for the save to be answered). */
const toggleSetting = async (page: Page, name: string) => {
  if ((await page.getByTestId('settings-button').getAttribute('aria-expanded')) !== 'true')
    await page.getByTestId('settings-button').click();
  const control = panel(page).getByRole('switch', { name, exact: true });
  const saved = page.waitForResponse(
    (response) =>
      response.url().includes('/user/settings') && response.request().method() === 'PATCH',
  );
  await control.click();
  expect((await saved).status()).toBe(200);
};

/** Issue 32: settings that say what they do, privacy both ways, archive both ways, e-mail pages. */
describe('issue 32: settings, archive and e-mail pages', () => {
  const suite = useE2eSuite({ failOnConsoleErrors: true });

  it('replying in a conversation one archived brings it back to one’s active list, without a reload', async () => {
    const sara = await suite.newUser('sara-archive');
    await signInWithForm(sara.page, SARA);
    const page = sara.page;
    await waitForMessagesPage(page);
    // the demo has one conversation Sara archived
    await openConversation(page, 'Cedar Health', archivedList(page));
    await sendFromUi(page, `Still interested ${uniqueTag()}`);
    await expect.poll(() => row(conversationList(page), 'Cedar Health').count(), WAIT).toBe(1);
    await expect.poll(() => archivedList(page).count(), WAIT).toBe(0);
    // and it stays there
    await page.reload();
    await waitForMessagesPage(page);
    await row(conversationList(page), 'Cedar Health').waitFor();
    expect(await archivedList(page).count()).toBe(0);
    await suite.close(sara);
  });

  it('settings say what each switch does, and privacy works both ways: hiding mine hides theirs', async () => {
    const sara = await suite.newUser('sara-privacy');
    const acme = await suite.newUser('acme-privacy');
    await signInWithForm(sara.page, SARA);
    await signInWithForm(acme.page, ACME);
    await waitForLive(sara);
    await waitForLive(acme);
    const page = sara.page;
    const acmeRow = row(conversationList(page), ACME.name);
    await acmeRow.getByTestId('online-marker').waitFor();

    // #2: each switch is described by what it does; nothing says it does not work yet
    await page.getByTestId('settings-button').click();
    await panel(page).getByRole('switch').first().waitFor();
    const text = (await panel(page).textContent()) ?? '';
    expect(text).not.toMatch(/takes effect|available/i);
    expect(text).toContain('Turned off, you do not see when others read yours either.');
    expect(text).toContain('Turned off, you do not see theirs either.');

    // #12: online status hidden: Acme, who shows it, no longer looks online to Sara
    await toggleSetting(page, 'Show others when I am online');
    await expect.poll(() => acmeRow.getByTestId('online-marker').count(), WAIT).toBe(0);

    // read receipts off: Acme reading Sara's message is not shown to her
    await toggleSetting(page, 'Show others when I have read their messages');
    await page.keyboard.press('Escape');
    await openConversation(page, ACME.name);
    const mine = `Any news on my application? ${uniqueTag()}`;
    await sendFromUi(page, mine);
    const receipt = page.getByTestId('message-receipt');
    await expect.poll(() => receipt.textContent(), WAIT).toBe('Sent');
    await openConversation(acme.page, SARA.name);
    const reply = `We are reviewing it ${uniqueTag()}`;
    await sendFromUi(acme.page, reply);
    // the reply came after the reading: had "Seen" been sent, it would be here by now
    await chatMessages(page, reply).waitFor();
    expect(await receipt.textContent()).toBe('Sent');
    await page.reload();
    await waitForMessagesPage(page);
    await openConversation(page, ACME.name);
    await page.getByTestId('message-receipt').waitFor();
    expect(await page.getByTestId('message-receipt').textContent()).toBe('Sent');
    expect(await row(conversationList(page), ACME.name).getByTestId('online-marker').count()).toBe(
      0,
    );
    await suite.close(sara);
    await suite.close(acme);
  });

  it('saves the browser’s time zone once signed in, and the language the user picks (for e-mails)', async () => {
    const omar = await suite.newUser('omar-language', { timezoneId: 'Asia/Riyadh' });
    const page = omar.page;
    const savedZone = page.waitForResponse(
      (response) =>
        response.url().includes('/user/settings') &&
        response.request().method() === 'PATCH' &&
        (response.request().postData() ?? '').includes('time_zone'),
    );
    await signInWithForm(page, OMAR);
    await waitForMessagesPage(page);
    const zoneAnswer = await savedZone;
    expect(zoneAnswer.status()).toBe(200);
    expect(JSON.parse(zoneAnswer.request().postData() ?? '{}')).toEqual({
      time_zone: 'Asia/Riyadh',
    });

    const savedLanguage = page.waitForResponse(
      (response) =>
        response.url().includes('/user/settings') && response.request().method() === 'PATCH',
    );
    await page.getByTestId('language-switch').selectOption('ar');
    const languageAnswer = await savedLanguage;
    expect(languageAnswer.status()).toBe(200);
    expect(((await languageAnswer.json()) as { settings: unknown }).settings).toMatchObject({
      locale: 'ar',
      time_zone: 'Asia/Riyadh',
    });

    // kept by the server: what the e-mails read
    const stored = await page.evaluate(async () => {
      const config = (await (await fetch('/messenger/config')).json()) as { key: string };
      const answer = await fetch(`/user/settings?key=${encodeURIComponent(config.key)}`, {
        headers: { Accept: 'application/json' },
      });
      return ((await answer.json()) as { settings: unknown }).settings;
    });
    expect(stored).toMatchObject({ locale: 'ar', time_zone: 'Asia/Riyadh' });

    // a reload does not save the zone again
    let saves = 0;
    page.on('request', (request) => {
      if (request.url().includes('/user/settings') && request.method() === 'PATCH') saves += 1;
    });
    await page.reload();
    await waitForMessagesPage(page);
    await row(conversationList(page), ACME.name).waitFor();
    expect(saves).toBe(0);
    await suite.close(omar);
  });

  it('the unsubscribe pages look like the sign-in page, link back to Messages and can be undone', async () => {
    // the link an e-mail would carry: signed with the deployment's secret (first writer wins)
    const db = new Database(suite.server.databaseFile);
    let token: string;
    try {
      db.pragma('busy_timeout = 10000');
      db.prepare(
        "insert into app_settings (name, value, created_at) values ('unsubscribe_secret', ?, ?) on conflict (name) do nothing",
      ).run('e2e-unsubscribe-secret-0123456789abcdef', new Date().toISOString());
      const { value } = db
        .prepare("select value from app_settings where name = 'unsubscribe_secret'")
        .get() as { value: string };
      const { id } = db.prepare('select id from users where email = ?').get(SARA.email) as {
        id: number;
      };
      token = createUnsubscribeTokens(value).tokenFor(id);
    } finally {
      db.close();
    }
    const visitor = await suite.newUser('unsubscribe');
    const page = visitor.page;
    await page.goto(`/unsubscribe?token=${encodeURIComponent(token)}`);

    const looksLikeSignIn = async () => {
      const card = page.locator('.login-card');
      await card.waitFor();
      const style = await card.evaluate((element) => {
        const css = getComputedStyle(element);
        return {
          font: getComputedStyle(document.body).fontFamily,
          shadow: css.boxShadow,
          maxWidth: css.maxInlineSize,
        };
      });
      expect(style.font).not.toMatch(/^"?Times New Roman"?$|^serif$/);
      expect(style.shadow).not.toBe('none');
      expect(style.maxWidth).toBe('440px');
      const back = page.getByRole('link', { name: 'Back to Messages', exact: true });
      expect(await back.getAttribute('href')).toBe('/messages');
    };

    await looksLikeSignIn();
    await page.getByRole('button', { name: 'Turn off e-mails', exact: true }).click();
    await page.getByRole('heading', { name: 'Notification e-mails are off' }).waitFor();
    await looksLikeSignIn();
    // the undo carries its own short-lived token, not the one every e-mail holds
    const undo = new URL(
      (await page.locator('form').getAttribute('action')) ?? '',
      'http://undo.invalid',
    );
    expect(undo.pathname).toBe('/unsubscribe/undo');
    expect(undo.searchParams.get('token')).toMatch(/^\d+\.\d+\.[\w-]{43}$/);
    expect(await page.locator('input[name="List-Unsubscribe"]').count()).toBe(0);
    await page.getByRole('button', { name: 'Undo: turn e-mails back on', exact: true }).click();
    await page.getByRole('heading', { name: 'Notification e-mails are on again' }).waitFor();
    await looksLikeSignIn();
    await page.getByRole('link', { name: 'Back to Messages', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/login' || url.pathname === '/messages');
    await suite.close(visitor);
  });
});
