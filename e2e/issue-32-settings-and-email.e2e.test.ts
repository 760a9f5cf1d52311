import { describe, expect, it } from 'vitest';
import { SARA } from '../test-support/accounts.js';
import { WAIT } from '../test-support/wait.js';
import {
  archivedList,
  conversationList,
  openConversation,
  row,
  sendFromUi,
  uniqueTag,
  waitForMessagesPage,
} from './support/messages-page.js';
import { signInWithForm } from './support/sign-in.js';
import { useE2eSuite } from './support/suite.js';

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
});
