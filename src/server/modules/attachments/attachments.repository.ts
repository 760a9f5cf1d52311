import type { Insertable } from 'kysely';
import type { Db, Executor } from '../../db/database.js';
import type { AttachmentsTable } from '../../db/schema.js';

/** All SQL of attachments. */
export const createAttachmentsRepository = (_db: Db) => ({
  ...expiryQueries,
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

/** Unused uploads removed per sweep, at most (the next sweep takes the rest). */
export const EXPIRY_BATCH = 500;

export const expiryQueries = {
  /** Removes unused uploads made before `cutoff`; their storage keys (the bytes go next). */
  deleteUnusedBefore: (executor: Executor, cutoff: string) =>
    executor
      .deleteFrom('attachments')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('attachments')
          .select('id')
          .where('chat_id', 'is', null)
          .where('created_at', '<', cutoff)
          .limit(EXPIRY_BATCH),
      )
      .returning(['storage_key', 'thumbnail_key'])
      .execute(),

  /** Which of these storage keys some row still points at. */
  keysInUse: async (executor: Executor, keys: readonly string[]): Promise<Set<string>> => {
    if (keys.length === 0) return new Set();
    const rows = await executor
      .selectFrom('attachments')
      .select(['storage_key', 'thumbnail_key'])
      .where((eb) =>
        eb.or([eb('storage_key', 'in', [...keys]), eb('thumbnail_key', 'in', [...keys])]),
      )
      .execute();
    return new Set(rows.flatMap((row) => [row.storage_key, row.thumbnail_key ?? '']));
  },
};

export type AttachmentsRepository = ReturnType<typeof createAttachmentsRepository>;
