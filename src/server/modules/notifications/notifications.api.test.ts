import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { integrationPaths } from '../../../shared/integration.js';
import type { Chat } from '../../../shared/models.js';
import { paths } from '../../../shared/paths.js';
import { ACME, OMAR, YOUSSEF } from '../../../../test-support/accounts.js';
import { TestMailServer, type ReceivedMail } from '../../../../test-support/mail-server.js';
import { createTestApp, signIn, type TestContext } from '../../../../test-support/test-app.js';
import { until } from '../../../../test-support/wait.js';
import {
  TEST_WEBHOOK_SECRET,
  TestWebhookReceiver,
} from '../../../../test-support/webhook-receiver.js';

const dialect = inject('database');

const KEY = 'integration-key-for-notification-tests-0123456789';
const PUBLIC_URL = 'https://messages.board.example';
const MAIL_FROM = 'Job Board Messages <messages@board.example>';
const DELAY_SECONDS = 3;
const MIN_INTERVAL_SECONDS = 4;

interface IntegrationUser {
  id: number;
  external_id: string;
}
interface UnseenEvent {
  receiver_id: number;
  receiver_external_id: string | null;
  messages: Chat[];
}
interface CreatedEvent {
  message: Chat;
  conversation_id: number;
}

/** The value of a header as written in the message (folded lines joined). */
const rawHeader = (mail: ReceivedMail, name: string): string | undefined =>
  mail.parsed.headerLines
    .find((line) => line.key === name.toLowerCase())
    ?.line.replace(/\r?\n[ \t]+/g, ' ')
    .slice(name.length + 1)
    .trim();

