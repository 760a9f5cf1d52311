import { describe, expect, it } from 'vitest';
import { messageSearchPaths } from '../src/shared/message-search-paths.js';
import { ACME, SARA } from '../test-support/accounts.js';
import { signInOverHttp } from '../test-support/http-session.js';
import { conversationWith, sendMessage } from '../test-support/messaging.js';
import { UNLIMITED_SENDING } from '../test-support/server-process.js';
import { WAIT } from '../test-support/wait.js';
import { WIDE } from './support/browser.js';
import { chatMessages, uniqueTag, waitForMessagesPage } from './support/messages-page.js';
import { signInWithForm } from './support/sign-in.js';
import { useE2eSuite } from './support/suite.js';

/** More than the latest page (50) and one older page of 100: the message is two pages back. */
const HISTORY = 180;
/** The message searched for: the third of the conversation. */
const WANTED = 2;

/**
 * Searching messages in the browser against the real server: the company searches a word of an
 * old message in messages mode, sees it highlighted in the result, opens it, and the chat loads the
 * history back to that message and shows it highlighted, in view.
 */
describe('searching messages', () => {
  const suite = useE2eSuite({ failOnConsoleErrors: true, env: { ...UNLIMITED_SENDING } });

  it('Acme finds an old message of Sara’s by a word of it, opens it, and the chat shows it highlighted in view', async () => {
    const tag = uniqueTag();
    const word = `pineapple${tag}`;
    const sara = await signInOverHttp(suite.url, SARA.email);
    const acmeSession = await signInOverHttp(suite.url, ACME.email);
    const toAcme = await conversationWith(sara, acmeSession.userId);
    const toSara = await conversationWith(acmeSession, sara.userId);
    for (let index = 0; index < HISTORY; index += 1) {
      const fromSara = index % 2 === 0;
      const text =
        index === WANTED
          ? `Here is the ${word} contract you asked about, signed`
          : `Message ${index} about the interview ${tag}`;
      const sent = await sendMessage(
        fromSara ? sara : acmeSession,
        fromSara ? toAcme : toSara,
        text,
      );
      expect(sent.ok, `send ${index}`).toBe(true);
    }

    const acme = await suite.newUser('acme', { viewport: WIDE });
    const { page } = acme;
    await signInWithForm(page, ACME);
    await waitForMessagesPage(page);

    // the switch: Conversations is on; Messages turns the box into a message search
    const conversationsMode = page.getByRole('radio', { name: 'Conversations', exact: true });
    const messagesMode = page.getByRole('radio', { name: 'Messages', exact: true });
    expect(await conversationsMode.getAttribute('aria-checked')).toBe('true');
    await messagesMode.click();
    expect(await messagesMode.getAttribute('aria-checked')).toBe('true');
    const box = page.getByRole('searchbox', { name: 'Search messages' });
    const searched = page.waitForResponse(
      (response) =>
        new URL(response.url()).pathname === messageSearchPaths.searchMessages &&
        new URL(response.url()).searchParams.get('q') === word.slice(0, 9),
    );
    await box.fill(word.slice(0, 9)); // "pineapple": a prefix of the word
    expect((await searched).status()).toBe(200);

    const result = page
      .getByTestId('message-search-result')
      .filter({ hasText: `${word} contract` });
    await result.waitFor(WAIT);
    expect(await result.count()).toBe(1);
    expect(await result.getByText(SARA.name).count()).toBe(1);
    expect(await result.locator('mark').allTextContents()).toEqual([word]);
    await expect
      .poll(() => page.getByTestId('message-search-status').textContent(), WAIT)
      .toMatch(/^1 message found$/);

    await result.click();
    const bubble = chatMessages(page, `${word} contract`);
    await bubble.waitFor(WAIT);
    await expect.poll(() => bubble.getAttribute('data-highlighted'), WAIT).toBe('true');
    expect(await bubble.getAttribute('aria-current')).toBe('true');
    // it has the focus, and it is in view inside the message list
    await expect
      .poll(() => bubble.evaluate((element) => element === document.activeElement), WAIT)
      .toBe(true);
    const inView = await bubble.evaluate((element) => {
      const list = element.closest('[data-testid="message-list"]')!.getBoundingClientRect();
      const box = element.getBoundingClientRect();
      return box.top >= list.top - 1 && box.bottom <= list.bottom + 1;
    });
    expect(inView).toBe(true);
    // older history was loaded back to it: the messages before it are there too
    expect(await chatMessages(page, `Message 0 about the interview ${tag}`).count()).toBe(1);
    // the highlight is seen: not the plain bubble's look
    const outline = await bubble.evaluate((element) => getComputedStyle(element).outlineStyle);
    expect(outline).not.toBe('none');
  });
});
