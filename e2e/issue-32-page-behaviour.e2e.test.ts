/**
 * Issue 32, page behaviour, in real Chromium against the built server:
 * - a live connection that is gone is said ("Offline — reconnecting…", a polite status) and the
 *   partner is not claimed "online" meanwhile; back online the notice goes and what was sent
 *   meanwhile arrives;
 * - files of a draft survive a reload (and go with the message), expired ones are dropped and said;
 * - archiving shows a visible "Archived · Undo" toast whose Undo brings the conversation back.
 */
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ACME, SARA } from '../test-support/accounts.js';
import { LONG_WAIT, WAIT } from '../test-support/wait.js';
import type { UserPage } from './support/browser.js';
import {
  archiveButton,
  archivedList,
  chatMessages,
  conversationList,
  expectMessageOnce,
  messageInput,
  openConversation,
  row,
  sendFromUi,
  uniqueTag,
  waitForLive,
  waitForMessagesPage,
} from './support/messages-page.js';
import { signInWithDemoButton, signInWithForm } from './support/sign-in.js';
import { useE2eSuite } from './support/suite.js';

const pdfNamed = (name: string) => ({
  name,
  mimeType: 'application/pdf',
  buffer: Buffer.concat([Buffer.from('%PDF-1.4\n% a draft file\n'), randomBytes(20_000)]),
});

