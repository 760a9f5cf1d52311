/**
 * Notification e-mails and webhooks under faults (contract Part 2, "Reaching people who are not on
 * the page": durable and exactly once). Real server processes, a real SMTP server and a real
 * webhook receiver, all on 127.0.0.1:
 * - `kill -9` before a message is due, or while its e-mail is leased and stuck mid-send: the
 *   e-mail goes out once after the restart (the second only once the dead instance's lease ran out);
 * - two instances on one PostgreSQL database, many receivers due at once: one e-mail each;
 * - the SMTP server down (stopped, or answering 451) when an e-mail is due: retried with backoff,
 *   sent once when it is back;
 * - the webhook receiver answering 500, with a crash between attempts: delivered, every attempt
 *   with the same `webhook-id` and a valid signature.
 * Users and messages come in through the integration API (no demo seed: no other mail).
 */
import { integrationPaths } from '../src/shared/integration.js';
import { TestMailServer, type ReceivedMail } from '../test-support/mail-server.js';
import { sleep, until } from '../test-support/wait.js';
import { TEST_WEBHOOK_SECRET, TestWebhookReceiver } from '../test-support/webhook-receiver.js';
import { freshDatabase, freshPostgres, type FaultDatabase } from './support/databases.js';
import { startFaultServer, stopServer, type ServerProcess } from './support/servers.js';

const INTEGRATION_KEY = 'notifications-fault-key-0123456789abcdef01234567';
/** How long nothing more may arrive after the expected mail or webhook (no second one). */
const QUIET_MS = 1_500;
const TASK = { due: 'notify.due', email: 'notify.email', webhook: 'webhook' } as const;

/** A server process for these tests: no demo data, the integration API on, a quick outbox. */
const startNotifyServer = (
  db: FaultDatabase,
  env: Record<string, string>,
  port?: number,
): Promise<ServerProcess> =>
  startFaultServer({
    databaseUrl: db.url,
    ...(port === undefined ? {} : { port }),
    env: {
      DEMO_SEED: 'off',
      INTEGRATION_KEYS: INTEGRATION_KEY,
      OUTBOX_POLL_MS: '50',
      NOTIFY_EMAIL_MIN_INTERVAL_SECONDS: '600',
      // The suite sends in bursts of 40 through two instances sharing one key; the host's
      // send limit (50 a second by default) is tested elsewhere and must not refuse them here.
      HOST_SEND_RATE_PER_SECOND: '10000',
      ...env,
    },
  });

/** The host's side of the integration API. */
class Host {
  constructor(private readonly baseUrl: string) {}

