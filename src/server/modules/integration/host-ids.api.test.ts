import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { initialDataResponseSchema } from '../../../shared/conversations.js';
import { paths } from '../../../shared/paths.js';
import {
  integrationJobResponseSchema,
  integrationPaths,
  startConversationResponseSchema,
} from '../../../shared/integration.js';
import type { HostChat, MessengerUser } from '../../../shared/models.js';
import {
  moderationPaths,
  reportsResponseSchema,
  safetyPaths,
  type HostReport,
} from '../../../shared/safety.js';
import { messageChangesPaths } from '../../../shared/message-changes-paths.js';
import { ACME, SARA } from '../../../../test-support/accounts.js';
import {
  createTestApp,
  signIn,
  type Session,
  type TestContext,
} from '../../../../test-support/test-app.js';
import { fresh, hostOf } from '../../../../test-support/host-api.js';
import { signInByLink as signInWithLink } from '../../../../test-support/sign-in-link.js';
import { until } from '../../../../test-support/wait.js';
import {
  TEST_WEBHOOK_SECRET,
  TestWebhookReceiver,
  type ReceivedEvent,
} from '../../../../test-support/webhook-receiver.js';

// Contract Part 4, "Arriving from the host": the host's ids on every `Chat` and conversation the
// integration API and webhooks carry (null for users and jobs the host did not make), and messages
// from the host kept apart from the senders' own send limits.

const dialect = inject('database');

const KEY = 'host-ids-test-integration-key-0123456789abcdef';
const OTHER_KEY = 'host-ids-test-other-integration-key-0123456789';
const SSO_SECRET = 'host-ids-test-sso-secret-0123456789abcdef-0123';

interface MessageEvent {
  message: HostChat;
  conversation_id: number;
}
interface UnseenEvent {
  receiver_id: number;
  receiver_external_id: string | null;
  messages: HostChat[];
}
type ReportEvent = { report: Omit<HostReport, 'status' | 'created_at'> };

const signInByLink = (ctx: TestContext, claims: { sub: string; role: string; name: string }) =>
  signInWithLink(ctx, SSO_SECRET, claims);

/** The viewer's conversation with that other user (as the page lists it). */
const conversationWith = async (viewer: Session, otherId: number): Promise<MessengerUser> => {
  const response = await viewer.call('GET', paths.initialData);
  expect(response.statusCode).toBe(200);
  const found = initialDataResponseSchema
    .parse(response.json())
    .messengerUsers.find((item) => item.candidate_id === otherId || item.company_id === otherId);
  if (!found) throw new Error(`no conversation with ${otherId}`);
  return found;
};

/** A send from the page (`POST /user/send/message`). */
const pageSend = (from: Session, conversation: MessengerUser, message: string) =>
  from.call('POST', paths.sendMessage, {
    receiver_id:
      from.user.id === conversation.candidate_id
        ? conversation.company_id
        : conversation.candidate_id,
    messenger_user: conversation.id,
    job_id: conversation.job_id,
    message,
    client_id: randomUUID(),
  });

const chatOf = (response: LightMyRequestResponse) =>
  (response.json() as { message: { id: number } }).message;

