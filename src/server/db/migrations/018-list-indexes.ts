import type { Kysely } from 'kysely';

/**
 * The send's cost (docs/performance.md, "Issue 42: the send's cost"): every send moves its
 * conversation's `activity_at`, so every index holding it is rewritten on each send (on PostgreSQL
 * the update is never a HOT one, and each index of the table gets a new entry). The `(party,
 * activity_at, id)` indexes of 001 served only the list without an archive filter; that list now
 * walks the `(party, archive, activity_at, id)` index of 006 once per archive flag and merges the
 * two (`conversations.repository.ts`), so they go.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  for (const party of ['company', 'candidate'] as const)
    await db.schema.dropIndex(`messenger_users_${party}_activity_idx`).execute();
};