describe(`notification e-mails and webhooks (${dialect})`, { timeout: 30_000 }, () => {
  let ctx: TestContext;
  let mail: TestMailServer;
  let hooks: TestWebhookReceiver;

  beforeAll(async () => {
    mail = await TestMailServer.start();
    hooks = await TestWebhookReceiver.start();
    ctx = await createTestApp(dialect, {
      INTEGRATION_KEYS: KEY,
      PUBLIC_URL,
      SMTP_URL: mail.url,
      MAIL_FROM,
      NOTIFY_EMAIL_DELAY_SECONDS: String(DELAY_SECONDS),
      NOTIFY_EMAIL_MIN_INTERVAL_SECONDS: String(MIN_INTERVAL_SECONDS),
      WEBHOOK_URL: hooks.url,
      WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
      OUTBOX_POLL_MS: '50',
      OUTBOX_RETRY_BASE_SECONDS: '0.3',
    });
  });
  afterAll(async () => {
    await ctx.close();
    await mail.close();
    await hooks.close();
  });

  const call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, body?: unknown) =>
    ctx.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${KEY}` },
      ...(body === undefined ? {} : { payload: body as object }),
    });

  const putUser = async (
    externalId: string,
    body: Record<string, unknown>,
  ): Promise<IntegrationUser> => {
    const response = await call('PUT', integrationPaths.user(externalId), body);
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json<{ user: IntegrationUser }>().user;
  };
  const company = (externalId: string, name: string) =>
    putUser(externalId, { role: 'company', name, email: `${externalId}@companies.example` });
  const candidate = (externalId: string, extra: Record<string, unknown> = {}) =>
    putUser(externalId, {
      role: 'candidate',
      name: `Candidate ${externalId}`,
      email: `${externalId}@people.example`,
      ...extra,
    });

  /** The company writes to the candidate (through the integration API: a send like any other). */
  const write = async (from: IntegrationUser, to: IntegrationUser, text: string) => {
    const response = await call('POST', integrationPaths.conversations, {
      company: from.external_id,
      candidate: to.external_id,
      message: { from: 'company', text },
    });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json<{ conversation: { id: number } }>().conversation.id;
  };

  const startConversation = async (from: IntegrationUser, to: IntegrationUser) => {
    const response = await call('POST', integrationPaths.conversations, {
      company: from.external_id,
      candidate: to.external_id,
    });
    expect(response.statusCode, response.body).toBeLessThan(300);
  };

  const outboxTasks = (kind: string) =>
    ctx.database.db.kysely.selectFrom('outbox').selectAll().where('kind', '=', kind).execute();
  /** Every e-mail rule task that is due has run (the rule has decided for everyone it was due for). */
  const rulesSettled = () =>
    until(async () => {
      const now = new Date().toISOString();
      const pending = await ctx.database.db.kysely
        .selectFrom('outbox')
        .select('id')
        .where('done_at', 'is', null)
        .where('run_at', '<=', now)
        .execute();
      return pending.length === 0;
    }, 'every due outbox task ran');
  const unseenFor = (receiverId: number) =>
    hooks
      .events<UnseenEvent>('message.unseen')
      .filter((event) => event.data.receiver_id === receiverId);
  const emailSwitchOf = async (userId: number) =>
    (
      await ctx.database.db.kysely
        .selectFrom('user_settings')
        .select('email_notifications')
        .where('user_id', '=', userId)
        .executeTakeFirst()
    )?.email_notifications;

  it('sends one e-mail for everything due together: in Arabic, escaped, linked, with one-click unsubscribe', async () => {
    const layla = await candidate('layla-batch', { name: 'ليلى', locale: 'ar' });
    const companies = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((n) => company(`co-batch-${n}`, `Company ${n}`)),
    );
    const [first, ...others] = companies as [IntegrationUser, ...IntegrationUser[]];
    // Newest conversation first: the first company's, written last; the oldest one is left out.
    // (Each conversation is started first: the messages themselves then go out within moments,
    // in two rounds of concurrent sends, well within the gathering window.)
    for (const other of companies) await startConversation(other, layla);
    const [firstConversation] = await Promise.all([
      write(first, layla, 'first'),
      ...others.map((other) => write(other, layla, `hello from ${other.external_id}`)),
    ]);
    await Promise.all(
      ['second', 'third', '<script>alert("x")</script> & more'].map((text) =>
        write(first, layla, text),
      ),
    );

    const [email] = await mail.waitFor(1, 'layla-batch@people.example');
    await rulesSettled();
    await until(() => unseenFor(layla.id).length === 1, 'message.unseen for the batch');
    expect(mail.to('layla-batch@people.example')).toHaveLength(1);
    if (!email) throw new Error('no e-mail');

    const { parsed } = email;
    expect(parsed.from?.text).toBe('"Job Board Messages" <messages@board.example>');
    expect(parsed.subject).toMatch(/^Messages: رسائل جديدة من Company \d و\s?Company \d و/);
    expect(parsed.messageId).toMatch(/^<notify\.\d+\.\d+@messages\.board\.example>$/);
    expect(rawHeader(email, 'Content-Language')).toBe('ar');
    const html = typeof parsed.html === 'string' ? parsed.html : '';
    const text = parsed.text ?? '';
    expect(html).toContain('<html lang="ar" dir="rtl">');
    expect(html).toContain('ليلى');
    // Message text is escaped in HTML and kept as written in the plain-text part.
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; more');
    expect(html).not.toContain('<script');
    expect(text).toContain('<script>alert("x")</script> & more');
    // Five conversations, newest first, each with its latest three messages at most.
    const link = `${PUBLIC_URL}/messages?target=${first.id}&tab=${firstConversation}`;
    expect(text).toContain(link);
    expect(html).toContain(link.replace('&', '&amp;'));
    expect(text.match(/افتح المحادثة/g)).toHaveLength(5);
    expect(text).toContain('ومحادثة أخرى فيها رسائل غير مقروءة');
    expect(text).toContain('ورسالة أخرى في هذه المحادثة');
    expect(text).not.toMatch(/^ {2}first$/m);
    expect(text).toMatch(/^ {2}second$/m);
    // One-click unsubscribe (RFC 8058).
    expect(rawHeader(email, 'List-Unsubscribe')).toMatch(
      /^<https:\/\/messages\.board\.example\/unsubscribe\?token=\d+\.[\w-]{43}>$/,
    );
    expect(rawHeader(email, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');

    // The host heard of every message at once, and of the batch when the rule fired.
    const created = hooks
      .events<CreatedEvent>('message.created')
      .filter((event) => event.data.message.receiver_id === layla.id);
    expect(created).toHaveLength(9);
    const [unseen] = unseenFor(layla.id);
    expect(unseen?.data.receiver_external_id).toBe('layla-batch');
    expect(unseen?.data.messages).toHaveLength(9);
    for (const hook of hooks.received) expect(() => hooks.verify(hook)).not.toThrow();
  });

  it('writes in the language and time zone the user saved on the page, naming the job', async () => {
    const acme = await signIn(ctx.app, ACME.email);
    const youssef = await signIn(ctx.app, YOUSSEF.email);
    // what the page saves when Youssef picks Arabic (his browser is in Riyadh)
    const saved = await youssef.call('PATCH', paths.settings, {
      locale: 'ar',
      time_zone: 'Asia/Riyadh',
    });
    expect(saved.statusCode).toBe(200);
    const list = await acme.call('GET', paths.initialData);
    const withYoussef = list
      .json<{ messengerUsers: { id: number; candidate_id: number; job_id: number | null }[] }>()
      .messengerUsers.find((conversation) => conversation.candidate_id === youssef.user.id);
    if (!withYoussef) throw new Error('the demo has a conversation between Acme and Youssef');
    const sent = await acme.call('POST', paths.sendMessage, {
      receiver_id: youssef.user.id,
      messenger_user: withYoussef.id,
      job_id: withYoussef.job_id,
      message: 'Can you start in March?',
    });
    expect(sent.statusCode).toBe(200);
    const createdAt = new Date(sent.json<{ message: Chat }>().message.created_at);

    const [email] = await mail.waitFor(1, YOUSSEF.email);
    if (!email) throw new Error('no e-mail');
    const { parsed } = email;
    expect(parsed.subject).toBe('Messages: رسالة جديدة من Acme Robotics');
    expect(rawHeader(email, 'Content-Language')).toBe('ar');
    const html = typeof parsed.html === 'string' ? parsed.html : '';
    const text = parsed.text ?? '';
    expect(html).toContain('<html lang="ar" dir="rtl">');
    expect(text).toContain('افتح المحادثة');
    // the conversation's job is named
    expect(text).toContain('بخصوص الوظيفة: QA Technician');
    // the time in Riyadh (UTC+3), not in UTC
    // stated here, not taken from the e-mail's code: the format is part of what is checked
    const timeIn = (timeZone: string) =>
      new Intl.DateTimeFormat('ar-EG', {
        day: 'numeric',
        month: 'short',
        year: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        timeZone,
        timeZoneName: 'short',
      }).format(createdAt);
    expect(text).toContain(timeIn('Asia/Riyadh'));
    expect(text).not.toContain(timeIn('UTC'));
  });

  it('never e-mails a message seen before it is due', async () => {
    const acme = await signIn(ctx.app, ACME.email);
    const omar = await signIn(ctx.app, OMAR.email);
    const list = await omar.call('GET', `${paths.initialData}`);
    const withAcme = list
      .json<{ messengerUsers: { id: number; company_id: number; job_id: number | null }[] }>()
      .messengerUsers.find((conversation) => conversation.company_id === acme.user.id);
    if (!withAcme) throw new Error('the demo has a conversation between Acme and Omar');
    const sent = await acme.call('POST', paths.sendMessage, {
      receiver_id: omar.user.id,
      messenger_user: withAcme.id,
      job_id: withAcme.job_id,
      message: 'Are you free on Monday?',
    });
    expect(sent.statusCode).toBe(200);
    const opened = await omar.call('POST', paths.getMessage, {
      receiver_id: acme.user.id,
      job_id: withAcme.job_id,
    });
    expect(opened.statusCode).toBe(200);
    // Someone else's message sent at the same time is e-mailed: the rule did run meanwhile.
    const control = await candidate('control-seen');
    await write(await company('co-seen', 'Seen Co'), control, 'unread one');
    await mail.waitFor(1, 'control-seen@people.example');
    await until(
      async () => (await outboxTasks('notify.due')).every((task) => task.done_at !== null),
      'every e-mail rule task ran',
    );
    expect(mail.to(OMAR.email)).toHaveLength(0);
    expect(unseenFor(omar.user.id)).toHaveLength(0);
  });

  it('waits the minimum interval after an e-mail, then sends one with what is new', async () => {
    const rami = await candidate('rami-interval');
    const sender = await company('co-interval', 'Interval Co');
    await write(sender, rami, 'the first one');
    const [firstEmail] = await mail.waitFor(1, 'rami-interval@people.example');
    await write(sender, rami, 'the second one');
    const emails = await mail.waitFor(2, 'rami-interval@people.example', 20_000);
    const [one, two] = emails as [ReceivedMail, ReceivedMail];
    expect(one).toBe(firstEmail);
    // Decided no sooner than the interval after the first (both were handed over within moments).
    expect(two.receivedAt - one.receivedAt).toBeGreaterThanOrEqual(
      MIN_INTERVAL_SECONDS * 1000 - 500,
    );
    expect(one.parsed.text).toContain('the first one');
    expect(two.parsed.text).toContain('the second one');
    expect(two.parsed.text).not.toContain('the first one');
    expect(two.parsed.subject).toBe('Messages: New message from Interval Co');
    await rulesSettled();
    expect(mail.to('rami-interval@people.example')).toHaveLength(2);
  });

  it('sends no e-mail to someone who turned e-mails off or has no address, but tells the host', async () => {
    const quiet = await candidate('quiet-settings', {
      settings: { email_notifications: false },
    });
    const noAddress = await putUser('no-address', { role: 'candidate', name: 'No Address' });
    const sender = await company('co-quiet', 'Quiet Co');
    await write(sender, quiet, 'you will not get an e-mail');
    await write(sender, noAddress, 'nor will you');
    await until(
      () => unseenFor(quiet.id).length === 1 && unseenFor(noAddress.id).length === 1,
      'message.unseen for both',
    );
    await rulesSettled();
    expect(mail.to('quiet-settings@people.example')).toHaveLength(0);
    const emailTasks = (await outboxTasks('notify.email')).filter((task) =>
      [quiet.id, noAddress.id].includes(
        (JSON.parse(task.payload) as { receiverId: number }).receiverId,
      ),
    );
    expect(emailTasks).toHaveLength(0);
  });

  it('unsubscribes with a one-click POST without a session, and shows a page in the user’s language', async () => {
    const nour = await candidate('nour-unsubscribe', { name: 'نور', locale: 'ar' });
    const sender = await company('co-unsubscribe', 'Unsubscribe Co');
    await write(sender, nour, 'an e-mail with a way out');
    const [email] = await mail.waitFor(1, 'nour-unsubscribe@people.example');
    const header = email ? rawHeader(email, 'List-Unsubscribe') : undefined;
    const unsubscribeUrl = new URL(header?.slice(1, -1) ?? '');
    const path = `${unsubscribeUrl.pathname}${unsubscribeUrl.search}`;

    // GET changes nothing: a page that asks, with a button.
    const page = await ctx.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('<html lang="ar" dir="rtl">');
    expect(page.body).toMatch(/<form [^>]*method="post" action="\/unsubscribe\?token=[\w.%-]+">/);
    expect(await emailSwitchOf(nour.id)).toBeUndefined();

    // The mail program's one-click POST: no cookie, no CSRF token.
    const oneClick = (payload: string, contentType: string): Promise<LightMyRequestResponse> =>
      ctx.app.inject({
        method: 'POST',
        url: path,
        headers: { 'content-type': contentType },
        payload,
      });
    const done = await oneClick('List-Unsubscribe=One-Click', 'application/x-www-form-urlencoded');
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('تم إيقاف');
    expect(await emailSwitchOf(nour.id)).toBe(0);
    // Again, and as multipart (RFC 8058 allows both): still fine.
    const boundary = 'x-boundary';
    const again = await oneClick(
      `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`,
      `multipart/form-data; boundary=${boundary}`,
    );
    expect(again.statusCode).toBe(200);

    // A forged or altered token does nothing.
    const token = unsubscribeUrl.searchParams.get('token') ?? '';
    const [userId, mac = ''] = token.split('.');
    for (const forged of [
      `${Number(userId) + 1}.${mac}`,
      `${userId}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`,
      '',
      'garbage',
    ]) {
      const refused = await ctx.app.inject({
        method: 'POST',
        url: `/unsubscribe?token=${encodeURIComponent(forged)}`,
      });
      expect(refused.statusCode).toBe(400);
      expect(
        (await ctx.app.inject({ method: 'GET', url: `/unsubscribe?token=${forged}` })).statusCode,
      ).toBe(400);
    }

    // No more e-mails for Nour; the host still hears of unread messages.
    await write(sender, nour, 'after unsubscribing');
    await until(() => unseenFor(nour.id).length === 2, 'the second message.unseen');
    await rulesSettled();
    expect(mail.to('nour-unsubscribe@people.example')).toHaveLength(1);
  });

  it('undoes an unsubscribe with the page’s own short-lived token, never the e-mail’s, and links back to Messages', async () => {
    const hana = await candidate('hana-undo', { name: 'Hana' });
    const sender = await company('co-undo', 'Undo Co');
    await write(sender, hana, 'an e-mail to leave and come back to');
    const [email] = await mail.waitFor(1, 'hana-undo@people.example');
    const header = email ? rawHeader(email, 'List-Unsubscribe') : undefined;
    const unsubscribeUrl = new URL(header?.slice(1, -1) ?? '');
    const token = unsubscribeUrl.searchParams.get('token') ?? '';
    const post = (url: string) => ctx.app.inject({ method: 'POST', url });

    const done = await post(`/unsubscribe?token=${encodeURIComponent(token)}`);
    expect(done.statusCode).toBe(200);
    expect(await emailSwitchOf(hana.id)).toBe(0);
    expect(done.body).toContain(
      '<a class="unsubscribe__back" href="/messages">Back to Messages</a>',
    );
    const undo = /<form [^>]*method="post" action="([^"]+)">/.exec(done.body)?.[1] ?? '';
    const undoUrl = new URL(undo.replaceAll('&amp;', '&'), PUBLIC_URL);
    expect(undoUrl.pathname).toBe('/unsubscribe/undo');
    const undoToken = undoUrl.searchParams.get('token') ?? '';
    // its own token (user id, expiry, signature), not the one every e-mail carries
    expect(undoToken).toMatch(/^\d+\.\d+\.[\w-]{43}$/);
    expect(undoToken).not.toBe(token);
    expect(done.body).toContain('Undo: turn e-mails back on');
    expect(done.body).not.toContain('List-Unsubscribe');

    // the e-mail's unsubscribe token can never turn e-mails on: the link has expired
    const withOld = await post(`/unsubscribe/undo?token=${encodeURIComponent(token)}`);
    expect(withOld.statusCode).toBe(400);
    expect(withOld.body).toContain('This link has expired');
    expect(withOld.body).toContain(
      '<a class="unsubscribe__back" href="/messages">Back to Messages</a>',
    );
    expect(withOld.body).not.toContain('<form');
    // nor a forged undo token, or a GET (a mail scanner)
    const [userId, expiresAt, mac = ''] = undoToken.split('.');
    for (const forged of [
      `${Number(userId) + 1}.${expiresAt}.${mac}`,
      `${userId}.${Number(expiresAt) + 3600}.${mac}`,
    ]) {
      const refused = await post(`/unsubscribe/undo?token=${encodeURIComponent(forged)}`);
      expect(refused.statusCode).toBe(400);
    }
    expect(
      (await ctx.app.inject({ method: 'GET', url: undoUrl.pathname + undoUrl.search })).statusCode,
    ).toBe(404);
    expect(await emailSwitchOf(hana.id)).toBe(0);

    // the page's undo button: on again, said in the user's language, with the way back
    const again = await post(undoUrl.pathname + undoUrl.search);
    expect(again.statusCode).toBe(200);
    expect(again.body).toContain('Notification e-mails are on again');
    expect(again.body).toContain('href="/messages"');
    expect(await emailSwitchOf(hana.id)).toBe(1);

    // and e-mails come again
    await write(sender, hana, 'welcome back');
    const emails = await mail.waitFor(2, 'hana-undo@people.example', 20_000);
    expect(emails[1]?.parsed.text).toContain('welcome back');
  });

  it('retries a webhook that failed with the same webhook-id, signed each time', async () => {
    const receiver = await candidate('webhook-retry');
    const sender = await company('co-webhook', 'Webhook Co');
    let failures = 0;
    hooks.answer = (_index, body) =>
      body.includes('please retry me') && failures++ < 2 ? 500 : 200;
    try {
      await write(sender, receiver, 'please retry me');
      await until(
        () =>
          hooks.received.some(
            (hook) => hook.status === 200 && hook.body.includes('please retry me'),
          ),
        'the webhook delivered after two failures',
      );
    } finally {
      hooks.answer = () => 200;
    }
    const attempts = hooks.received.filter((hook) => hook.body.includes('please retry me'));
    const created = attempts.filter((hook) => hook.body.includes('"message.created"'));
    expect(created.map((hook) => hook.status)).toEqual([500, 500, 200]);
    expect(new Set(created.map((hook) => hook.headers['webhook-id'])).size).toBe(1);
    expect(String(created[0]?.headers['webhook-id'])).toMatch(/^msg_[0-9a-f]{32}$/);
    for (const hook of created) expect(() => hooks.verify(hook)).not.toThrow();
    const body = JSON.parse(created[2]?.body ?? '{}') as { type: string; data: CreatedEvent };
    expect(body.type).toBe('message.created');
    expect(body.data.message.message).toBe('please retry me');
  });

  it('keeps an e-mail while the SMTP server refuses it, and sends it once it accepts', async () => {
    const receiver = await candidate('smtp-refuses');
    const sender = await company('co-smtp', 'SMTP Co');
    mail.mode = 'refuse';
    try {
      await write(sender, receiver, 'delivered in the end');
      await until(async () => {
        const tasks = await outboxTasks('notify.email');
        return tasks.some(
          (task) =>
            (JSON.parse(task.payload) as { receiverId: number }).receiverId === receiver.id &&
            task.attempts >= 2 &&
            task.done_at === null,
        );
      }, 'two refused attempts');
    } finally {
      mail.mode = 'accept';
    }
    const [email] = await mail.waitFor(1, 'smtp-refuses@people.example');
    expect(email?.parsed.text).toContain('delivered in the end');
    await rulesSettled();
    expect(mail.to('smtp-refuses@people.example')).toHaveLength(1);
  });

  it('sends no second e-mail beside one still waiting for SMTP: one after the other, the interval apart', async () => {
    const receiver = await candidate('smtp-backlog');
    const sender = await company('co-backlog', 'Backlog Co');
    const emailTasks = async () =>
      (await outboxTasks('notify.email')).filter(
        (task) => (JSON.parse(task.payload) as { receiverId: number }).receiverId === receiver.id,
      );
    mail.mode = 'refuse';
    try {
      await write(sender, receiver, 'written before the outage ended');
      await until(
        async () => (await emailTasks()).some((task) => task.attempts >= 1),
        'the first e-mail refused once',
      );
      await write(sender, receiver, 'written during the outage');
      // Its rule ran, and found the first e-mail still waiting: no second e-mail task beside it.
      await until(
        async () =>
          (await outboxTasks('notify.due')).some(
            (task) =>
              task.dedupe_key.startsWith(`notify.due:${receiver.id}:at:`) && task.done_at === null,
          ),
        'the rule postponed',
      );
      expect(await emailTasks()).toHaveLength(1);
    } finally {
      mail.mode = 'accept';
    }
    const [first, second] = (await mail.waitFor(2, 'smtp-backlog@people.example', 25_000)) as [
      ReceivedMail,
      ReceivedMail,
    ];
    expect(first.parsed.text).toContain('written before the outage ended');
    expect(first.parsed.text).not.toContain('written during the outage');
    expect(second.parsed.text).toContain('written during the outage');
    expect(second.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(
      MIN_INTERVAL_SECONDS * 1000 - 500,
    );
  });

  it('sends nothing for a receiver erased before the message was due', async () => {
    const gone = await candidate('erased-receiver');
    await write(await company('co-erased', 'Erased Co'), gone, 'never read');
    expect((await call('DELETE', integrationPaths.user('erased-receiver'))).statusCode).toBe(204);
    const control = await candidate('control-erased');
    await write(await company('co-erased-2', 'Control Co'), control, 'read me');
    await mail.waitFor(1, 'control-erased@people.example');
    await rulesSettled();
    expect(mail.to('erased-receiver@people.example')).toHaveLength(0);
    expect(unseenFor(gone.id)).toHaveLength(0);
  });
});
