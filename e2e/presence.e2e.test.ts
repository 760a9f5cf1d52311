import { beforeAll, describe, expect, it } from 'vitest';
import { ACME, OMAR, SARA } from '../test-support/accounts.js';
import { WAIT } from '../test-support/wait.js';
import type { UserPage } from './support/browser.js';
import {
  conversationList,
  messageInput,
  openConversation,
  row,
  sendFromUi,
  uniqueTag,
  waitForLive,
} from './support/messages-page.js';
import { signInWithForm } from './support/sign-in.js';
import { useE2eSuite } from './support/suite.js';

/**
 * Issue 15: a candidate (Sara) and a company (Acme) in two Chromium contexts: each sees the other
 * come online, "Seen" appears when the other opens the conversation, and the typing line shows.
 */
describe('presence, read receipts and typing between two people', () => {
  const suite = useE2eSuite({ failOnConsoleErrors: true, env: { PRESENCE_GRACE_SECONDS: '1' } });
  let sara: UserPage;
  let acme: UserPage;

  beforeAll(async () => {
    sara = await suite.newUser('candidate');
    acme = await suite.newUser('company');
  });

  it('each sees the other come online: the green marker and "online" in the header', async () => {
    await signInWithForm(sara.page, SARA);
    await waitForLive(sara);
    await openConversation(sara.page, ACME.name);
    const acmeRow = row(conversationList(sara.page), ACME.name);
    expect(await acmeRow.getByTestId('online-marker').count()).toBe(0);
    await expect
      .poll(() => sara.page.getByTestId('presence-status').textContent(), WAIT)
      .not.toBe('online');

    await signInWithForm(acme.page, ACME);
    await waitForLive(acme);
    await acmeRow.getByTestId('online-marker').waitFor();
    await expect
      .poll(() => sara.page.getByTestId('presence-status').textContent(), WAIT)
      .toBe('online');
    // Acme, arriving second, sees Sara online in its list at once
    await row(conversationList(acme.page), SARA.name).getByTestId('online-marker').waitFor();
  });

  it('"Sent" turns "Seen" when the other opens the conversation', async () => {
    // Acme looks at another conversation
    await openConversation(acme.page, OMAR.name);
    const text = `Did you get my portfolio? ${uniqueTag()}`;
    await sendFromUi(sara.page, text);
    const receipt = sara.page.getByTestId('message-receipt');
    await expect.poll(() => receipt.textContent(), WAIT).toBe('Sent');

    await openConversation(acme.page, SARA.name);
    await expect.poll(() => receipt.textContent(), WAIT).toMatch(/^Seen/);
  });

  it('the typing line shows while the other types, and goes when the message arrives', async () => {
    const typing = sara.page.getByTestId('typing-indicator');
    expect(await typing.textContent()).toBe('');
    await messageInput(acme.page).pressSequentially('We loved it', { delay: 30 });
    await expect.poll(() => typing.textContent(), WAIT).toBe('Acme Robotics is typing…');
    await acme.page.getByRole('button', { name: 'Send', exact: true }).click();
    await sara.page.getByText('We loved it').first().waitFor();
    await expect.poll(() => typing.textContent(), WAIT).toBe('');
  });
});