  private async call(method: string, path: string, body: unknown): Promise<unknown> {
    const response = await fetch(new URL(path, this.baseUrl), {
      method,
      headers: {
        authorization: `Bearer ${INTEGRATION_KEY}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return JSON.parse(text);
  }

  /** Creates (or updates) a user with an e-mail address; resolves to their id. */
  async user(externalId: string, role: 'company' | 'candidate', email: string): Promise<number> {
    const { user } = (await this.call('PUT', integrationPaths.user(externalId), {
      role,
      name: `${role} ${externalId}`,
      email,
      locale: 'en',
    })) as { user: { id: number } };
    return user.id;
  }

  /** One message in the company × candidate conversation (started if need be). */
  async send(
    company: string,
    candidate: string,
    from: 'company' | 'candidate',
    text: string,
  ): Promise<void> {
    await this.call('POST', integrationPaths.conversations, {
      company,
      candidate,
      message: { from, text },
    });
  }
}

const emailOf = (externalId: string) => `${externalId}@mail.test`;
const messageIdOf = (mail: ReceivedMail) => mail.parsed.messageId;

/** A company and a candidate; the company writes to the candidate. Resolves to the candidate. */
const oneMessage = async (server: ServerProcess, db: FaultDatabase, text: string) => {
  const host = new Host(server.url);
  await host.user('acme', 'company', emailOf('acme'));
  const candidateId = await host.user('sara', 'candidate', emailOf('sara'));
  await host.send('acme', 'sara', 'company', text);
  const chats = await db.chats();
  expect(chats.map((chat) => chat.message)).toEqual([text]);
  return {
    candidateId,
    chatId: chats[0]!.id,
    email: emailOf('sara'),
    messageId: `<notify.${candidateId}.${chats[0]!.id}@127.0.0.1>`,
  };
};

/** The single task of a kind (fails when there is none or more than one). */
const onlyTask = async (db: FaultDatabase, kind: string) => {
  const tasks = await db.outbox(kind);
  expect(tasks, `${kind} tasks`).toHaveLength(1);
  return tasks[0]!;
};

const dialects = ['sqlite', 'postgres'] as const;

describe.concurrent('kill -9 before the e-mail went out', () => {
  test.each(dialects)(
    '%s: killed before the message is due → sent exactly once after the restart',
    async (dialect) => {
      const db = await freshDatabase(dialect);
      const mail = await TestMailServer.start();
      let server: ServerProcess | undefined;
      try {
        const env = { SMTP_URL: mail.url, NOTIFY_EMAIL_DELAY_SECONDS: '2' };
        const first = await startNotifyServer(db, env);
        server = first;
        const sent = await oneMessage(first, db, 'Are you free on Monday?');
        await first.kill();

        // The rule's task waits, untouched, for its moment; nothing was sent.
        const due = await onlyTask(db, TASK.due);
        expect(due).toMatchObject({ attempts: 0, locked_by: null, done_at: null });
        expect(await db.outbox(TASK.email)).toEqual([]);
        await until(() => Date.now() > Date.parse(due.run_at) + 500, 'the message is due', 10_000);
        expect(mail.attempts).toBe(0);

        server = await startNotifyServer(db, env, first.port);
        const [delivered] = await mail.waitFor(1, sent.email);
        expect(messageIdOf(delivered!)).toBe(sent.messageId);
        expect(delivered!.parsed.text).toContain('Are you free on Monday?');
        await sleep(QUIET_MS);
        expect(mail.received.map(messageIdOf)).toEqual([sent.messageId]);
        expect(await onlyTask(db, TASK.email)).toMatchObject({
          attempts: 0,
          done_at: expect.any(String) as unknown,
        });
      } finally {
        await stopServer(server);
        await mail.close();
        await db.drop();
      }
    },
  );

  test.each(dialects)(
    '%s: killed mid-send (SMTP stalled, the task leased) → sent once after the lease ran out',
    async (dialect) => {
      const db = await freshDatabase(dialect);
      const mail = await TestMailServer.start();
      let server: ServerProcess | undefined;
      try {
        // Lease 6 s: the handlers' time is capped to 3 s, so the kill comes well before it ends.
        const env = {
          SMTP_URL: mail.url,
          NOTIFY_EMAIL_DELAY_SECONDS: '0',
          OUTBOX_LEASE_SECONDS: '6',
        };
        mail.mode = 'stall';
        const first = await startNotifyServer(db, env);
        server = first;
        const sent = await oneMessage(first, db, 'Can we talk tomorrow?');
        await until(() => mail.attempts >= 1, 'the e-mail is being handed over', 10_000);
        await first.kill();

        // Claimed by the dead instance, never finished: nobody may take it before its lease ends.
        const leased = await onlyTask(db, TASK.email);
        expect(leased).toMatchObject({ attempts: 0, done_at: null });
        expect(leased.locked_by).not.toBeNull();
        const leaseEnd = Date.parse(leased.locked_until!);
        expect(mail.received).toEqual([]);

        mail.mode = 'accept';
        server = await startNotifyServer(db, env, first.port);
        const [delivered] = await mail.waitFor(1, sent.email, 20_000);
        expect(messageIdOf(delivered!)).toBe(sent.messageId);
        expect(delivered!.receivedAt).toBeGreaterThanOrEqual(leaseEnd);
        await sleep(QUIET_MS);
        // The stalled attempt and the one after the lease: one accepted mail.
        expect(mail.attempts).toBe(2);
        expect(mail.received.map(messageIdOf)).toEqual([sent.messageId]);
        // marked done once the accepted attempt is recorded (a busy machine may take a moment)
        await until(
          async () => (await onlyTask(db, TASK.email)).done_at !== null,
          'the e-mail task is marked done',
          10_000,
        );
      } finally {
        await stopServer(server);
        await mail.close();
        await db.drop();
      }
    },
  );
});

describe('two instances on one PostgreSQL database', () => {
  const CANDIDATES = 40;
  const COMPANIES = ['acme', 'nile'];

  test('many receivers due at once: each gets exactly one e-mail', async () => {
    const db = await freshPostgres();
    // One SMTP server per instance: which instance sent what is then plain to see.
    const mails = [await TestMailServer.start(), await TestMailServer.start()];
    const servers: ServerProcess[] = [];
    try {
      const env = { NOTIFY_EMAIL_DELAY_SECONDS: '3', OUTBOX_POLL_MS: '10' };
      // One after the other: the first one migrates the fresh database.
      for (const mail of mails)
        servers.push(await startNotifyServer(db, { ...env, SMTP_URL: mail.url }));
      const hosts = servers.map((server) => new Host(server.url));

      const candidates = Array.from({ length: CANDIDATES }, (_, index) => `cand${index}`);
      for (const company of COMPANIES) await hosts[0]!.user(company, 'company', emailOf(company));
      await Promise.all(
        candidates.map((candidate, index) =>
          hosts[index % 2]!.user(candidate, 'candidate', emailOf(candidate)),
        ),
      );
      // Each candidate: two messages from each company and one answer to the first company,
      // through both instances, interleaved; the first company hears from everyone at once.
      const sends = candidates.flatMap((candidate) => [
        ...COMPANIES.flatMap((company) =>
          [1, 2].map(
            (n) => () =>
              hosts[n % 2]!.send(company, candidate, 'company', `${company} to ${candidate} #${n}`),
          ),
        ),
        () => hosts[1]!.send(COMPANIES[0]!, candidate, 'candidate', `${candidate} answers`),
      ]);
      for (let start = 0; start < sends.length; start += 40)
        await Promise.all(sends.slice(start, start + 40).map((send) => send()));
      expect(await db.chats()).toHaveLength(sends.length);

