/**
 * Issue 32, page behaviour, in real Chromium against the built server:
 * - a live connection that is gone is said ("Offline — reconnecting…", a polite status) and the
 *   partner is not claimed "online" meanwhile; back online the notice goes and what was sent
 *   meanwhile arrives.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ACME, SARA } from '../test-support/accounts.js';
import { LONG_WAIT, WAIT } from '../test-support/wait.js';
import type { UserPage } from './support/browser.js';
import {
  expectMessageOnce,
  openConversation,
  sendFromUi,
  uniqueTag,
  waitForLive,
} from './support/messages-page.js';
import { signInWithDemoButton, signInWithForm } from './support/sign-in.js';
import { useE2eSuite } from './support/suite.js';

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
});
