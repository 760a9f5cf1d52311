/**
 * Keeping people safe: blocking a conversation partner (what the blocked party can no longer do,
 * what stops reaching the blocker live, how each sees the other), reports with their frozen copy of
 * the conversation and their daily allowance, and the host's moderation (webhook, list, resolve,
 * suspend).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { ACME, HARBOR, NILE, OMAR, SARA } from '../../../../test-support/accounts.js';
import {
  createTestApp,
  signIn,
  withTestKey,
  type Session,
  type TestContext,
} from '../../../../test-support/test-app.js';
import { until } from '../../../../test-support/wait.js';
import {
  TEST_WEBHOOK_SECRET,
  TestWebhookReceiver,
} from '../../../../test-support/webhook-receiver.js';
import { initialDataResponseSchema } from '../../../shared/conversations.js';
import { sendMessageResponseSchema } from '../../../shared/messages.js';
import {
  MESSAGES_SEEN_EVENT,
  PRESENCE_CHANGED_EVENT,
  TYPING_EVENT,
  userChannelName,
} from '../../../shared/events.js';
import { integrationPaths } from '../../../shared/integration.js';
import type { MessengerUser } from '../../../shared/models.js';
import { paths } from '../../../shared/paths.js';
import {
  BLOCKED_MESSAGE,
  blocksResponseSchema,
  createReportResponseSchema,
  moderationPaths,
  REPORTS_PER_DAY,
  reportResponseSchema,
  reportsResponseSchema,
  safetyPaths,
  SUSPENDED_MESSAGE,
  type HostReport,
} from '../../../shared/safety.js';
import { MemoryPresenceStore } from '../presence/memory-presence-store.js';
import { createPresenceAnnouncements } from '../presence/presence-announcements.js';
import { createPresenceRepository } from '../presence/presence.repository.js';
import { createPresenceService } from '../presence/presence.service.js';

const dialect = inject('database');
const KEY = 'integration-key-for-safety-tests-0123456789';

interface Published {
  channels: string[];
  event: string;
  data: unknown;
}

describe(`blocking, reporting and moderation (${dialect})`, { timeout: 30_000 }, () => {
  let ctx: TestContext;
  let hooks: TestWebhookReceiver;
  let sara: Session; // candidate
  let omar: Session; // candidate
  let acme: Session; // company
  let nile: Session; // company
  let harbor: Session; // owner
  const published: Published[] = [];

  beforeAll(async () => {
    hooks = await TestWebhookReceiver.start();
    ctx = await createTestApp(dialect, {
      INTEGRATION_KEYS: KEY,
      WEBHOOK_URL: hooks.url,
      WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
      OUTBOX_POLL_MS: '50',
      NOTIFICATIONS: 'off',
    });
    sara = await signIn(ctx.app, SARA.email);
    omar = await signIn(ctx.app, OMAR.email);
    acme = await signIn(ctx.app, ACME.email);
    nile = await signIn(ctx.app, NILE.email);
    harbor = await signIn(ctx.app, HARBOR.email);
    // every live event the app publishes, to see what reaches whom
    const broadcaster = ctx.realtime.broadcaster;
    const publish = broadcaster.publish.bind(broadcaster);
    vi.spyOn(broadcaster, 'publish').mockImplementation(async (channels, event, data, socketId) => {
      published.push({ channels: [...channels], event, data });
      return publish(channels, event, data, socketId);
    });
  });
  afterAll(async () => {
    await ctx.close();
    await hooks.close();
  });

  const list = async (session: Session): Promise<MessengerUser[]> => {
    const response = await session.call('GET', paths.initialData);
    expect(response.statusCode).toBe(200);
    return initialDataResponseSchema.parse(response.json()).messengerUsers;
  };
  const conversationOf = async (viewer: Session, other: Session): Promise<MessengerUser> => {
    const found = (await list(viewer)).find(
      (item) => item.candidate_id === other.user.id || item.company_id === other.user.id,
    );
    if (!found) throw new Error(`${viewer.user.name} has no conversation with ${other.user.name}`);
    return found;
  };
  const send = (from: Session, conversation: MessengerUser, message: string, extra = {}) =>
    from.call('POST', paths.sendMessage, {
      receiver_id:
        from.user.id === conversation.candidate_id
          ? conversation.company_id
          : conversation.candidate_id,
      messenger_user: conversation.id,
      job_id: conversation.job_id,
      message,
      client_id: randomUUID(),
      ...extra,
    });
  const typing = (from: Session, conversation: MessengerUser) =>
    from.call('POST', paths.typing(conversation.id));
  const upload = (session: Session) => {
    const boundary = `----safety${randomUUID()}`;
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="note.txt"\r\nContent-Type: text/plain\r\n\r\n`,
      ),
      Buffer.from('a plain note'),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return ctx.app.inject({
      method: 'POST',
      url: withTestKey(paths.attachments),
      cookies: session.cookies,
      headers: {
        'x-xsrf-token': session.csrf,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload,
    });
  };
  const block = (blocker: Session, userId: number) =>
    blocker.call('POST', safetyPaths.blocks, { user_id: userId });
  const unblock = (blocker: Session, userId: number, withCsrf = true) =>
    ctx.app.inject({
      method: 'DELETE',
      url: withTestKey(safetyPaths.block(userId)),
      cookies: blocker.cookies,
      headers: withCsrf ? { 'x-xsrf-token': blocker.csrf } : {},
    });
  const report = (reporter: Session, body: Record<string, unknown>) =>
    reporter.call('POST', safetyPaths.reports, body);
  const host = (method: 'GET' | 'PATCH' | 'PUT', url: string, payload?: unknown) =>
    ctx.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${KEY}` },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  const toldTo = (userId: number, event: string) =>
    published.filter(
      (entry) => entry.event === event && entry.channels.includes(userChannelName(userId)),
    );

  describe('blocking', () => {
    it('lists, blocks (201, then 200), and unblocks (204) a conversation partner', async () => {
      expect((await harbor.call('GET', safetyPaths.blocks)).json()).toEqual({ blocks: [] });
      const first = await block(harbor, omar.user.id);
      expect(first.statusCode).toBe(201);
      expect(first.json()).toEqual({
        block: { user_id: omar.user.id, name: omar.user.name, blocked_at: expect.any(String) },
      });
      const again = await block(harbor, omar.user.id);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual(first.json());
      const listed = blocksResponseSchema.parse(
        (await harbor.call('GET', safetyPaths.blocks)).json(),
      );
      expect(listed.blocks).toEqual([first.json().block]);
      expect((await conversationOf(harbor, omar)).blocked).toBe(true);
      // the blocked party's view of the conversation does not say so
      expect((await conversationOf(omar, harbor)).blocked).toBe(false);
      expect((await unblock(harbor, omar.user.id)).statusCode).toBe(204);
      expect((await unblock(harbor, omar.user.id)).statusCode).toBe(204);
      expect((await harbor.call('GET', safetyPaths.blocks)).json()).toEqual({ blocks: [] });
      expect((await conversationOf(harbor, omar)).blocked).toBe(false);
    });

    it('refuses anyone but a conversation partner (422 naming user_id)', async () => {
      for (const [blocker, userId] of [
        [sara, omar.user.id],
        [sara, sara.user.id],
        [sara, 999_999],
        [nile, omar.user.id],
      ] as const) {
        const response = await block(blocker, userId);
        expect(response.statusCode).toBe(422);
        expect(response.json()).toMatchObject({ errors: { user_id: [expect.any(String)] } });
      }
      expect((await sara.call('POST', safetyPaths.blocks, { user_id: 'x' })).statusCode).toBe(422);
    });

    it('needs the CSRF header for a cookie-authenticated change', async () => {
      const response = await ctx.app.inject({
        method: 'POST',
        url: withTestKey(safetyPaths.blocks),
        cookies: sara.cookies,
        payload: { user_id: acme.user.id },
      });
      expect(response.statusCode).toBe(419);
      expect((await unblock(sara, acme.user.id, false)).statusCode).toBe(419);
    });

    it('refuses the blocked party’s sends, typing and files toward the blocker, keeps the history, and lets nothing of theirs through live', async () => {
      const saraSide = await conversationOf(sara, acme);
      const acmeSide = await conversationOf(acme, sara);
      const before = await send(acme, acmeSide, 'Before the block');
      expect(before.statusCode).toBe(200);
      const earlier = sendMessageResponseSchema.parse(before.json()).message;
      // Acme last saw online a while ago: Sara sees it until she is blocked
      await ctx.database.db.kysely
        .updateTable('users')
        .set({ last_seen_at: '2026-01-02T03:04:05.000Z' })
        .where('id', '=', acme.user.id)
        .execute();
      expect((await conversationOf(sara, acme)).other_last_seen_at).toBe(
        '2026-01-02T03:04:05.000Z',
      );

      expect((await block(sara, acme.user.id)).statusCode).toBe(201);
      published.length = 0;
      const refused = await send(acme, acmeSide, 'After the block');
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ message: BLOCKED_MESSAGE });
      const typed = await typing(acme, acmeSide);
      expect(typed.statusCode).toBe(403);
      expect(typed.json()).toEqual({ message: BLOCKED_MESSAGE });
      // an upload is not toward anyone yet; sending it toward the blocker is refused
      const uploaded = await upload(acme);
      expect(uploaded.statusCode).toBe(201);
      const withFile = await send(acme, acmeSide, '', {
        attachment_ids: [(uploaded.json() as { attachment: { id: number } }).attachment.id],
      });
      expect(withFile.statusCode).toBe(403);
      expect(withFile.json()).toEqual({ message: BLOCKED_MESSAGE });
      // nothing was stored, so nothing is e-mailed or posted to the host
      const stored = await ctx.database.db.kysely
        .selectFrom('chats')
        .select('message')
        .where('messenger_user_id', '=', acmeSide.id)
        .where('message', '=', 'After the block')
        .execute();
      expect(stored).toEqual([]);
      expect(
        hooks
          .events<{ message: { message: string } }>('message.created')
          .filter((event) => event.data.message.message === 'After the block'),
      ).toEqual([]);

      // the blocker still writes, and the blocked party reading it sends no receipt to the blocker
      expect((await send(sara, saraSide, 'I can still write')).statusCode).toBe(200);
      const opened = await acme.call('POST', paths.getMessage, {
        receiver_id: sara.user.id,
        job_id: acmeSide.job_id,
      });
      expect(opened.statusCode).toBe(200);
      expect(toldTo(sara.user.id, MESSAGES_SEEN_EVENT)).toEqual([]);
      expect(toldTo(sara.user.id, TYPING_EVENT)).toEqual([]);

      // earlier messages stay for both
      const history = await sara.call('POST', paths.getMessage, {
        receiver_id: acme.user.id,
        job_id: saraSide.job_id,
      });
      const ids = (history.json() as { messages: { chats: { id: number }[] }[] }).messages
        .flatMap((group) => group.chats)
        .map((chat) => chat.id);
      expect(ids).toContain(earlier.id);

      // neither sees the other online across the block
      expect(await conversationOf(sara, acme)).toMatchObject({
        blocked: true,
        other_online: false,
        other_last_seen_at: null,
      });
      expect(await conversationOf(acme, sara)).toMatchObject({
        blocked: false,
        other_online: false,
        other_last_seen_at: null,
      });

      // lifted: everything works again
      expect((await unblock(sara, acme.user.id)).statusCode).toBe(204);
      expect((await send(acme, acmeSide, 'After the unblock')).statusCode).toBe(200);
      expect((await typing(acme, acmeSide)).statusCode).toBe(204);
      expect((await conversationOf(sara, acme)).other_last_seen_at).toBe(
        '2026-01-02T03:04:05.000Z',
      );
    });

    it('tells no presence change of either party to the other across a block, read from the database when announced (any instance)', async () => {
      const told: Published[] = [];
      const store = new MemoryPresenceStore();
      const presence = createPresenceService({
        store,
        announcements: createPresenceAnnouncements({
          db: ctx.database.db.kysely,
          repository: createPresenceRepository(ctx.database.db),
          onlineAmong: (ids) => store.onlineAmong(ids),
          publisher: {
            publish: async (channels, event, data) => {
              told.push({ channels: [...channels], event, data });
            },
          },
        }),
        graceMs: 0,
      });
      try {
        presence.channelOccupancy(userChannelName(sara.user.id), true);
        await presence.settled(sara.user.id);
        expect((await block(sara, acme.user.id)).statusCode).toBe(201);
        told.length = 0;
        presence.channelOccupancy(userChannelName(acme.user.id), true);
        await presence.settled(acme.user.id);
        expect(
          told.filter(
            (entry) =>
              entry.event === PRESENCE_CHANGED_EVENT &&
              entry.channels.includes(userChannelName(sara.user.id)),
          ),
        ).toEqual([]);
        // the pair as the presence of this instance tells it when the block ends and begins
        told.length = 0;
        await presence.pairVisibilityChanged([sara.user.id, acme.user.id], false);
        expect(told.map((entry) => [entry.channels, entry.data])).toEqual(
          expect.arrayContaining([
            [
              [userChannelName(sara.user.id)],
              { user_id: acme.user.id, online: false, last_seen_at: null },
            ],
            [
              [userChannelName(acme.user.id)],
              { user_id: sara.user.id, online: false, last_seen_at: null },
            ],
          ]),
        );
        expect((await unblock(sara, acme.user.id)).statusCode).toBe(204);
        told.length = 0;
        await presence.pairVisibilityChanged([sara.user.id, acme.user.id], true);
        expect(told.map((entry) => entry.data)).toEqual(
          expect.arrayContaining([
            { user_id: acme.user.id, online: true, last_seen_at: null },
            { user_id: sara.user.id, online: true, last_seen_at: null },
          ]),
        );
        // no block: Acme going offline is told to Sara again
        told.length = 0;
        presence.channelOccupancy(userChannelName(acme.user.id), false);
        await until(
          () =>
            told.some(
              (entry) =>
                entry.event === PRESENCE_CHANGED_EVENT &&
                entry.channels.includes(userChannelName(sara.user.id)),
            ),
          'Sara told that Acme went offline',
        );
        // an unblock while the other is offline tells when they were last seen (across the block
        // the page showed none)
        await presence.settled(acme.user.id);
        const { last_seen_at: acmeLastSeen } = await ctx.database.db.kysely
          .selectFrom('users')
          .select('last_seen_at')
          .where('id', '=', acme.user.id)
          .executeTakeFirstOrThrow();
        expect(acmeLastSeen).not.toBeNull();
        expect((await block(sara, acme.user.id)).statusCode).toBe(201);
        expect((await unblock(sara, acme.user.id)).statusCode).toBe(204);
        told.length = 0;
        await presence.pairVisibilityChanged([sara.user.id, acme.user.id], true);
        expect(told.map((entry) => [entry.channels, entry.data])).toEqual([
          [
            [userChannelName(sara.user.id)],
            { user_id: acme.user.id, online: false, last_seen_at: acmeLastSeen },
          ],
        ]);
      } finally {
        await presence.close();
      }
    });
  });

  describe('reporting', () => {
    it('files a report (201), keeps the latest messages as they were, posts report.created, and can also block', async () => {
      const [reporter, other] = [sara, nile];
      const conversation = await conversationOf(sara, nile);
      const otherSide = await conversationOf(other, reporter);
      // more than the 50 kept
      for (let i = 0; i < 55; i += 1)
        expect((await send(reporter, conversation, `message ${i}`)).statusCode).toBe(200);
      const file = await upload(other);
      expect(file.statusCode).toBe(201);
      const withFile = await send(other, otherSide, '', {
        attachment_ids: [(file.json() as { attachment: { id: number } }).attachment.id],
      });
      expect(withFile.statusCode).toBe(200);
      expect((await send(other, otherSide, 'A scam offer, send money')).statusCode).toBe(200);
      const response = await report(reporter, {
        messenger_user_id: conversation.id,
        reason: 'scam',
        details: 'Asked me to pay a fee.',
        block: true,
      });
      expect(response.statusCode).toBe(201);
      const { report: receipt } = createReportResponseSchema.parse(response.json());
      expect(receipt).toEqual({
        id: expect.any(Number),
        status: 'open',
        created_at: expect.any(String),
      });
      expect(response.json()).toEqual({ report: receipt });
      // also blocked
      expect((await conversationOf(reporter, other)).blocked).toBe(true);
      expect((await send(other, otherSide, 'Still there?')).statusCode).toBe(403);

      // the copy is frozen: a later change of a message does not alter it
      await ctx.database.db.kysely
        .updateTable('chats')
        .set({ message: 'edited later' })
        .where('messenger_user_id', '=', conversation.id)
        .execute();
      await ctx.database.db.kysely
        .deleteFrom('attachments')
        .where('name', '=', 'note.txt')
        .execute();
      const [created] = (
        await hooks.waitFor<{ report: Omit<HostReport, 'status' | 'created_at'> }>(
          1,
          'report.created',
        )
      ).filter((event) => event.data.report.id === receipt.id);
      expect(created?.data.report).toMatchObject({
        id: receipt.id,
        reason: 'scam',
        details: 'Asked me to pay a fee.',
        messenger_user_id: conversation.id,
      });
      const hostCopy = created?.data.report.messages ?? [];
      expect(hostCopy).toHaveLength(50);
      expect(hostCopy.at(-1)?.message).toBe('A scam offer, send money');
      expect(hostCopy.at(-2)?.attachments.map((attachment) => attachment.name)).toEqual([
        'note.txt',
      ]);
      expect(hostCopy[0]?.message).toBe('message 7');
      const listed = reportsResponseSchema.parse(
        (await host('GET', moderationPaths.reports)).json(),
      );
      const mine = listed.reports.find((item) => item.id === receipt.id);
      expect(mine?.messages.at(-1)?.message).toBe('A scam offer, send money');
      expect(mine?.status).toBe('open');
      expect(mine?.messages.every((chat) => chat.message !== 'edited later')).toBe(true);
      expect(mine?.messages.at(-2)?.attachments.map((attachment) => attachment.name)).toEqual([
        'note.txt',
      ]);
      await unblock(reporter, other.user.id);
    });

    it('answers 403 for a conversation that is not the reporter’s, 404 for none, and 422 for a bad body', async () => {
      const others = await conversationOf(acme, omar);
      const notMine = await report(sara, { messenger_user_id: others.id, reason: 'spam' });
      expect(notMine.statusCode).toBe(403);
      expect((await report(sara, { messenger_user_id: 999_999, reason: 'spam' })).statusCode).toBe(
        404,
      );
      const conversation = await conversationOf(sara, acme);
      for (const [body, field] of [
        [{ messenger_user_id: conversation.id, reason: 'rude' }, 'reason'],
        [
          { messenger_user_id: conversation.id, reason: 'other', details: 'x'.repeat(1001) },
          'details',
        ],
        [{ messenger_user_id: conversation.id, reason: 'other', block: 'yes' }, 'block'],
        [{ reason: 'other' }, 'messenger_user_id'],
      ] as const) {
        const response = await report(sara, body);
        expect(response.statusCode).toBe(422);
        expect(response.json()).toMatchObject({ errors: { [field]: [expect.any(String)] } });
      }
    });

    it(`allows ${REPORTS_PER_DAY} reports per user in a rolling day (429 beyond)`, async () => {
      const conversation = await conversationOf(omar, acme);
      const filed = await ctx.database.db.kysely
        .selectFrom('reports')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('reporter_id', '=', omar.user.id)
        .executeTakeFirstOrThrow();
      for (let i = Number(filed.n); i < REPORTS_PER_DAY; i += 1) {
        const response = await report(omar, { messenger_user_id: conversation.id, reason: 'spam' });
        expect(response.statusCode).toBe(201);
      }
      const refused = await report(omar, { messenger_user_id: conversation.id, reason: 'spam' });
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ message: expect.stringContaining(String(REPORTS_PER_DAY)) });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // a day later the oldest ones no longer count
      await ctx.database.db.kysely
        .updateTable('reports')
        .set({ created_at: new Date(Date.now() - 25 * 3600_000).toISOString() })
        .where('reporter_id', '=', omar.user.id)
        .execute();
      expect(
        (await report(omar, { messenger_user_id: conversation.id, reason: 'other' })).statusCode,
      ).toBe(201);
    });
  });

  describe('moderation by the host', () => {
    it('lists reports newest first, by status, a page at a time, and resolves or dismisses them', async () => {
      const all = reportsResponseSchema.parse((await host('GET', moderationPaths.reports)).json());
      expect(all.reports.length).toBeGreaterThan(1);
      const ids = all.reports.map((item) => item.id);
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
      // the daily allowance filed more than a page? then the cursor walks on, none twice
      if (all.next_cursor) {
        const next = reportsResponseSchema.parse(
          (await host('GET', `${moderationPaths.reports}?cursor=${all.next_cursor}`)).json(),
        );
        expect(next.reports.every((item) => !ids.includes(item.id))).toBe(true);
      }
      const target = all.reports[0]!;
      const resolved = await host('PATCH', moderationPaths.report(target.id), {
        status: 'resolved',
      });
      expect(resolved.statusCode).toBe(200);
      expect(reportResponseSchema.parse(resolved.json()).report).toMatchObject({
        id: target.id,
        status: 'resolved',
      });
      const onlyResolved = reportsResponseSchema.parse(
        (await host('GET', `${moderationPaths.reports}?status=resolved`)).json(),
      );
      expect(onlyResolved.reports.map((item) => item.id)).toEqual([target.id]);
      const open = reportsResponseSchema.parse(
        (await host('GET', `${moderationPaths.reports}?status=open`)).json(),
      );
      expect(open.reports.map((item) => item.id)).not.toContain(target.id);
      const dismissed = await host('PATCH', moderationPaths.report(target.id), {
        status: 'dismissed',
      });
      expect(reportResponseSchema.parse(dismissed.json()).report.status).toBe('dismissed');

      expect(
        (await host('PATCH', moderationPaths.report(999_999), { status: 'resolved' })).statusCode,
      ).toBe(404);
      expect(
        (await host('PATCH', moderationPaths.report(target.id), { status: 'open' })).statusCode,
      ).toBe(422);
      expect((await host('GET', `${moderationPaths.reports}?status=closed`)).statusCode).toBe(422);
      expect((await host('GET', `${moderationPaths.reports}?cursor=nonsense`)).statusCode).toBe(
        422,
      );
      const anonymous = await ctx.app.inject({ method: 'GET', url: moderationPaths.reports });
      expect(anonymous.statusCode).toBe(401);
    });

    it('suspends a user: they sign in and read, but every send, typing call and upload answers 403', async () => {
      const externalId = `sara-${randomUUID()}`;
      await ctx.database.db.kysely
        .updateTable('users')
        .set({ external_id: externalId })
        .where('id', '=', sara.user.id)
        .execute();
      const put = (suspended: boolean) =>
        host('PUT', integrationPaths.user(externalId), {
          role: 'candidate',
          name: SARA.name,
          suspended,
        });
      const suspended = await put(true);
      expect(suspended.statusCode).toBe(200);
      expect(suspended.json()).toMatchObject({
        user: { external_id: externalId, suspended: true },
      });
      expect((await host('GET', integrationPaths.user(externalId))).json()).toMatchObject({
        user: { suspended: true },
      });

      const again = await signIn(ctx.app, SARA.email);
      expect(again.user).toMatchObject({ id: sara.user.id, suspended: true });
      const initial = await sara.call('GET', paths.initialData);
      expect(initial.statusCode).toBe(200);
      expect(initialDataResponseSchema.parse(initial.json()).auth.suspended).toBe(true);
      const conversation = await conversationOf(sara, acme);
      const opened = await sara.call('POST', paths.getMessage, {
        receiver_id: acme.user.id,
        job_id: conversation.job_id,
      });
      expect(opened.statusCode).toBe(200);
      for (const response of [
        await send(sara, conversation, 'Hello?'),
        await typing(sara, conversation),
        await upload(sara),
      ]) {
        expect(response.statusCode).toBe(403);
        expect(response.json()).toEqual({ message: SUSPENDED_MESSAGE });
      }

      const lifted = await put(false);
      expect(lifted.json()).toMatchObject({ user: { suspended: false } });
      expect((await send(sara, conversation, 'Back again')).statusCode).toBe(200);
      expect((await upload(sara)).statusCode).toBe(201);
      const initialAfter = initialDataResponseSchema.parse(
        (await sara.call('GET', paths.initialData)).json(),
      );
      expect(initialAfter.auth.suspended).toBe(false);
      expect(
        (
          await host('PUT', integrationPaths.user(externalId), {
            role: 'candidate',
            name: SARA.name,
            suspended: 'yes',
          })
        ).statusCode,
      ).toBe(422);
    });
  });
});