      // The second company only writes: it gets no e-mail.
      const receivers = [...candidates, COMPANIES[0]!].map(emailOf);
      const received = () => mails.flatMap((mail) => mail.received);
      await until(
        () => receivers.every((address) => received().some((mail) => mail.to.includes(address))),
        'every receiver got an e-mail',
        30_000,
        50,
      );
      await sleep(QUIET_MS);

      const all = received();
      const perReceiver = new Map<string, number>();
      for (const mail of all)
        for (const address of mail.to)
          perReceiver.set(address, (perReceiver.get(address) ?? 0) + 1);
      expect(Object.fromEntries(perReceiver)).toEqual(
        Object.fromEntries(receivers.map((address) => [address, 1])),
      );
      expect(new Set(all.map(messageIdOf)).size).toBe(all.length);
      // Both instances did some of the work.
      expect(mails.map((mail) => mail.received.length > 0)).toEqual([true, true]);
      const emailTasks = await db.outbox(TASK.email);
      expect(emailTasks).toHaveLength(receivers.length);
      expect(emailTasks.every((task) => task.done_at !== null && task.attempts === 0)).toBe(true);
    } finally {
      await Promise.all(servers.map((server) => stopServer(server)));
      await Promise.all(mails.map((mail) => mail.close()));
      await db.drop();
    }
  });
});

