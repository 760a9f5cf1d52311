/**
 * The built server runs its background work (e-mails, webhooks, sweeps) in a worker thread of its
 * own (ADR 017): the thread e-mails a receiver who is offline exactly once, asks the request
 * thread's presence (held in memory: no REDIS_URL) before e-mailing, so a receiver on the page gets
 * none; its outcomes count in the process's /metrics; a stop ends the thread and exits 0, handing
 * back the task of an e-mail that was still being sent.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACME, OMAR, SARA } from '../../../test-support/accounts.js';
import { signInOverHttp, type HttpSession } from '../../../test-support/http-session.js';
import { TestMailServer } from '../../../test-support/mail-server.js';
import { sendTo } from '../../../test-support/messaging.js';
import { listenForEvents, type EventListener } from '../../../test-support/pusher-js.js';
import { freePort, startServer, type ServerProcess } from '../../../test-support/server-process.js';
import { sleep, until, within } from '../../../test-support/wait.js';
import {
  TEST_WEBHOOK_SECRET,
  TestWebhookReceiver,
} from '../../../test-support/webhook-receiver.js';
import { metricValue } from '../../../test-support/metrics-text.js';

const DELAY_SECONDS = 1;
const GRACE_SECONDS = 1;

/** The log's JSON lines (the server also prints a few plain lines at start). */
const logLines = (output: string): Record<string, unknown>[] =>
  output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('background work in its own thread', { timeout: 60_000 }, () => {
  let mail: TestMailServer;
  let hooks: TestWebhookReceiver;
  let server: ServerProcess;
  let metricsPort: number;
  const listeners: EventListener[] = [];

  beforeAll(async () => {
    mail = await TestMailServer.start();
    hooks = await TestWebhookReceiver.start();
    metricsPort = await freePort();
    server = await startServer({
      env: {
        DEMO_SEED: 'on',
        LOG_LEVEL: 'info',
        SMTP_URL: mail.url,
        WEBHOOK_URL: hooks.url,
        WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
        NOTIFY_EMAIL_DELAY_SECONDS: String(DELAY_SECONDS),
        NOTIFY_EMAIL_MIN_INTERVAL_SECONDS: '0',
        PRESENCE_GRACE_SECONDS: String(GRACE_SECONDS),
        OUTBOX_POLL_MS: '50',
        METRICS_PORT: String(metricsPort),
        REDIS_URL: '',
      },
    });
  });
  afterAll(async () => {
    listeners.forEach((listener) => listener.disconnect());
    await server.kill();
    await mail.close();
    await hooks.close();
  });

  const signIn = (email: string) => signInOverHttp(server.url, email);
  const online = async (session: HttpSession) => {
    const listener = await listenForEvents(server.url, session);
    listeners.push(listener);
    return listener;
  };

  it('runs the outbox in a thread of its own, which logs as "background"', async () => {
    await until(
      () =>
        logLines(server.output()).some(
          (line) => line.thread === 'background' && line.msg === 'background: started',
        ),
      'the background thread to start',
      10_000,
    );
  });

  it('e-mails a receiver who is offline exactly once', async () => {
    const acme = await signIn(ACME.email);
    const omar = await signIn(OMAR.email);
    await sendTo(acme, omar, 'Could you send us your portfolio?');
    const [email] = await mail.waitFor(1, OMAR.email, 15_000);
    expect(email!.parsed.text ?? '').toContain('Could you send us your portfolio?');
    // well past the delay and several polls: no second copy
    await sleep(DELAY_SECONDS * 1000 + 1500);
    expect(mail.to(OMAR.email)).toHaveLength(1);
  });

  it('e-mails nobody who is on the page (the thread asks the request thread who is online)', async () => {
    const sara = await signIn(SARA.email);
    const acme = await signIn(ACME.email);
    const saraOnPage = await online(sara);
    await sendTo(acme, sara, 'Are you free for a call on Thursday?');
    // the rule ran in the thread (the host hears of the unseen message) …
    await until(
      () =>
        hooks
          .events<{ receiver_id: number; messages: { message: string }[] }>('message.unseen')
          .some(
            (event) =>
              event.data.receiver_id === sara.userId &&
              event.data.messages.some(
                (chat) => chat.message === 'Are you free for a call on Thursday?',
              ),
          ),
      'the message.unseen webhook for Sara',
      15_000,
    );
    // … and held the e-mail back: she is online in the request thread's presence
    await sleep(DELAY_SECONDS * 1000 + 1500);
    expect(mail.to(SARA.email)).toHaveLength(0);
    // once she has left (and the grace has passed), it goes, once
    saraOnPage.disconnect();
    const emails = await mail.waitFor(1, SARA.email, 15_000);
    expect(emails[0]!.parsed.text ?? '').toContain('Are you free for a call on Thursday?');
    await sleep(1500);
    expect(mail.to(SARA.email)).toHaveLength(1);
  });

  it('counts the thread’s e-mails and webhooks in the process’s metrics', async () => {
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(metricValue(text, 'messenger_emails_sent_total')).toBeGreaterThanOrEqual(2);
    expect(
      metricValue(text, 'messenger_webhooks_delivered_total{outcome="delivered"}'),
    ).toBeGreaterThanOrEqual(1);
  });

  it('stops the thread on SIGTERM and exits 0', async () => {
    expect(await within(server.stop(), 'the exit after SIGTERM', 20_000)).toBe(0);
    const lines = logLines(server.output());
    expect(
      lines.some((line) => line.thread === 'background' && line.msg === 'background: stopped'),
    ).toBe(true);
    expect(lines.some((line) => line.msg === 'background: the thread has stopped')).toBe(true);
    // nothing was restarted or ended by force
    expect(lines.filter((line) => line.level === 50)).toEqual([]);
  });
});

