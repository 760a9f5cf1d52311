/**
 * A send's writes: on PostgreSQL one statement writes the message, the conversation and
 * its outbox tasks; on SQLite one transaction. Either way all or nothing: a party erased between
 * the read and the write leaves no message, no changed conversation and no task behind.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ACME, SARA } from '../../../../test-support/accounts.js';
import { createTestApp, type TestContext } from '../../../../test-support/test-app.js';
import { CANDIDATE_SIDE, COMPANY_SIDE } from './conversation-query.repository.js';
import { createMessengerRepository } from './messenger.repository.js';

const dialect = inject('database');

describe.runIf(dialect === 'postgres')(`a send in one statement (${dialect})`, () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestApp(dialect);
  });
  afterAll(async () => ctx.close());

  const snapshot = async (conversationId: number) => {
    const db = ctx.database.db.kysely;
    const [chats, conversation, tasks] = await Promise.all([
      db
        .selectFrom('chats')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow(),
      db
        .selectFrom('messenger_users')
        .selectAll()
        .where('id', '=', conversationId)
        .executeTakeFirstOrThrow(),
      db
        .selectFrom('outbox')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { chats: Number(chats.n), conversation, tasks: Number(tasks.n) };
  };

  /** Sara's and Acme's ids, and the id of their conversation. */
  const saraAndAcme = async () => {
    const db = ctx.database.db.kysely;
    const users = await db
      .selectFrom('users')
      .select(['id', 'email'])
      .where('email', 'in', [SARA.email, ACME.email])
      .execute();
    const sara = users.find((user) => user.email === SARA.email)!.id;
    const acme = users.find((user) => user.email === ACME.email)!.id;
    const { id: conversationId } = await db
      .selectFrom('messenger_users')
      .select('id')
      .where('candidate_id', '=', sara)
      .where('company_id', '=', acme)
      .executeTakeFirstOrThrow();
    return { sara, acme, conversationId };
  };

  it('keeps the newest message as the preview when two sends commit out of order', async () => {
    const db = ctx.database.db.kysely;
    const repository = createMessengerRepository(ctx.database.db).send;
    const { sara, acme, conversationId } = await saraAndAcme();
    const before = await snapshot(conversationId);

    // Both sends read first; the later one (by its time) commits first.
    const [earlier, later] = await Promise.all([
      repository.findConversationForSend(db, conversationId),
      repository.findConversationForSend(db, conversationId),
    ]);
    const earlierAt = new Date(Date.now() + 60_000).toISOString();
    const laterAt = new Date(Date.now() + 61_000).toISOString();
    const store = (id: number, text: string, at: string) =>
      repository.writeSendAtOnce(db, {
        chat: {
          id,
          messenger_user_id: conversationId,
          sender_id: sara,
          receiver_id: acme,
          job_id: earlier!.job_id,
          message: text,
          client_id: null,
          created_at: at,
        },
        receiverSide: COMPANY_SIDE,
        preview: text,
        tasks: [],
      });
    await store(later!.next_chat_id, 'the later message', laterAt);
    const stored = await store(earlier!.next_chat_id, 'the earlier message', earlierAt);

    expect(stored).toMatchObject({
      last_message: 'the later message',
      last_message_at: laterAt,
      company_unread: before.conversation.company_unread + 2,
    });
    const after = await snapshot(conversationId);
    expect(after.chats).toBe(before.chats + 2);
    expect(after.conversation).toMatchObject({
      last_message: 'the later message',
      last_message_at: laterAt,
      activity_at: laterAt,
    });
    // back to the present for the next test
    await db
      .updateTable('messenger_users')
      .set({
        last_message_at: before.conversation.last_message_at,
        activity_at: before.conversation.activity_at,
      })
      .where('id', '=', conversationId)
      .execute();
  });

  it('writes the message, the conversation and the tasks together, or nothing when a party is gone', async () => {
    const db = ctx.database.db.kysely;
    const repository = createMessengerRepository(ctx.database.db).send;
    const { sara, acme, conversationId } = await saraAndAcme();

    const send = async (text: string) => {
      const read = await repository.findConversationForSend(db, conversationId);
      if (!read) throw new Error('no conversation');
      const createdAt = new Date().toISOString();
      return repository.writeSendAtOnce(db, {
        chat: {
          id: read.next_chat_id,
          messenger_user_id: conversationId,
          sender_id: acme,
          receiver_id: sara,
          job_id: read.job_id,
          message: text,
          client_id: null,
          created_at: createdAt,
        },
        receiverSide: CANDIDATE_SIDE,
        preview: text,
        tasks: [{ kind: 'test', dedupeKey: `test:${text}`, payload: { text }, runAt: createdAt }],
      });
    };

    const before = await snapshot(conversationId);
    const stored = await send('one statement');
    expect(stored).toMatchObject({
      last_message: 'one statement',
      candidate_unread: before.conversation.candidate_unread + 1,
      candidate_archive: 0,
    });
    const after = await snapshot(conversationId);
    expect(after.chats).toBe(before.chats + 1);
    expect(after.tasks).toBe(before.tasks + 1);

    // Sara is erased after the read: the statement writes nothing at all.
    await db
      .updateTable('users')
      .set({ erased_at: new Date().toISOString() })
      .where('id', '=', sara)
      .execute();
    expect(await send('too late')).toBeUndefined();
    expect(await snapshot(conversationId)).toEqual(after);
  });
});