describe('issue 32: what the page says and keeps', () => {
  // offline on purpose: failed requests and socket errors are logged, uncaught errors still fail
  const suite = useE2eSuite({ failOnConsoleErrors: false });
  let sara: UserPage;
  let acme: UserPage;

  beforeAll(async () => {
    sara = await suite.newUser('candidate', { controlLive: true });
    acme = await suite.newUser('company');
    await signInWithForm(sara.page, SARA);
    await signInWithDemoButton(acme.page, ACME);
    await openConversation(acme.page, SARA.name);
    await openConversation(sara.page, ACME.name);
  });

  // a test that failed while offline leaves the next one online
  afterEach(async () => {
    sara.liveGate?.restore();
    await sara.context.setOffline(false);
  });

  it('says "Offline — reconnecting…" while the browser is offline, stops claiming the partner online, and catches up when back', async () => {
    // Chromium's own sockets here (not routed through the test), as the browser takes them offline
    const offline = await suite.newUser('candidate-offline');
    await signInWithForm(offline.page, SARA);
    await openConversation(offline.page, ACME.name);
    await waitForLive(offline);
    await waitForLive(acme);
    const page = offline.page;
    const notice = page.getByRole('status').filter({ hasText: /Offline — reconnecting…/ });
    const presence = page.getByTestId('presence-status');
    await expect.poll(() => presence.textContent(), WAIT).toBe('online');
    expect(await notice.count()).toBe(0);

    await offline.context.setOffline(true);
    await notice.waitFor({ state: 'visible', timeout: WAIT.timeout });
    // nobody can know whether Acme is still there: the header does not say "online"
    await expect.poll(() => presence.textContent(), WAIT).not.toBe('online');

    const tag = uniqueTag();
    const texts = [1, 2].map((n) => `Sent while Sara was offline ${n} ${tag}`);
    for (const text of texts) await sendFromUi(acme.page, text);

    await offline.context.setOffline(false);
    await notice.waitFor({ state: 'detached', timeout: LONG_WAIT.timeout });
    for (const text of texts) await expectMessageOnce(page, text, LONG_WAIT);
    // presence is asked again after the reconnection
    await expect.poll(() => presence.textContent(), WAIT).toBe('online');
    await waitForLive(offline);
    await suite.close(offline);
  });

  it('says it too when the live socket dies while the browser thinks it is online', async () => {
    await waitForLive(sara);
    const page = sara.page;
    const gate = sara.liveGate;
    if (!gate) throw new Error('the candidate page needs controlLive');
    const notice = page.getByRole('status').filter({ hasText: /Offline — reconnecting…/ });
    const presence = page.getByTestId('presence-status');
    await expect.poll(() => presence.textContent(), WAIT).toBe('online');

    gate.drop();
    await notice.waitFor({ state: 'visible', timeout: WAIT.timeout });
    await expect.poll(() => presence.textContent(), WAIT).not.toBe('online');
    const text = `Sent while Sara's socket was cut ${uniqueTag()}`;
    await sendFromUi(acme.page, text);

    gate.restore();
    await notice.waitFor({ state: 'detached', timeout: LONG_WAIT.timeout });
    await expectMessageOnce(page, text, LONG_WAIT);
    await expect.poll(() => presence.textContent(), WAIT).toBe('online');
  });

  it('keeps uploaded files with the draft across a reload, and sends them', async () => {
    const page = sara.page;
    const chips = page.getByTestId('attachment-chip');
    await page.getByTestId('attach-input').setInputFiles(pdfNamed('draft-cv.pdf'));
    await chips.filter({ hasText: 'draft-cv.pdf' }).filter({ hasText: 'Ready' }).waitFor();

    await page.reload();
    await waitForMessagesPage(page);
    await messageInput(page).waitFor();
    await expect.poll(() => messageInput(page).isEnabled(), WAIT).toBe(true);
    // the file is back as a chip, ready to send
    await chips.filter({ hasText: 'draft-cv.pdf' }).filter({ hasText: 'Ready' }).waitFor();
    expect(await chips.count()).toBe(1);

    const text = `My CV, after a reload ${uniqueTag()}`;
    await messageInput(page).fill(text);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect.poll(() => chips.count(), WAIT).toBe(0);
    await expectMessageOnce(page, text);

    // Acme gets the message with the file
    const message = chatMessages(acme.page, text);
    await message.waitFor({ timeout: LONG_WAIT.timeout });
    await message.getByRole('link', { name: /draft-cv\.pdf/ }).waitFor();

    // and the draft is empty after a reload
    await page.reload();
    await waitForMessagesPage(page);
    await expect.poll(() => messageInput(page).isEnabled(), WAIT).toBe(true);
    await expectMessageOnce(page, text);
    expect(await chips.count()).toBe(0);
  });

  it('drops a draft file the server no longer has, and says so', async () => {
    const page = sara.page;
    const chips = page.getByTestId('attachment-chip');
    await page.getByTestId('attach-input').setInputFiles(pdfNamed('expired-cv.pdf'));
    await chips.filter({ hasText: 'expired-cv.pdf' }).filter({ hasText: 'Ready' }).waitFor();

    // the server's sweep removed the unsent upload (as it does after 24 hours)
    const db = new Database(suite.server.databaseFile);
    try {
      db.pragma('busy_timeout = 10000');
      const removed = db.prepare("delete from attachments where name = 'expired-cv.pdf'").run();
      expect(removed.changes).toBe(1);
    } finally {
      db.close();
    }

    await page.reload();
    await waitForMessagesPage(page);
    await expect.poll(() => messageInput(page).isEnabled(), WAIT).toBe(true);
    await page.getByText(/expired-cv\.pdf.*(expired|no longer)/).waitFor({ timeout: WAIT.timeout });
    await expect.poll(() => chips.count(), WAIT).toBe(0);
  });

  it('shows "Archived · Undo" after archiving; Undo brings the conversation back, and the server agrees', async () => {
    const page = sara.page;
    await archiveButton(conversationList(page), ACME.name, 'Archive').click();
    await row(archivedList(page), ACME.name).waitFor();

    const toast = page.getByTestId('archive-toast');
    await toast.waitFor({ state: 'visible' });
    expect(await toast.textContent()).toMatch(/Archived/);
    const undo = toast.getByRole('button', { name: 'Undo', exact: true });
    await undo.waitFor({ state: 'visible' });
    // the toast does not take the focus
    expect(await undo.evaluate((button) => button === document.activeElement)).toBe(false);

    // by keyboard
    await undo.focus();
    await page.keyboard.press('Enter');
    await row(conversationList(page), ACME.name).waitFor();
    await toast.waitFor({ state: 'detached' });

    await page.reload();
    await waitForMessagesPage(page);
    await row(conversationList(page), ACME.name).waitFor();
    expect(await row(archivedList(page), ACME.name).count()).toBe(0);
  });
});
