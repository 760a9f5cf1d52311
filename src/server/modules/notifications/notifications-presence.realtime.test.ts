import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../../../shared/paths.js';
import { ACME, OMAR, SARA } from '../../../../test-support/accounts.js';
import { signInOverHttp, type HttpSession } from '../../../../test-support/http-session.js';
import { TestMailServer } from '../../../../test-support/mail-server.js';
import { conversationWith, sendMessage, uploadFile } from '../../../../test-support/messaging.js';
import { listenForEvents, type EventListener } from '../../../../test-support/pusher-js.js';
import {
  APP_KEY,
  createTestApp,
  listen,
  type TestContext,
} from '../../../../test-support/test-app.js';
import { sleep } from '../../../../test-support/wait.js';
import {
  TEST_WEBHOOK_SECRET,
  TestWebhookReceiver,
} from '../../../../test-support/webhook-receiver.js';

const DELAY_SECONDS = 1;
const GRACE_SECONDS = 1;

/**
 * While the receiver is on the page, their notification e-mail waits until they leave;
 * what they read meanwhile is never e-mailed (the e-mail rule's usual delay and interval apply).
 * The host's `message.unseen` webhook does not wait: it fires when the rule fires (contract).
 */
describe('notification e-mails wait while the receiver is online', { timeout: 30_000 }, () => {
  let ctx: TestContext;
  let mail: TestMailServer;
  let hooks: TestWebhookReceiver;
  let baseUrl: string;
  const listeners: EventListener[] = [];

  beforeAll(async () => {
    mail = await TestMailServer.start();
    hooks = await TestWebhookReceiver.start();
    ctx = await createTestApp('sqlite', {
      SMTP_URL: mail.url,
      WEBHOOK_URL: hooks.url,
      WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
      NOTIFY_EMAIL_DELAY_SECONDS: String(DELAY_SECONDS),
      NOTIFY_EMAIL_MIN_INTERVAL_SECONDS: '0',
      PRESENCE_GRACE_SECONDS: String(GRACE_SECONDS),
      OUTBOX_POLL_MS: '50',
    });
    baseUrl = await listen(ctx.app);
  });
  afterAll(async () => {
    listeners.forEach((listener) => listener.disconnect());
    await ctx.close();
    await mail.close();
    await hooks.close();
  });

  const signIn = (email: string) => signInOverHttp(baseUrl, email, { appKey: APP_KEY });
  const online = async (session: HttpSession) => {
    const listener = await listenForEvents(baseUrl, session, { pusherKey: ctx.config.pusher.key });
    listeners.push(listener);
    return listener;
  };
  const send = async (from: HttpSession, to: HttpSession, text: string) => {
    const outcome = await sendMessage(from, await conversationWith(from, to.userId), text);
    expect(outcome.ok).toBe(true);
  };

  it('a message read while online is never e-mailed', async () => {
    const sara = await signIn(SARA.email);
    const acme = await signIn(ACME.email);
    const saraOnPage = await online(sara);
    await send(acme, sara, 'Are you free on Monday?');
    // the rule fires on time: the host hears of the unseen message although she is on the page …
    const [unseen] = await hooks.waitFor<{ receiver_id: number; messages: { message: string }[] }>(
      1,
      'message.unseen',
      15_000,
    );
    expect(unseen!.data.receiver_id).toBe(sara.userId);
    // (with the demo's older unread messages)
    expect(unseen!.data.messages.map((chat) => chat.message)).toContain('Are you free on Monday?');
    // … but, well past the delay, no e-mail while she is there
    await sleep(DELAY_SECONDS * 1000 + 1500);
    expect(mail.to(SARA.email)).toHaveLength(0);
    // she reads it, then leaves
    const conversation = await conversationWith(sara, acme.userId);
    const opened = await sara.call('GET', paths.unseen(conversation.id));
    expect(opened.status).toBe(200);
    saraOnPage.disconnect();
    await sleep(GRACE_SECONDS * 1000 + 2000);
    expect(mail.to(SARA.email)).toHaveLength(0);
  });

  it('a message still unread when the receiver leaves is e-mailed once they are gone', async () => {
    const omar = await signIn(OMAR.email);
    const acme = await signIn(ACME.email);
    const omarOnPage = await online(omar);
    await send(acme, omar, 'We would like to invite you to an interview');
    await sleep(DELAY_SECONDS * 1000 + 1500);
    expect(mail.to(OMAR.email)).toHaveLength(0);
    const leftAt = Date.now();
    omarOnPage.disconnect();
    const [email] = await mail.waitFor(1, OMAR.email, 15_000);
    // not before the grace had passed (he could have come back)
    expect(email!.receivedAt - leftAt).toBeGreaterThanOrEqual(GRACE_SECONDS * 1000 - 100);
    expect(email!.parsed.text ?? '').toContain('We would like to invite you to an interview');
  });

  it('a message of files only is e-mailed naming its files', async () => {
    const acme = await signIn(ACME.email);
    const omar = await signIn(OMAR.email);
    const before = mail.to(OMAR.email).length;
    const offer = await uploadFile(
      baseUrl,
      acme,
      'Offer letter.pdf',
      Buffer.from('%PDF-1.4\n%\n'),
      APP_KEY,
    );
    const outcome = await sendMessage(acme, await conversationWith(acme, omar.userId), '', {
      attachmentIds: [offer],
    });
    expect(outcome.ok).toBe(true);
    const emails = await mail.waitFor(before + 1, OMAR.email, 15_000);
    const email = emails[emails.length - 1]!;
    expect(email.parsed.text ?? '').toContain('📎 Offer letter.pdf');
    expect(String(email.parsed.html ?? '')).toContain('📎 Offer letter.pdf');
  });
});