describe('a stop while the thread is sending an e-mail', { timeout: 60_000 }, () => {
  it('hands the e-mail’s task back (not a failed attempt) and exits 0', async () => {
    const mail = await TestMailServer.start();
    // the mail server reads the e-mail and never answers: the attempt is still running at the stop
    mail.mode = 'stall';
    const sandbox = mkdtempSync(join(tmpdir(), 'background-stop-'));
    const databaseFile = join(sandbox, 'messenger.db');
    const server = await startServer({
      env: {
        DEMO_SEED: 'on',
        LOG_LEVEL: 'info',
        DATABASE_URL: `sqlite:${databaseFile}`,
        SMTP_URL: mail.url,
        NOTIFY_EMAIL_DELAY_SECONDS: '0',
        NOTIFY_EMAIL_MIN_INTERVAL_SECONDS: '0',
        OUTBOX_POLL_MS: '50',
        REDIS_URL: '',
      },
    });
    try {
      const acme = await signInOverHttp(server.url, ACME.email);
      const omar = await signInOverHttp(server.url, OMAR.email);
      await sendTo(acme, omar, 'Please confirm the interview time');
      await until(() => mail.attempts >= 1, 'the e-mail to reach the mail server', 15_000);
      // the outbox worker waits 10 s for its running handlers, then hands their tasks back
      expect(await within(server.stop(), 'the exit after SIGTERM', 25_000)).toBe(0);
      const database = new Database(databaseFile, { readonly: true });
      const tasks = database
        .prepare(
          `select locked_by, done_at, attempts from outbox where kind = 'notify.email' and payload like ?`,
        )
        .all(`%"receiverId":${omar.userId},%`);
      database.close();
      expect(tasks).toEqual([{ locked_by: null, done_at: null, attempts: 0 }]);
      expect(
        logLines(server.output()).some(
          (line) => line.thread === 'background' && line.msg === 'background: stopped',
        ),
      ).toBe(true);
    } finally {
      await server.kill();
      await mail.close();
      rmSync(sandbox, { recursive: true, force: true });
    }
  });
});
