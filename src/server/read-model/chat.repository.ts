import type { Executor, RowOf } from '../db/database.js';

// The chat read-model's SQL: a message with its sender's name, and the files of messages. Every
// module that shows messages (messenger, notifications) reads them here, none through another's
// repository.

/** A message with its sender's name (the `Chat` shape's columns); notifications read the same. */
export const chatQuery = (db: Executor) =>
  db
    .selectFrom('chats as c')
    .innerJoin('users as s', 's.id', 'c.sender_id')
    .select([
      'c.id',
      'c.sender_id',
      'c.receiver_id',
      'c.job_id',
      'c.messenger_user_id',
      'c.message',
      'c.client_id',
      'c.created_at',
      'c.seen_at',
      'c.seen_privately',
      'c.edited_at',
      'c.deleted_at',
      's.name as sender_name',
    ]);

export type ChatRowWithSender = RowOf<ReturnType<typeof chatQuery>>;

/**
 * `chatQuery` with the host's ids of each message's sender, receiver and job (what the host's
 * `Chat` adds): for reads that build webhook bodies from messages of several conversations.
 */
export const hostChatQuery = (db: Executor) =>
  chatQuery(db)
    .innerJoin('users as hr', 'hr.id', 'c.receiver_id')
    .leftJoin('jobs as hj', 'hj.id', 'c.job_id')
    .select([
      's.external_id as sender_external_id',
      'hr.external_id as receiver_external_id',
      'hj.external_id as job_external_id',
    ]);

export type HostChatRow = RowOf<ReturnType<typeof hostChatQuery>>;

/** The attachments of these messages, oldest first (the columns a message shows). */
export const attachmentsOfChats = (executor: Executor, chatIds: readonly number[]) =>
  chatIds.length === 0
    ? Promise.resolve([])
    : executor
        .selectFrom('attachments')
        .select(['id', 'chat_id', 'name', 'size', 'mime', 'width', 'height', 'thumbnail_key'])
        .where('chat_id', 'in', [...chatIds])
        .orderBy('id')
        .execute();
