import { beforeAll, describe, expect, it } from 'vitest';
import { ACME, SARA } from '../test-support/accounts.js';
import { documentStillMarked, markDocument } from '../test-support/browser.js';
import { LONG_WAIT, WAIT, sleep } from '../test-support/wait.js';
import type { UserPage } from './support/browser.js';
import {
  chatIds,
  chatMessages,
  expectMessageOnce,
  openConversation,
  sendFromUi,
  uniqueTag,
  waitForLive,
} from './support/messages-page.js';
import { signInWithDemoButton, signInWithForm } from './support/sign-in.js';
import { useE2eSuite } from './support/suite.js';

const OFFLINE_MS = 10_000;

/**
 * Network trouble on one side. Failed requests and socket errors while offline are logged to the
 * console on purpose (spec §8), so console errors don't fail these tests; uncaught errors still do.
 */
describe('messaging page: network drops', () => {
  const suite = useE2eSuite({ failOnConsoleErrors: false });
  let sara: UserPage;
  let acme: UserPage;

  beforeAll(async () => {
    sara = await suite.newUser('candidate', { controlLive: true });
    acme = await suite.newUser('company');
    await signInWithForm(sara.page, SARA);
    await signInWithDemoButton(acme.page, ACME);
    await openConversation(sara.page, ACME.name);
    await openConversation(acme.page, SARA.name);
  });

  it('loses no message during a 10-second network drop: all 3 appear once, without a reload', async () => {
    await waitForLive(sara);
    await waitForLive(acme);
    await markDocument(sara.page);
    const socketsBefore = sara.live.opened;

    const tag = uniqueTag();
    const texts = [1, 2, 3].map((n) => `While you were offline ${n} ${tag}`);

    const gate = sara.liveGate;
    if (!gate) throw new Error('the candidate page needs controlLive');

    // the network goes: requests fail and the live socket dies (and cannot reconnect)
    await sara.context.setOffline(true);
    gate.drop();
    const offlineSince = Date.now();
    for (const text of texts) await sendFromUi(acme.page, text);
    // stay offline for the whole 10 s (a wait, not an assertion)
    await sleep(Math.max(0, OFFLINE_MS - (Date.now() - offlineSince)));
    // nothing could reach the candidate meanwhile
    for (const text of texts) expect(await chatMessages(sara.page, text).count(), text).toBe(0);
    expect(sara.live.isLive()).toBe(false);

    // the network comes back
    gate.restore();
    await sara.context.setOffline(false);

    for (const text of texts) await expectMessageOnce(sara.page, text, LONG_WAIT);
    expect(await documentStillMarked(sara.page)).toBe(true);
    // the whole conversation matches the sender's, each message once
    await expect.poll(() => chatIds(sara.page), WAIT).toEqual(await chatIds(acme.page));
    const ids = await chatIds(sara.page);
    expect(new Set(ids).size).toBe(ids.length);
    // over a new live connection
    await waitForLive(sara);
    expect(sara.live.opened).toBeGreaterThan(socketsBefore);

    // live delivery works again afterwards
    const after = `Back online ${tag}`;
    await sendFromUi(acme.page, after);
    await expectMessageOnce(sara.page, after);
  });

  it('a message sent while offline is marked "not sent", and is sent once when the network returns', async () => {
    await waitForLive(acme);
    const text = `Sent from a train tunnel ${uniqueTag()}`;
    await sara.context.setOffline(true);
    const input = sara.page.getByPlaceholder('Write Message...', { exact: true });
    await input.fill(text);
    await sara.page.getByRole('button', { name: 'Send', exact: true }).click();
    const failed = sara.page.getByTestId('send-failed');
    await failed.waitFor({ state: 'visible' });
    // the draft is kept for the retry
    expect(await input.inputValue()).toBe(text);
    // Retry while still offline: it fails again and the draft stays
    await failed.getByRole('button', { name: 'Retry', exact: true }).click();
    await failed.waitFor({ state: 'visible' });
    expect(await input.inputValue()).toBe(text);

    // back online: the failed message is sent by itself, exactly once
    await sara.context.setOffline(false);
    await failed.waitFor({ state: 'detached', timeout: LONG_WAIT.timeout });
    await expectMessageOnce(sara.page, text);
    await expectMessageOnce(acme.page, text);
    await expect.poll(() => input.inputValue(), WAIT).toBe('');
  });
});
