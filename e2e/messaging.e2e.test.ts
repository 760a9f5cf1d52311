import { beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../src/shared/paths.js';
import { ACME, NILE, OMAR, SARA } from '../test-support/accounts.js';
import { documentStillMarked, markDocument } from '../test-support/browser.js';
import { signInOverHttp } from '../test-support/http-session.js';
import { initialData } from '../test-support/messaging.js';
import { WAIT } from '../test-support/wait.js';
import type { UserPage } from './support/browser.js';
import {
  archiveButton,
  archivedList,
  chatIds,
  chatMessages,
  conversationList,
  expectMessageOnce,
  openConversation,
  row,
  sendFromUi,
  uniqueTag,
  unreadBadge,
  waitForLive,
  waitForMessagesPage,
} from './support/messages-page.js';
import { signInWithDemoButton, signInWithForm } from './support/sign-in.js';
import { useE2eSuite } from './support/suite.js';

/**
 * Issue 4: a candidate (Sara Haddad) and a company (Acme Robotics) signed in side by side in two browser
 * contexts against the real server and a fresh demo database.
 */
describe('messaging page: two people side by side', () => {
  const suite = useE2eSuite({ failOnConsoleErrors: true });
  let sara: UserPage;
  let acme: UserPage;

  beforeAll(async () => {
    sara = await suite.newUser('candidate');
    acme = await suite.newUser('company');
    await signInWithForm(sara.page, SARA);
    await signInWithDemoButton(acme.page, ACME);
  });

  it('exchanges messages live in both directions', async () => {
    await openConversation(sara.page, ACME.name);
    await openConversation(acme.page, SARA.name);
    await waitForLive(sara);
    await waitForLive(acme);
    await markDocument(sara.page);
    await markDocument(acme.page);

    const tag = uniqueTag();
    const fromSara = `Hello from Sara ${tag}`;
    await sendFromUi(sara.page, fromSara);
    await expectMessageOnce(acme.page, fromSara);

    const fromAcme = `Hello Sara, this is Acme ${tag}`;
    await sendFromUi(acme.page, fromAcme);
    await expectMessageOnce(sara.page, fromAcme);

    // both sides show the same conversation, each message once, and neither page was reloaded
    await expect.poll(() => chatIds(acme.page), WAIT).toEqual(await chatIds(sara.page));
    expect(new Set(await chatIds(sara.page)).size).toBe((await chatIds(sara.page)).length);
    expect(await documentStillMarked(sara.page)).toBe(true);
    expect(await documentStillMarked(acme.page)).toBe(true);
    // the list preview follows the last message
    await expect.poll(() => row(sara.page, ACME.name).textContent(), WAIT).toContain(fromAcme);
  });

  it('raises the unread badge of a conversation that is not open; opening it clears the badge for good', async () => {
    // Acme looks at Omar's conversation, so Sara's is not open
    await openConversation(acme.page, OMAR.name);
    await waitForLive(acme);
    expect(await unreadBadge(acme.page, SARA.name).count()).toBe(0);

    const tag = uniqueTag();
    const first = `Are you still there? ${tag}`;
    const second = `I have one more question ${tag}`;
    await sendFromUi(sara.page, first);
    await sendFromUi(sara.page, second);

    await expect.poll(() => unreadBadge(acme.page, SARA.name).textContent(), WAIT).toBe('2');
    // the accessible name of the row carries the unread count
    expect(await row(acme.page, `${SARA.name}, 2`).count()).toBe(1);
    // the message did not land in the open (other) conversation
    expect(await chatMessages(acme.page, tag).count()).toBe(0);

    await openConversation(acme.page, SARA.name);
    await expectMessageOnce(acme.page, first);
    await expectMessageOnce(acme.page, second);
    await expect.poll(() => unreadBadge(acme.page, SARA.name).count(), WAIT).toBe(0);

    await acme.page.reload();
    await waitForMessagesPage(acme.page);
    await row(acme.page, SARA.name).waitFor();
    await row(acme.page, OMAR.name).waitFor();
    expect(await unreadBadge(acme.page, SARA.name).count()).toBe(0);
    expect(await unreadBadge(acme.page, OMAR.name).count()).toBe(0);
  });

  it('search narrows the list: "search company" for a candidate, "search candidates" for a company', async () => {
    const saraSearch = sara.page.getByPlaceholder('search company', { exact: true });
    expect(await sara.page.getByPlaceholder('search candidates', { exact: true }).count()).toBe(0);
    const saraList = conversationList(sara.page);

    await saraSearch.fill('nile');
    await expect.poll(() => saraList.getByTestId('conversation-row').count(), WAIT).toBe(1);
    expect(await row(saraList, NILE.name).count()).toBe(1);

    await saraSearch.fill('ACME');
    await expect.poll(() => row(saraList, ACME.name).count(), WAIT).toBe(1);
    expect(await saraList.getByTestId('conversation-row').count()).toBe(1);

    await saraSearch.fill('no such company');
    await expect.poll(() => sara.page.getByTestId('conversation-row').count(), WAIT).toBe(0);

    await saraSearch.fill('');
    await expect.poll(() => saraList.getByTestId('conversation-row').count(), WAIT).toBe(3);

    const acmeSearch = acme.page.getByPlaceholder('search candidates', { exact: true });
    expect(await acme.page.getByPlaceholder('search company', { exact: true }).count()).toBe(0);
    const acmeList = conversationList(acme.page);
    await acmeSearch.fill('omar');
    await expect.poll(() => acmeList.getByTestId('conversation-row').count(), WAIT).toBe(1);
    expect(await row(acmeList, OMAR.name).count()).toBe(1);
    await acmeSearch.fill('');
    await expect.poll(() => acmeList.getByTestId('conversation-row').count(), WAIT).toBe(4);
  });

  it('the job filter narrows the list', async () => {
    const filter = acme.page.locator('select[data-testid="job-filter"]');
    const options = await filter.locator('option').allTextContents();
    expect(options[0]).toBe('all jobs');
    expect(options).toEqual(
      expect.arrayContaining([
        'Senior Robotics Engineer',
        'Embedded Software Developer',
        'QA Technician',
      ]),
    );
    const active = conversationList(acme.page);

    await filter.selectOption({ label: 'Embedded Software Developer' });
    await expect.poll(() => active.getByTestId('conversation-row').count(), WAIT).toBe(1);
    expect(await row(active, 'Maya Chen').count()).toBe(1);
    // Lina's conversation about that job is archived by Acme
    await expect.poll(() => row(archivedList(acme.page), 'Lina Farouk').count(), WAIT).toBe(1);

    await filter.selectOption({ label: 'QA Technician' });
    await expect.poll(() => row(active, 'Youssef Nasser').count(), WAIT).toBe(1);
    expect(await active.getByTestId('conversation-row').count()).toBe(1);
    expect(await archivedList(acme.page).count()).toBe(0);

    await filter.selectOption({ label: 'all jobs' });
    await expect.poll(() => active.getByTestId('conversation-row').count(), WAIT).toBe(4);
    for (const name of [SARA.name, OMAR.name, 'Maya Chen', 'Youssef Nasser'])
      expect(await row(active, name).count(), name).toBe(1);

    // a candidate's filter offers the jobs of its conversations
    const saraFilter = sara.page.locator('select[data-testid="job-filter"]');
    await saraFilter.selectOption({ label: 'Frontend Developer' });
    const saraList = conversationList(sara.page);
    await expect.poll(() => saraList.getByTestId('conversation-row').count(), WAIT).toBe(1);
    expect(await row(saraList, NILE.name).count()).toBe(1);
    await saraFilter.selectOption({ label: 'all jobs' });
    await expect.poll(() => saraList.getByTestId('conversation-row').count(), WAIT).toBe(3);
  });

  it('the archived section appears when needed and archiving moves a row', async () => {
    const page = sara.page;
    // the demo has one conversation Sara archived
    await row(archivedList(page), 'Cedar Health').waitFor();
    expect(await page.getByRole('heading', { name: /^archived messages$/i }).count()).toBe(1);

    // unarchiving the only archived conversation moves it back and the section goes away
    await archiveButton(archivedList(page), 'Cedar Health', 'Unarchive').click();
    await expect.poll(() => row(conversationList(page), 'Cedar Health').count(), WAIT).toBe(1);
    await expect.poll(() => archivedList(page).count(), WAIT).toBe(0);

    // archiving brings the section back with that row in it
    await archiveButton(conversationList(page), NILE.name, 'Archive').click();
    await expect.poll(() => row(archivedList(page), NILE.name).count(), WAIT).toBe(1);
    expect(await row(conversationList(page), NILE.name).count()).toBe(0);

    // it is stored, not only shown
    await page.reload();
    await waitForMessagesPage(page);
    await row(archivedList(page), NILE.name).waitFor();
    expect(await row(conversationList(page), NILE.name).count()).toBe(0);
    expect(await row(conversationList(page), 'Cedar Health').count()).toBe(1);

    // back to the demo state
    await archiveButton(archivedList(page), NILE.name, 'Unarchive').click();
    await expect.poll(() => row(conversationList(page), NILE.name).count(), WAIT).toBe(1);
    await archiveButton(conversationList(page), 'Cedar Health', 'Archive').click();
    await expect.poll(() => row(archivedList(page), 'Cedar Health').count(), WAIT).toBe(1);
  });

  it('/messages?target=<other party>&tab=<conversation> opens that conversation, also through sign-in', async () => {
    const data = await initialData(await signInOverHttp(suite.url, SARA.email));
    const withNile = data.messengerUsers.find((item) => item.company.user.name === NILE.name);
    if (!withNile) throw new Error('the demo conversation with Nile Software is missing');
    const deepLink = `/messages?target=${withNile.company_id}&tab=${withNile.id}`;

    await sara.page.goto(deepLink);
    await waitForMessagesPage(sara.page);
    await expectMessageOnce(sara.page, 'Unfortunately it has just been closed.');
    await expect
      .poll(() => row(sara.page, NILE.name).getAttribute('aria-current'), WAIT)
      .toBe('true');
    expect(
      await sara.page.getByRole('heading', { name: 'Frontend Developer' }).count(),
    ).toBeGreaterThan(0);

    // signed out, the link goes through the sign-in page and still lands on the conversation
    const visitor = await suite.newUser('visitor');
    await visitor.page.goto(deepLink);
    await visitor.page.waitForURL((url) => url.pathname === paths.login);
    await visitor.page.getByLabel('Email', { exact: true }).fill(SARA.email);
    await visitor.page.getByLabel('Password', { exact: true }).fill('password');
    await visitor.page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await visitor.page.waitForURL(
      (url) => url.pathname === '/messages' && url.searchParams.get('tab') === String(withNile.id),
    );
    await waitForMessagesPage(visitor.page);
    await expectMessageOnce(visitor.page, 'Unfortunately it has just been closed.');
    await suite.close(visitor);
  });

  it('shows a message with markup as text on both sides (no element, no script)', async () => {
    const attack = '<img src=x onerror=alert(1)>';
    await openConversation(sara.page, ACME.name);
    await openConversation(acme.page, SARA.name);
    await waitForLive(acme);

    await sendFromUi(sara.page, attack);
    await expectMessageOnce(acme.page, attack);

    for (const user of [sara, acme]) {
      const bubble = chatMessages(user.page, attack);
      expect(await bubble.isVisible(), user.label).toBe(true);
      expect(await bubble.getByText(attack, { exact: true }).count(), user.label).toBe(1);
      expect(await user.page.locator('#messageChatBox img[src="x"]').count(), user.label).toBe(0);
      expect(user.problems.dialogs, user.label).toEqual([]);
    }

    // the same after loading it from the server again (history and list preview)
    await acme.page.reload();
    await waitForMessagesPage(acme.page);
    await expectMessageOnce(acme.page, attack);
    expect(await acme.page.locator('#messageChatBox img[src="x"]').count()).toBe(0);
    expect(await row(acme.page, SARA.name).textContent()).toContain(attack);
    expect(acme.problems.dialogs).toEqual([]);
  });
});