describe(
  `the host's ids in the integration API and webhooks (${dialect})`,
  { timeout: 60_000 },
  () => {
    let ctx: TestContext;
    let hooks: TestWebhookReceiver;
    const host = hostOf(() => ctx, KEY);

    beforeAll(async () => {
      hooks = await TestWebhookReceiver.start();
      ctx = await createTestApp(dialect, {
        INTEGRATION_KEYS: KEY,
        SSO_SECRET,
        WEBHOOK_URL: hooks.url,
        WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
        OUTBOX_POLL_MS: '50',
        OUTBOX_RETRY_BASE_SECONDS: '0.3',
        NOTIFY_EMAIL_DELAY_SECONDS: '1',
        NOTIFY_EMAIL_MIN_INTERVAL_SECONDS: '0',
      });
    });
    afterAll(async () => {
      await ctx.close();
      await hooks.close();
    });

    /** The webhook events of `type` about the message with this id (waits for the first). */
    const eventsOfMessage = async (type: string, messageId: number) => {
      let found: ReceivedEvent<MessageEvent>[] = [];
      await until(() => {
        found = hooks
          .events<MessageEvent>(type)
          .filter((event) => event.data.message.id === messageId);
        return found.length > 0;
      }, `${type} of message ${messageId}`);
      return found;
    };
    const unseenEventFor = async (receiverId: number, messageId: number) => {
      let found: ReceivedEvent<UnseenEvent> | undefined;
      await until(() => {
        found = hooks
          .events<UnseenEvent>('message.unseen')
          .find(
            (event) =>
              event.data.receiver_id === receiverId &&
              event.data.messages.some((message) => message.id === messageId),
          );
        return found !== undefined;
      }, `message.unseen of message ${messageId}`);
      return found!;
    };
    const reportEventOf = async (reportId: number) => {
      let found: ReceivedEvent<ReportEvent> | undefined;
      await until(() => {
        found = hooks
          .events<ReportEvent>('report.created')
          .find((event) => event.data.report.id === reportId);
        return found !== undefined;
      }, `report.created of report ${reportId}`);
      return found!;
    };

    it('a host-made conversation carries the host’s ids in the answer and in every webhook of its messages', async () => {
      const ids = await host.parties();
      const started = await host.start({
        company: ids.company,
        candidate: ids.candidate,
        job: ids.job,
        message: { from: 'company', text: 'Hello Karim, are you free to talk?' },
      });
      expect(started.statusCode, started.body).toBe(201);
      const { conversation } = startConversationResponseSchema.parse(started.json());
      expect(conversation).toMatchObject({
        company_external_id: ids.company,
        candidate_external_id: ids.candidate,
        job_external_id: ids.job,
      });

      // message.created, as the host sent it
      const [firstChat] = await ctx.database.db.kysely
        .selectFrom('chats')
        .select('id')
        .where('messenger_user_id', '=', conversation.id)
        .execute();
      const [created] = await eventsOfMessage('message.created', firstChat!.id);
      expect(created!.data.conversation_id).toBe(conversation.id);
      expect(created!.data.message).toMatchObject({
        messenger_user_id: conversation.id,
        sender_id: conversation.company_id,
        sender_external_id: ids.company,
        receiver_external_id: ids.candidate,
        job_external_id: ids.job,
      });

      // the candidate answers from the page (signed in through a link): the ids turn with the sides
      const karim = await signInByLink(ctx, {
        sub: ids.candidate,
        role: 'candidate',
        name: 'Karim Nasser',
      });
      const fromPage = await pageSend(
        karim,
        await conversationWith(karim, conversation.company_id),
        'Yes, Tuesday works.',
      );
      expect(fromPage.statusCode, fromPage.body).toBe(200);
      // the page's own answers keep their shape: no host ids in the send, the list or the history
      expect(fromPage.body).not.toContain('_external_id');
      expect((await karim.call('GET', paths.initialData)).body).not.toContain('_external_id');
      const history = await karim.call('POST', paths.getMessage, {
        receiver_id: conversation.company_id,
        job_id: conversation.job_id,
      });
      expect(history.statusCode, history.body).toBe(200);
      expect(history.body).toContain('Yes, Tuesday works.');
      expect(history.body).not.toContain('_external_id');
      const reply = chatOf(fromPage);
      const [replied] = await eventsOfMessage('message.created', reply.id);
      expect(replied!.data.message).toMatchObject({
        sender_external_id: ids.candidate,
        receiver_external_id: ids.company,
        job_external_id: ids.job,
      });

      // message.unseen: the company has not read it
      const unseen = await unseenEventFor(conversation.company_id, reply.id);
      expect(unseen.data.receiver_external_id).toBe(ids.company);
      expect(unseen.data.messages.find((message) => message.id === reply.id)).toMatchObject({
        sender_external_id: ids.candidate,
        receiver_external_id: ids.company,
        job_external_id: ids.job,
      });

      // edited, then deleted by its sender
      const edited = await karim.call('PATCH', messageChangesPaths.message(reply.id), {
        message: 'Yes, Tuesday at ten works.',
      });
      expect(edited.statusCode, edited.body).toBe(200);
      const [updated] = await eventsOfMessage('message.updated', reply.id);
      expect(updated!.data.message).toMatchObject({
        message: 'Yes, Tuesday at ten works.',
        sender_external_id: ids.candidate,
        receiver_external_id: ids.company,
        job_external_id: ids.job,
      });
      expect((await karim.call('DELETE', messageChangesPaths.message(reply.id))).statusCode).toBe(
        204,
      );
      const [deleted] = await eventsOfMessage('message.deleted', reply.id);
      expect(deleted!.data.message).toMatchObject({
        sender_external_id: ids.candidate,
        receiver_external_id: ids.company,
        job_external_id: ids.job,
      });

      // a report's copy: in report.created and on the host's list
      const filed = await karim.call('POST', safetyPaths.reports, {
        messenger_user_id: conversation.id,
        reason: 'spam',
      });
      expect(filed.statusCode, filed.body).toBe(201);
      const reportId = (filed.json() as { report: { id: number } }).report.id;
      const reported = await reportEventOf(reportId);
      const expectHostIds = (messages: HostChat[]) => {
        expect(messages.length).toBeGreaterThan(0);
        for (const message of messages)
          expect(message).toMatchObject(
            message.sender_id === conversation.company_id
              ? { sender_external_id: ids.company, receiver_external_id: ids.candidate }
              : { sender_external_id: ids.candidate, receiver_external_id: ids.company },
          );
        expect(messages.every((message) => message.job_external_id === ids.job)).toBe(true);
      };
      expectHostIds(reported.data.report.messages);
      const listed = reportsResponseSchema.parse(
        (await host.call('GET', moderationPaths.reports)).json(),
      );
      expectHostIds(listed.reports.find((item) => item.id === reportId)!.messages);
    });

    it('a conversation without a job: job_external_id is null, the parties’ ids are there', async () => {
      const ids = await host.parties();
      const started = await host.start({
        company: ids.company,
        candidate: ids.candidate,
        message: { from: 'candidate', text: 'A question about your company' },
      });
      expect(started.statusCode, started.body).toBe(201);
      const { conversation } = startConversationResponseSchema.parse(started.json());
      expect(conversation).toMatchObject({
        job_id: null,
        company_external_id: ids.company,
        candidate_external_id: ids.candidate,
        job_external_id: null,
      });
      const [chat] = await ctx.database.db.kysely
        .selectFrom('chats')
        .select('id')
        .where('messenger_user_id', '=', conversation.id)
        .execute();
      const [created] = await eventsOfMessage('message.created', chat!.id);
      expect(created!.data.message).toMatchObject({
        sender_external_id: ids.candidate,
        receiver_external_id: ids.company,
        job_external_id: null,
      });
    });

    it('users and jobs the host did not make: every host id is null, in every webhook and report', async () => {
      const sara = await signIn(ctx.app, SARA.email);
      const acme = await signIn(ctx.app, ACME.email);
      const conversation = await conversationWith(sara, acme.user.id);
      expect(conversation.job_id).not.toBeNull();
      const sent = await pageSend(sara, conversation, 'Is the role still open?');
      expect(sent.statusCode, sent.body).toBe(200);
      const { id } = chatOf(sent);
      const nulls = { sender_external_id: null, receiver_external_id: null, job_external_id: null };
      const [created] = await eventsOfMessage('message.created', id);
      expect(created!.data.message).toMatchObject({ ...nulls, sender_id: sara.user.id });
      const unseen = await unseenEventFor(acme.user.id, id);
      expect(unseen.data.messages.find((message) => message.id === id)).toMatchObject(nulls);
      const edited = await sara.call('PATCH', messageChangesPaths.message(id), {
        message: 'Is the role still open, please?',
      });
      expect(edited.statusCode, edited.body).toBe(200);
      const [updated] = await eventsOfMessage('message.updated', id);
      expect(updated!.data.message).toMatchObject(nulls);
      expect((await sara.call('DELETE', messageChangesPaths.message(id))).statusCode).toBe(204);
      const [deleted] = await eventsOfMessage('message.deleted', id);
      expect(deleted!.data.message).toMatchObject(nulls);

      const filed = await sara.call('POST', safetyPaths.reports, {
        messenger_user_id: conversation.id,
        reason: 'spam',
      });
      expect(filed.statusCode, filed.body).toBe(201);
      const reportId = (filed.json() as { report: { id: number } }).report.id;
      const reported = await reportEventOf(reportId);
      expect(reported.data.report.messages.length).toBeGreaterThan(0);
      for (const message of reported.data.report.messages) expect(message).toMatchObject(nulls);
      const listed = reportsResponseSchema.parse(
        (await host.call('GET', moderationPaths.reports)).json(),
      );
      for (const message of listed.reports.find((item) => item.id === reportId)!.messages)
        expect(message).toMatchObject(nulls);
    });

    it('a job’s deadline may be left out: it is then null (created, and updated back to none)', async () => {
      const company = fresh('co');
      await host.put(integrationPaths.user(company), { role: 'company', name: 'Nimbus' });
      const job = fresh('job');
      const created = await host.call('PUT', integrationPaths.job(job), {
        company,
        title: 'Courier',
        status: 'active',
      });
      expect(created.statusCode, created.body).toBe(201);
      expect(integrationJobResponseSchema.parse(created.json()).job.deadline).toBeNull();
      const dated = await host.put(integrationPaths.job(job), {
        company,
        title: 'Courier',
        status: 'active',
        deadline: '2027-03-01',
      });
      expect(integrationJobResponseSchema.parse(dated.json()).job.deadline).toBe('2027-03-01');
      const undated = await host.put(integrationPaths.job(job), {
        company,
        title: 'Courier',
        status: 'active',
      });
      expect(undated.statusCode).toBe(200);
      expect(integrationJobResponseSchema.parse(undated.json()).job.deadline).toBeNull();
      // a conversation about it shows the job without a deadline
      const candidate = fresh('cand');
      await host.put(integrationPaths.user(candidate), { role: 'candidate', name: 'Rana' });
      const started = await host.start({ company, candidate, job });
      expect(started.statusCode, started.body).toBe(201);
      expect(startConversationResponseSchema.parse(started.json()).conversation.job).toMatchObject({
        title: 'Courier',
        deadline: null,
      });
      // still refused when it is not a date
      const bad = await host.call('PUT', integrationPaths.job(job), {
        company,
        title: 'Courier',
        status: 'active',
        deadline: 'soon',
      });
      expect(bad.statusCode).toBe(422);
      expect(Object.keys((bad.json() as { errors: object }).errors)).toEqual(['deadline']);
    });
  },
);

