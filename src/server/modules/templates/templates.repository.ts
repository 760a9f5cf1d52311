import type { Db, Executor } from '../../db/database.js';
import { deleteUsersRow, lockUserRow } from '../../db/user-rows.js';

const COLUMNS = ['id', 'name', 'body', 'updated_at'] as const;

/** All SQL of saved replies: each row belongs to one user, and only that user's calls reach it. */
export const createTemplatesRepository = ({ dialect }: Db) => ({
  /**
   * The user's saved replies by name, ignoring case (what a person scanning a list expects:
   * "interview" sits next to "Interview invite"), then by id for names that compare equal.
   */
  list: (executor: Executor, userId: number) =>
    executor
      .selectFrom('message_templates')
      .select(COLUMNS)
      .where('user_id', '=', userId)
      .orderBy((eb) => eb.fn('lower', ['name']))
      .orderBy('id')
      .execute(),

  /** One of the user's saved replies (undefined: none with that id, or someone else's). */
  find: (executor: Executor, userId: number, id: number) =>
    executor
      .selectFrom('message_templates')
      .select(COLUMNS)
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst(),

  /**
   * Holds the user's row until the transaction ends, so two creations by the same user count one
   * after the other (PostgreSQL; on SQLite the conditional insert is one statement under the
   * database's single write lock).
   */
  lockUser: (executor: Executor, userId: number) => lockUserRow(executor, dialect, userId),

  /**
   * Inserts a saved reply only while the user keeps fewer than `max` (the count and the insert are
   * one statement); undefined when the user is at the limit.
   */
  insertBelowLimit: (
    executor: Executor,
    input: { userId: number; name: string; body: string; now: string; max: number },
  ) =>
    executor
      .insertInto('message_templates')
      .columns(['user_id', 'name', 'body', 'created_at', 'updated_at'])
      .expression(
        executor
          .selectNoFrom((eb) => [
            eb.cast<number>(eb.val(input.userId), 'integer').as('user_id'),
            eb.cast<string>(eb.val(input.name), 'text').as('name'),
            eb.cast<string>(eb.val(input.body), 'text').as('body'),
            eb.cast<string>(eb.val(input.now), 'text').as('created_at'),
            eb.cast<string>(eb.val(input.now), 'text').as('updated_at'),
          ])
          .where(
            (eb) =>
              eb
                .selectFrom('message_templates')
                .select((count) => count.fn.countAll().as('n'))
                .where('user_id', '=', input.userId),
            '<',
            input.max,
          ),
      )
      .returning(COLUMNS)
      .executeTakeFirst(),

  /** Changes one of the user's saved replies; undefined when the user has none with that id. */
  update: (
    executor: Executor,
    userId: number,
    id: number,
    change: { name?: string | undefined; body?: string | undefined; now: string },
  ) =>
    executor
      .updateTable('message_templates')
      .set({
        ...(change.name === undefined ? {} : { name: change.name }),
        ...(change.body === undefined ? {} : { body: change.body }),
        updated_at: change.now,
      })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .returning(COLUMNS)
      .executeTakeFirst(),

  /** True when the user had a saved reply with that id. */
  delete: async (executor: Executor, userId: number, id: number) =>
    (await deleteUsersRow(executor, 'message_templates', userId, id)) > 0,
});

export type TemplatesRepository = ReturnType<typeof createTemplatesRepository>;