describe.concurrent('the SMTP server down when the e-mail is due', () => {
  test.each([
    ['sqlite', 'stopped'],
    ['postgres', 'refusing (451)'],
  ] as const)(
    '%s, SMTP %s: retried with backoff, sent exactly once when it is back',
    async (dialect, outage) => {
      const db = await freshDatabase(dialect);
      const mail = await TestMailServer.start();
      let server: ServerProcess | undefined;
      try {
        if (outage === 'stopped') await mail.stop();
        else mail.mode = 'refuse';
        server = await startNotifyServer(db, {
          SMTP_URL: mail.url,
          NOTIFY_EMAIL_DELAY_SECONDS: '1',
          OUTBOX_RETRY_BASE_SECONDS: '1',
        });
        const sent = await oneMessage(server, db, 'Your interview is confirmed.');

        await until(
          async () => ((await db.outbox(TASK.email))[0]?.attempts ?? 0) >= 2,
          'the e-mail failed twice',
          20_000,
          50,
        );
        const failing = await onlyTask(db, TASK.email);
        expect(failing.done_at).toBeNull();
        expect(failing.last_error).toMatch(outage === 'stopped' ? /ECONNREFUSED/ : /451/);
        expect(mail.received).toEqual([]);

        if (outage === 'stopped') await mail.listen();
        else mail.mode = 'accept';
        const [delivered] = await mail.waitFor(1, sent.email, 20_000);
        expect(messageIdOf(delivered!)).toBe(sent.messageId);
        await sleep(QUIET_MS);
        expect(mail.received.map(messageIdOf)).toEqual([sent.messageId]);
        const done = await onlyTask(db, TASK.email);
        expect(done.done_at).not.toBeNull();
        expect(done.attempts).toBeGreaterThanOrEqual(2);
      } finally {
        await stopServer(server);
        await mail.close();
        await db.drop();
      }
    },
  );
});

describe.concurrent('the webhook receiver failing, the server killed between attempts', () => {
  test.each(dialects)(
    '%s: 500, kill -9, restart, 500, 200 → delivered; one webhook-id, every signature valid',
    async (dialect) => {
      const db = await freshDatabase(dialect);
      const receiver = await TestWebhookReceiver.start();
      receiver.answer = (index) => (index < 2 ? 500 : 200);
      let server: ServerProcess | undefined;
      try {
        // Only `message.created` (no e-mail rule); retries 0.75–1.5 s, then 1.5–3 s, apart.
        const env = {
          WEBHOOK_URL: receiver.url,
          WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
          NOTIFICATIONS: 'off',
          OUTBOX_RETRY_BASE_SECONDS: '1.5',
        };
        const first = await startNotifyServer(db, env);
        server = first;
        await oneMessage(first, db, 'We would like to invite you.');

        // The first attempt failed and its failure is recorded: the task waits for its retry.
        await until(
          async () => {
            const task = (await db.outbox(TASK.webhook))[0];
            return task !== undefined && task.attempts === 1 && task.locked_by === null;
          },
          'the first attempt failed and its retry is scheduled',
          10_000,
        );
        await first.kill();
        const killedAt = Date.now();
        expect(receiver.received.map((hook) => hook.status)).toEqual([500]);

        server = await startNotifyServer(db, env, first.port);
        await until(
          () => receiver.received.some((hook) => hook.status === 200),
          'the event was delivered',
          20_000,
        );
        await sleep(QUIET_MS);

        const hooks = receiver.received;
        expect(hooks.map((hook) => hook.status)).toEqual([500, 500, 200]);
        expect(hooks.slice(1).every((hook) => hook.receivedAt >= killedAt)).toBe(true);
        const ids = new Set(hooks.map((hook) => hook.headers['webhook-id']));
        expect(ids.size).toBe(1);
        expect([...ids][0]).toMatch(/^msg_/);
        for (const hook of hooks) expect(() => receiver.verify(hook)).not.toThrow();
        expect(new Set(hooks.map((hook) => hook.body)).size).toBe(1);
        const [event] = receiver.events<{ message: { message: string } }>('message.created');
        expect(event!.data.message.message).toBe('We would like to invite you.');
        expect(await onlyTask(db, TASK.webhook)).toMatchObject({
          attempts: 2,
          done_at: expect.any(String) as unknown,
        });
      } finally {
        await stopServer(server);
        await receiver.close();
        await db.drop();
      }
    },
  );
});
