/**
 * Editing and deleting messages: by the sender only, within the edit window; what an edit and a
 * delete change in the same commit (text, files, the list's preview, the receiver's unread count,
 * the full-text index, the host's webhooks), what goes live to whom, and what a later e-mail says.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import {
  ACME,
  DANIEL,
  HARBOR,
  MAYA,
  NILE,
  OMAR,
  ORBIT,
  SARA,
  YOUSSEF,
} from '../../../../test-support/accounts.js';
import { TestMailServer } from '../../../../test-support/mail-server.js';
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
import { getMessageResponseSchema, sendMessageResponseSchema } from '../../../shared/messages.js';
import { MESSAGE_UPDATED_EVENT, userChannelName } from '../../../shared/events.js';
import type { Chat, MessengerUser } from '../../../shared/models.js';
import { paths } from '../../../shared/paths.js';
import { BLOCKED_MESSAGE, safetyPaths, SUSPENDED_MESSAGE } from '../../../shared/safety.js';
import {
  EDIT_WINDOW_PASSED_MESSAGE,
  editMessageResponseSchema,
  messageChangesPaths,
} from '../../../shared/message-changes.js';
import { messageUpdatedEventSchema } from '../../../shared/events.js';
import { searchDocument } from '../../../shared/search-text.js';

const dialect = inject('database');

interface Published {
  channels: string[];
  event: string;
  data: unknown;
  socketId: string | undefined;
}
interface ChangedEvent {
  message: Chat;
  conversation_id: number;
}

describe(`editing and deleting messages (${dialect})`, { timeout: 30_000 }, () => {
  let ctx: TestContext;
  let hooks: TestWebhookReceiver;
  let mail: TestMailServer;
  let storageDir: string;
  const sessions: Record<string, Session> = {};
  const published: Published[] = [];

  beforeAll(async () => {
    hooks = await TestWebhookReceiver.start();
    mail = await TestMailServer.start();
    storageDir = mkdtempSync(join(tmpdir(), 'message-edits-'));
    ctx = await createTestApp(dialect, {
      STORAGE_URL: `file:${storageDir}`,
      WEBHOOK_URL: hooks.url,
      WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
      SMTP_URL: mail.url,
      NOTIFY_EMAIL_DELAY_SECONDS: '2',
      NOTIFY_EMAIL_MIN_INTERVAL_SECONDS: '1',
      OUTBOX_POLL_MS: '50',
    });
    for (const account of [SARA, OMAR, ACME, NILE, HARBOR, YOUSSEF, MAYA, DANIEL, ORBIT])
      sessions[account.key] = await signIn(ctx.app, account.email);
    const broadcaster = ctx.realtime.broadcaster;
    const publish = broadcaster.publish.bind(broadcaster);
    vi.spyOn(broadcaster, 'publish').mockImplementation(async (channels, event, data, socketId) => {
      published.push({ channels: [...channels], event, data, socketId });
      return publish(channels, event, data, socketId);
    });
  });
  afterAll(async () => {
    await ctx.close();
    await hooks.close();
    await mail.close();
    rmSync(storageDir, { recursive: true, force: true });
  });

  const db = () => ctx.database.db.kysely;
  const as = (account: { key: string }): Session => {
    const session = sessions[account.key];
    if (!session) throw new Error(`${account.key} is not signed in`);
    return session;
  };
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
  const send = async (
    from: Session,
    to: Session,
    message: string,
    attachmentIds: number[] = [],
  ): Promise<Chat> => {
    const conversation = await conversationOf(from, to);
    const response = await from.call('POST', paths.sendMessage, {
      receiver_id: to.user.id,
      messenger_user: conversation.id,
      job_id: conversation.job_id,
      message,
      client_id: randomUUID(),
      ...(attachmentIds.length > 0 ? { attachment_ids: attachmentIds } : {}),
    });
    expect(response.statusCode, response.body).toBe(200);
    return sendMessageResponseSchema.parse(response.json()).message;
  };
  const edit = (session: Session, id: number, message: unknown, headers?: Record<string, string>) =>
    session.call('PATCH', messageChangesPaths.message(id), { message }, headers);
  const remove = (session: Session, id: number, headers: Record<string, string> = {}) =>
    ctx.app.inject({
      method: 'DELETE',
      url: withTestKey(messageChangesPaths.message(id)),
      cookies: session.cookies,
      headers: { 'x-xsrf-token': session.csrf, ...headers },
    });
  const history = async (viewer: Session, other: Session): Promise<Chat[]> => {
    const conversation = await conversationOf(viewer, other);
    const response = await viewer.call('POST', paths.getMessage, {
      receiver_id: other.user.id,
      job_id: conversation.job_id,
      limit: 100,
    });
    expect(response.statusCode).toBe(200);
    return getMessageResponseSchema.parse(response.json()).messages.flatMap((group) => group.chats);
  };
  const upload = async (session: Session, name: string, bytes: Buffer): Promise<number> => {
    const boundary = `----edits${randomUUID()}`;
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const response = await ctx.app.inject({
      method: 'POST',
      url: withTestKey(paths.attachments),
      cookies: session.cookies,
      headers: {
        'x-xsrf-token': session.csrf,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload,
    });
    expect(response.statusCode, response.body).toBe(201);
    return (response.json() as { attachment: { id: number } }).attachment.id;
  };
  const storedFiles = (): string[] =>
    existsSync(storageDir)
      ? readdirSync(storageDir, { recursive: true, withFileTypes: true })
          .filter((entry) => entry.isFile())
          .map((entry) => entry.name)
      : [];
  const toldTo = (userId: number) =>
    published.filter(
      (entry) =>
        entry.event === MESSAGE_UPDATED_EVENT && entry.channels.includes(userChannelName(userId)),
    );
  /** The message's words as the full-text index holds them ('' : no entry). */
  const indexed = async (chatId: number): Promise<string | null> => {
    if (dialect === 'postgres') {
      const { rows } = await sql<{
        vector: string | null;
      }>`select search_vector::text as vector from chats where id = ${chatId}`.execute(db());
      return rows[0]?.vector ?? null;
    }
    // (FTS5 ignores a bound `rowid = ?` beside MATCH: the rows are picked here)
    const { rows } = await sql<{
      rowid: number;
    }>`select rowid from chats_search where chats_search match ${'"edited"*'}`.execute(db());
    return rows.some((row) => Number(row.rowid) === chatId) ? 'edited' : null;
  };
  const chatRow = (id: number) =>
    db().selectFrom('chats').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  describe('e-mails', () => {
    // First in the file: the receivers below have had no e-mail yet (the minimum interval).
    it('an e-mail composed after an edit carries the new text and leaves a deleted message out', async () => {
      const [acme, youssef] = [as(ACME), as(YOUSSEF)];
      // only what this test sends is news for the receiver
      await db()
        .updateTable('chats')
        .set({ notified_at: new Date().toISOString() })
        .where('receiver_id', '=', youssef.user.id)
        .where('notified_at', 'is', null)
        .execute();
      const kept = await send(acme, youssef, 'Interview on Monday at 9');
      const gone = await send(acme, youssef, 'Secret salary figure 1234');
      expect((await edit(acme, kept.id, 'Interview on Tuesday at 10')).statusCode).toBe(200);
      expect((await remove(acme, gone.id)).statusCode).toBe(204);
      const [email] = await mail.waitFor(1, YOUSSEF.email);
      const text = email?.parsed.text ?? '';
      expect(text).toContain('Interview on Tuesday at 10');
      expect(text).not.toContain('Interview on Monday at 9');
      expect(text).not.toContain('Secret salary figure');
    });

    it('sends no e-mail when every unseen message was deleted', async () => {
      const [acme, maya] = [as(ACME), as(MAYA)];
      await db()
        .updateTable('chats')
        .set({ notified_at: new Date().toISOString() })
        .where('receiver_id', '=', maya.user.id)
        .where('notified_at', 'is', null)
        .execute();
      const gone = await send(acme, maya, 'Sent to the wrong person');
      expect((await remove(acme, gone.id)).statusCode).toBe(204);
      // the rule's task for that message has run (after the 2 s delay) and found nothing due
      await until(
        async () =>
          (
            await db()
              .selectFrom('outbox')
              .select('done_at')
              .where('dedupe_key', '=', `notify.due:chat:${gone.id}`)
              .executeTakeFirst()
          )?.done_at != null,
        'the e-mail rule ran for the deleted message',
        10_000,
      );
      expect(mail.to(MAYA.email)).toEqual([]);
      expect((await chatRow(gone.id)).notified_at).toBeNull();
    });
  });

  it('the sender edits a message: 200 with the send’s answer shape, edited_at, the index and the host told, both parties live', async () => {
    const [sara, nile] = [as(SARA), as(NILE)];
    const sent = await send(sara, nile, 'Hello, I am interested in the role');
    published.length = 0;
    const response = await edit(sara, sent.id, '  Hello, I am edited and interested  ', {
      'x-socket-id': '123.456',
    });
    expect(response.statusCode, response.body).toBe(200);
    const answer = editMessageResponseSchema.parse(response.json());
    expect(answer.message).toMatchObject({
      id: sent.id,
      message: 'Hello, I am edited and interested',
      created_at: sent.created_at,
      deleted_at: null,
      attachments: [],
    });
    expect(answer.message.edited_at).not.toBeNull();
    expect(answer.messengerUser).toMatchObject({
      id: sent.messenger_user_id,
      last_message: 'Hello, I am edited and interested',
      last_message_at: (await conversationOf(sara, nile)).last_message_at,
    });
    const row = await chatRow(sent.id);
    expect(row).toMatchObject({ message: 'Hello, I am edited and interested', deleted_at: null });
    expect(await indexed(sent.id)).toContain('edited');
    if (dialect === 'postgres')
      expect(await indexed(sent.id)).toBe(
        (
          await sql<{
            v: string;
          }>`select to_tsvector('simple', ${searchDocument('Hello, I am edited and interested')})::text as v`.execute(
            db(),
          )
        ).rows[0]?.v,
      );

    // live: both parties, each with the conversation as they see it; the request's socket left out
    const toSara = toldTo(sara.user.id);
    const toNile = toldTo(nile.user.id);
    expect(toSara).toHaveLength(1);
    expect(toNile).toHaveLength(1);
    for (const entry of [...toSara, ...toNile]) expect(entry.socketId).toBe('123.456');
    const saraEvent = messageUpdatedEventSchema.parse(toSara[0]?.data);
    const nileEvent = messageUpdatedEventSchema.parse(toNile[0]?.data);
    expect(saraEvent.messenger_user_id).toBe(sent.messenger_user_id);
    expect(saraEvent.message.message).toBe('Hello, I am edited and interested');
    expect(saraEvent.messengerUser).toEqual(answer.messengerUser);
    expect(nileEvent.messengerUser).toEqual(await conversationOf(nile, sara));

    // the host: message.updated, data as for message.created
    await until(
      () =>
        hooks
          .events<ChangedEvent>('message.updated')
          .some((event) => event.data.message.id === sent.id),
      'message.updated for the edited message',
    );
    const [updated] = hooks
      .events<ChangedEvent>('message.updated')
      .filter((event) => event.data.message.id === sent.id);
    expect(updated?.data).toEqual({
      message: expect.objectContaining({
        id: sent.id,
        message: 'Hello, I am edited and interested',
        edited_at: answer.message.edited_at,
        deleted_at: null,
      }),
      conversation_id: sent.messenger_user_id,
    });

    // the same text again: nothing changes
    published.length = 0;
    const same = await edit(sara, sent.id, 'Hello, I am edited and interested');
    expect(same.statusCode).toBe(200);
    expect(editMessageResponseSchema.parse(same.json()).message.edited_at).toBe(
      answer.message.edited_at,
    );
    expect(toldTo(sara.user.id)).toEqual([]);
  });

  it('answers 403 to the other party and 404 to anyone else, or for a missing id; needs the CSRF header', async () => {
    const [sara, nile, omar] = [as(SARA), as(NILE), as(OMAR)];
    const sent = await send(sara, nile, 'Only mine to change');
    expect((await edit(nile, sent.id, 'Changed by Nile')).statusCode).toBe(403);
    expect((await remove(nile, sent.id)).statusCode).toBe(403);
    expect((await edit(omar, sent.id, 'Changed by Omar')).statusCode).toBe(404);
    expect((await remove(omar, sent.id)).statusCode).toBe(404);
    expect((await edit(sara, 2_000_000_000, 'Nothing')).statusCode).toBe(404);
    expect((await remove(sara, 2_000_000_000)).statusCode).toBe(404);
    const noCsrf = await ctx.app.inject({
      method: 'DELETE',
      url: withTestKey(messageChangesPaths.message(sent.id)),
      cookies: sara.cookies,
    });
    expect(noCsrf.statusCode).toBe(419);
    expect((await chatRow(sent.id)).message).toBe('Only mine to change');
  });

  it('answers 422 once the edit window has passed, or once the message is deleted', async () => {
    const [sara, nile] = [as(SARA), as(NILE)];
    const old = await send(sara, nile, 'Sent long ago');
    await db()
      .updateTable('chats')
      .set({ created_at: new Date(Date.now() - ctx.config.editWindowMs - 1000).toISOString() })
      .where('id', '=', old.id)
      .execute();
    for (const response of [await edit(sara, old.id, 'Too late'), await remove(sara, old.id)]) {
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        message: EDIT_WINDOW_PASSED_MESSAGE,
        errors: { message: [EDIT_WINDOW_PASSED_MESSAGE] },
      });
    }
    const deleted = await send(sara, nile, 'Deleted soon');
    expect((await remove(sara, deleted.id)).statusCode).toBe(204);
    expect((await edit(sara, deleted.id, 'Back again')).statusCode).toBe(422);
    expect((await remove(sara, deleted.id)).statusCode).toBe(422);
  });

  it('keeps the send’s text rules: empty only for a message with files', async () => {
    const [sara, nile] = [as(SARA), as(NILE)];
    const sent = await send(sara, nile, 'Some text');
    for (const bad of ['', '   ', '\u200b', 'x'.repeat(5001), 'a\u0000b', 42]) {
      const response = await edit(sara, sent.id, bad);
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({ errors: { message: [expect.any(String)] } });
    }
    expect((await chatRow(sent.id)).message).toBe('Some text');
    const file = await upload(sara, 'notes.txt', Buffer.from('a plain note'));
    const withFile = await send(sara, nile, 'With a file', [file]);
    const emptied = await edit(sara, withFile.id, '');
    expect(emptied.statusCode).toBe(200);
    expect(editMessageResponseSchema.parse(emptied.json()).message).toMatchObject({
      message: '',
      attachments: [expect.objectContaining({ id: file })],
    });
    // the preview of a message with files and no text: its first file's name
    expect((await conversationOf(sara, nile)).last_message).toBe('notes.txt');
  });

  it('a delete empties the text, removes the files from storage and the index, and keeps the message in its place', async () => {
    const [sara, nile] = [as(SARA), as(NILE)];
    const before = await send(sara, nile, 'Before the files');
    const image = await upload(
      sara,
      'photo.png',
      await sharp({ create: { width: 900, height: 600, channels: 3, background: '#2266aa' } })
        .png()
        .toBuffer(),
    );
    const note = await upload(sara, 'edited-note.txt', Buffer.from('a plain note'));
    const withFiles = await send(sara, nile, 'edited files here', [image, note]);
    expect((await edit(sara, withFiles.id, 'edited files, twice')).statusCode).toBe(200);
    expect(await indexed(withFiles.id)).not.toBeNull();
    const keys = await db()
      .selectFrom('attachments')
      .select(['storage_key', 'thumbnail_key'])
      .where('chat_id', '=', withFiles.id)
      .execute();
    const fileNames = keys.flatMap((key) => [key.storage_key, key.thumbnail_key ?? '']);
    expect(fileNames.filter(Boolean)).toHaveLength(3);
    for (const name of fileNames.filter(Boolean)) expect(storedFiles()).toContain(name);
    expect((await nile.call('GET', paths.attachment(image))).statusCode).toBe(200);

    published.length = 0;
    const deleted = await remove(sara, withFiles.id, { 'x-socket-id': '77.88' });
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    for (const name of fileNames.filter(Boolean)) expect(storedFiles()).not.toContain(name);
    for (const session of [sara, nile]) {
      expect((await session.call('GET', paths.attachment(image))).statusCode).toBe(404);
      expect((await session.call('GET', paths.attachmentThumbnail(image))).statusCode).toBe(404);
      expect((await session.call('GET', paths.attachment(note))).statusCode).toBe(404);
    }
    expect(await indexed(withFiles.id)).toBeNull();
    if (dialect === 'sqlite') {
      const { rows } = await sql<{
        n: number;
      }>`select count(*) as n from chats_search where rowid = ${withFiles.id}`.execute(db());
      expect(Number(rows[0]?.n)).toBe(0);
    }

    // in its place in the history, for both parties
    for (const [viewer, other] of [
      [sara, nile],
      [nile, sara],
    ] as const) {
      const chats = await history(viewer, other);
      const index = chats.findIndex((chat) => chat.id === withFiles.id);
      expect(chats[index - 1]?.id).toBe(before.id);
      expect(chats[index]).toMatchObject({
        message: '',
        attachments: [],
        deleted_at: expect.any(String),
      });
    }

    // live to both (the request's socket left out), the message as deleted
    for (const userId of [sara.user.id, nile.user.id]) {
      const [entry] = toldTo(userId);
      expect(entry?.socketId).toBe('77.88');
      const event = messageUpdatedEventSchema.parse(entry?.data);
      expect(event.message).toMatchObject({
        id: withFiles.id,
        message: '',
        attachments: [],
        deleted_at: expect.any(String),
      });
    }

    // the host: message.deleted, data as for message.created
    await until(
      () =>
        hooks
          .events<ChangedEvent>('message.deleted')
          .some((event) => event.data.message.id === withFiles.id),
      'message.deleted for the message with files',
    );
    const posted = hooks
      .events<ChangedEvent>('message.deleted')
      .find((event) => event.data.message.id === withFiles.id);
    expect(posted?.data).toEqual({
      message: expect.objectContaining({
        message: '',
        attachments: [],
        deleted_at: expect.any(String),
      }),
      conversation_id: withFiles.messenger_user_id,
    });
  });

  it('the list’s preview follows when the message was the latest, and only then', async () => {
    const [sara, nile] = [as(SARA), as(NILE)];
    const file = await upload(sara, 'portfolio.txt', Buffer.from('my work'));
    const first = await send(sara, nile, '', [file]);
    const second = await send(sara, nile, 'Second message');
    const third = await send(sara, nile, 'Third message');
    const at = (await conversationOf(sara, nile)).last_message_at;
    // not the latest: nothing moves
    expect((await edit(sara, second.id, 'Second, edited')).statusCode).toBe(200);
    expect(await conversationOf(sara, nile)).toMatchObject({
      last_message: 'Third message',
      last_message_at: at,
    });
    expect((await remove(sara, second.id)).statusCode).toBe(204);
    expect((await conversationOf(sara, nile)).last_message).toBe('Third message');
    // the latest: the new text's preview, for both parties
    expect((await edit(sara, third.id, 'Third, edited')).statusCode).toBe(200);
    expect((await conversationOf(nile, sara)).last_message).toBe('Third, edited');
    // deleted: the newest message left (here files only: its first file's name); time unchanged
    expect((await remove(sara, third.id)).statusCode).toBe(204);
    expect(await conversationOf(nile, sara)).toMatchObject({
      last_message: 'portfolio.txt',
      last_message_at: at,
    });
    expect(first.id).toBeLessThan(second.id);
    // the message previewed once the latest was deleted is the latest now: an edit shows,
    // and its deletion leaves the one before it
    const fourth = await send(sara, nile, 'Fourth message');
    const fifth = await send(sara, nile, 'Fifth message');
    expect((await remove(sara, fifth.id)).statusCode).toBe(204);
    expect((await edit(sara, fourth.id, 'Fourth, edited')).statusCode).toBe(200);
    expect((await conversationOf(nile, sara)).last_message).toBe('Fourth, edited');
    expect((await remove(sara, fourth.id)).statusCode).toBe(204);
    expect((await conversationOf(nile, sara)).last_message).toBe('portfolio.txt');
  });

  it('the preview becomes null when no message is left', async () => {
    const [daniel, orbit] = [as(DANIEL), as(ORBIT)];
    const conversation = await conversationOf(daniel, orbit);
    await db()
      .updateTable('chats')
      .set({ message: '', deleted_at: new Date().toISOString() })
      .where('messenger_user_id', '=', conversation.id)
      .execute();
    const only = await send(daniel, orbit, 'The only one');
    expect((await remove(daniel, only.id)).statusCode).toBe(204);
    expect((await conversationOf(orbit, daniel)).last_message).toBeNull();
  });

  it('deleting a message the receiver has not seen lowers their unread count by one', async () => {
    const [sara, nile] = [as(SARA), as(NILE)];
    await history(nile, sara); // Nile reads everything
    const seen = await send(sara, nile, 'Read soon');
    await history(nile, sara);
    expect((await conversationOf(nile, sara)).is_seen_messages_count).toBe(0);
    const a = await send(sara, nile, 'Unread one');
    await send(sara, nile, 'Unread two');
    expect((await conversationOf(nile, sara)).is_seen_messages_count).toBe(2);
    expect((await remove(sara, a.id)).statusCode).toBe(204);
    expect((await conversationOf(nile, sara)).is_seen_messages_count).toBe(1);
    // a message already seen changes no count
    expect((await remove(sara, seen.id)).statusCode).toBe(204);
    expect((await conversationOf(nile, sara)).is_seen_messages_count).toBe(1);
    // never below 0
    const b = await send(sara, nile, 'Unread three');
    await db()
      .updateTable('messenger_users')
      .set({ company_unread: 0 })
      .where('id', '=', b.messenger_user_id)
      .execute();
    expect((await remove(sara, b.id)).statusCode).toBe(204);
    expect((await conversationOf(nile, sara)).is_seen_messages_count).toBe(0);
  });

  it('two changes of one message at once take turns: one delete, the other told it is too late', async () => {
    const [sara, nile] = [as(SARA), as(NILE)];
    await history(nile, sara);
    const sent = await send(sara, nile, 'Deleted twice at once');
    expect((await conversationOf(nile, sara)).is_seen_messages_count).toBe(1);
    const answers = await Promise.all([
      remove(sara, sent.id),
      remove(sara, sent.id),
      edit(sara, sent.id, 'Edited meanwhile'),
    ]);
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 204)).toHaveLength(1);
    expect(statuses.filter((status) => status === 422).length).toBeGreaterThanOrEqual(1);
    expect(await chatRow(sent.id)).toMatchObject({ message: '', deleted_at: expect.any(String) });
    // lowered once
    expect((await conversationOf(nile, sara)).is_seen_messages_count).toBe(0);
  });

  it('a suspended sender may delete but not edit', async () => {
    const [sara, harbor] = [as(SARA), as(HARBOR)];
    const [toEdit, toDelete] = [
      await send(sara, harbor, 'Before suspension'),
      await send(sara, harbor, 'Delete me later'),
    ];
    await db()
      .updateTable('users')
      .set({ suspended_at: new Date().toISOString() })
      .where('id', '=', sara.user.id)
      .execute();
    try {
      const refused = await edit(sara, toEdit.id, 'Edited while suspended');
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ message: SUSPENDED_MESSAGE });
      expect((await remove(sara, toDelete.id)).statusCode).toBe(204);
    } finally {
      await db()
        .updateTable('users')
        .set({ suspended_at: null })
        .where('id', '=', sara.user.id)
        .execute();
    }
    expect((await chatRow(toEdit.id)).message).toBe('Before suspension');
  });

  it('a sender the receiver blocked may delete but not edit, and nothing reaches the blocker live', async () => {
    const [omar, harbor] = [as(OMAR), as(HARBOR)];
    const [toEdit, toDelete] = [
      await send(omar, harbor, 'Before the block'),
      await send(omar, harbor, 'Delete after the block'),
    ];
    expect(
      (await harbor.call('POST', safetyPaths.blocks, { user_id: omar.user.id })).statusCode,
    ).toBe(201);
    try {
      published.length = 0;
      const refused = await edit(omar, toEdit.id, 'Edited while blocked');
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ message: BLOCKED_MESSAGE });
      expect((await remove(omar, toDelete.id)).statusCode).toBe(204);
      expect(toldTo(harbor.user.id)).toEqual([]);
      expect(toldTo(omar.user.id)).toHaveLength(1);
    } finally {
      await ctx.app.inject({
        method: 'DELETE',
        url: withTestKey(safetyPaths.block(omar.user.id)),
        cookies: harbor.cookies,
        headers: { 'x-xsrf-token': harbor.csrf },
      });
    }
  });
});
