import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ACME, SARA } from '../test-support/accounts.js';
import { WAIT } from '../test-support/wait.js';
import type { UserPage } from './support/browser.js';
import {
  conversationList,
  expectMessageOnce,
  chatMessages,
  openConversation,
  row,
  sendFromUi,
  uniqueTag,
  waitForLive,
} from './support/messages-page.js';
import { signInWithForm } from './support/sign-in.js';
import { useE2eSuite } from './support/suite.js';

/** The bubble of message `id` in the open conversation. */
const bubble = (page: Page, id: string) =>
  page.locator(`#messageChatBox [data-testid="chat-message"][data-chat-id="${id}"]`);

const idOf = async (page: Page, text: string): Promise<string> => {
  const id = await chatMessages(page, text).getAttribute('data-chat-id');
  if (!id) throw new Error(`no bubble with "${text}"`);
  return id;
};

const previewIn = (page: Page, name: string) =>
  row(conversationList(page), name).locator('.conversation-row__preview').textContent();

/**
 * A candidate (Sara) and a company (Acme) in two Chromium contexts, the conversation open on both:
 * Sara edits one of her messages and deletes another; Acme's page shows the new text with
 * "(edited)" and "This message was deleted" live, and both lists' previews follow.
 */
describe('editing and deleting a message, seen live by the other party', () => {
  const suite = useE2eSuite({ failOnConsoleErrors: true });
  let sara: UserPage;
  let acme: UserPage;

  beforeAll(async () => {
    sara = await suite.newUser('candidate');
    acme = await suite.newUser('company');
    await signInWithForm(sara.page, SARA);
    await signInWithForm(acme.page, ACME);
    await waitForLive(sara);
    await waitForLive(acme);
    await openConversation(sara.page, ACME.name);
    await openConversation(acme.page, SARA.name);
  });

  it('an edit shows live on the other side with "(edited)"; a deletion shows "This message was deleted"; the list preview follows', async () => {
    const tag = uniqueTag();
    const first = `First draft ${tag}`;
    const second = `Second thought ${tag}`;
    const edited = `Edited at once ${tag}`;
    await sendFromUi(sara.page, first);
    await sendFromUi(sara.page, second);
    await expectMessageOnce(acme.page, second);
    const firstId = await idOf(sara.page, first);
    const secondId = await idOf(sara.page, second);

    // Sara edits the first message in place: Edit shows on hover; Enter saves
    const own = bubble(sara.page, firstId);
    await own.hover();
    await own.getByRole('button', { name: 'Edit', exact: true }).click();
    const box = own.getByRole('textbox', { name: 'Edit message' });
    expect(await box.inputValue()).toBe(first);
    await box.fill(edited);
    await box.press('Enter');
    await expect.poll(() => own.locator('.message__text').textContent(), WAIT).toBe(edited);
    await own.getByTestId('message-edited').waitFor();

    // Acme sees it live, in the same place, marked "(edited)"
    const theirs = bubble(acme.page, firstId);
    await expect.poll(() => theirs.locator('.message__text').textContent(), WAIT).toBe(edited);
    expect(await theirs.getByTestId('message-edited').textContent()).toBe('(edited)');
    expect(await chatMessages(acme.page, first).count()).toBe(0);

    // Sara deletes the second (the latest) after confirming
    const latest = bubble(sara.page, secondId);
    await latest.hover();
    await latest.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = sara.page.getByRole('dialog', { name: 'Delete this message?' });
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await latest.getByText('This message was deleted').waitFor();
    expect(await latest.getByRole('button').count()).toBe(0);

    // Acme sees it deleted live; the bubble keeps its place, its text is gone
    const theirLatest = bubble(acme.page, secondId);
    await theirLatest.getByText('This message was deleted').waitFor();
    expect(await chatMessages(acme.page, second).count()).toBe(0);

    // both lists preview the newest message left: the edited one
    await expect.poll(() => previewIn(acme.page, SARA.name), WAIT).toBe(edited);
    await expect.poll(() => previewIn(sara.page, ACME.name), WAIT).toBe(edited);
    // Acme's own messages offer nothing to Sara's page, nor hers to Acme's
    expect(await theirs.getByRole('button', { name: 'Edit', exact: true }).count()).toBe(0);
  });
});
