import type { Insertable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { AttachmentsTable } from '../../db/schema.js';

/** All SQL of attachments. */
export const createAttachmentsRepository = () => ({
  insertAttachment: async (executor: Executor, values: Insertable<AttachmentsTable>) =>
    (
      await executor
        .insertInto('attachments')
        .values(values)
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id,

  /** The attachment with the parties of its message (null before it is sent). */
  findAttachment: (executor: Executor, id: number) =>
    executor
      .selectFrom('attachments as a')
      .leftJoin('chats as c', 'c.id', 'a.chat_id')
      .select([
        'a.id',
        'a.uploader_id',
        'a.chat_id',
        'a.name',
        'a.size',
        'a.mime',
        'a.width',
        'a.height',
        'a.storage_key',
        'a.thumbnail_key',
        'c.sender_id',
        'c.receiver_id',
      ])
      .where('a.id', '=', id)
      .executeTakeFirst(),
});

export type AttachmentsRepository = ReturnType<typeof createAttachmentsRepository>;