describe(`messages from the host and the send limits (${dialect})`, { timeout: 60_000 }, () => {
  let ctx: TestContext | undefined;
  const host = hostOf(() => ctx!, KEY);
  afterAll(async () => ctx?.close());

  const useApp = async (overrides: Record<string, string>) => {
    await ctx?.close();
    ctx = await createTestApp(dialect, {
      INTEGRATION_KEYS: `${KEY},${OTHER_KEY}`,
      SSO_SECRET,
      ...overrides,
    });
    return ctx;
  };
  const hostSend = (
    ids: { company: string; candidate: string; job?: string },
    text: string,
    key = KEY,
  ) =>
    host.start(
      {
        company: ids.company,
        candidate: ids.candidate,
        ...(ids.job ? { job: ids.job } : {}),
        message: { from: 'company', text },
      },
      key,
    );

  it('host messages do not use up the sender’s SEND_RATE_* limits, nor are they refused by them', async () => {
    const app = await useApp({
      SEND_RATE_BURST: '3',
      SEND_RATE_PER_SECOND: '0.01',
      SEND_RATE_CONVERSATION_BURST: '3',
      SEND_RATE_CONVERSATION_PER_SECOND: '0.01',
    });
    const ids = await host.parties();
    for (let index = 0; index < 10; index += 1) {
      const response = await hostSend(ids, `From the host ${index}`);
      expect(response.statusCode, response.body).toBeLessThan(300);
    }
    // the company itself still has its whole burst on the page, and no more
    const atlas = await signInByLink(app, {
      sub: ids.company,
      role: 'company',
      name: 'Atlas Freight',
    });
    const karim = await app.database.db.kysely
      .selectFrom('users')
      .select('id')
      .where('external_id', '=', ids.candidate)
      .executeTakeFirstOrThrow();
    const conversation = await conversationWith(atlas, karim.id);
    const statuses: number[] = [];
    for (let index = 0; index < 4; index += 1)
      statuses.push((await pageSend(atlas, conversation, `From the page ${index}`)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
    // and the host still sends as them once their own limit is used up
    expect((await hostSend(ids, 'From the host, after')).statusCode).toBe(200);
    const stored = await app.database.db.kysely
      .selectFrom('chats')
      .select('id')
      .where('messenger_user_id', '=', conversation.id)
      .execute();
    expect(stored).toHaveLength(14);
  });

  it('with the default limits, 52 host messages at about 10 a second to one conversation all succeed', async () => {
    // the SEND_RATE_* defaults (the test app lifts them otherwise)
    const app = await useApp({
      SEND_RATE_BURST: '30',
      SEND_RATE_PER_SECOND: '2',
      SEND_RATE_CONVERSATION_BURST: '20',
      SEND_RATE_CONVERSATION_PER_SECOND: '1',
    });
    const ids = await host.parties();
    // one every 100 ms, each sent when its turn comes (not after the previous answer)
    const answers = Array.from(
      { length: 52 },
      (_, index) =>
        new Promise<LightMyRequestResponse>((resolve, reject) =>
          setTimeout(() => {
            hostSend(ids, `Update ${index} on your application`).then(resolve, reject);
          }, index * 100),
        ),
    );
    const statuses = (await Promise.all(answers)).map((response) => response.statusCode);
    expect(statuses.filter((status) => status >= 300)).toEqual([]);
    const stored = await app.database.db.kysely
      .selectFrom('chats')
      .select('id')
      .where('message', 'like', 'Update % on your application')
      .execute();
    expect(stored).toHaveLength(52);
  });

  it('beyond HOST_SEND_RATE_PER_SECOND per key: 429 with Retry-After, nothing sent; another key and calls without a message are not held', async () => {
    const app = await useApp({ HOST_SEND_RATE_PER_SECOND: '2' });
    const ids = await host.parties();
    // at once: the burst is one second's worth (2), the rest is refused
    const answers = await Promise.all(
      [0, 1, 2, 3, 4].map((index) => hostSend(ids, `All at once ${index}`)),
    );
    const accepted = answers.filter((response) => response.statusCode < 300);
    const refused = answers.filter((response) => response.statusCode === 429);
    expect(accepted.length).toBeGreaterThanOrEqual(2);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(accepted.length + refused.length).toBe(5);
    for (const response of refused) {
      expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(response.json()).toEqual({
        message: 'Too many messages from this integration key. Please slow down.',
      });
    }
    const stored = await app.database.db.kysely
      .selectFrom('chats')
      .select('id')
      .where('message', 'like', 'All at once %')
      .execute();
    expect(stored).toHaveLength(accepted.length);
    // another key has its own limit
    expect((await hostSend(ids, 'From the other key', OTHER_KEY)).statusCode).toBe(200);
    // finding the conversation again sends nothing and is not limited
    const found = await host.start({ company: ids.company, candidate: ids.candidate });
    expect(found.statusCode).toBeLessThan(300);
  });
});
