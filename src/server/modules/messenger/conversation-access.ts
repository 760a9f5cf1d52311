import type { Kysely } from 'kysely';
import type { AuthUser, MessengerUser } from '../../../shared/models.js';
import type { Database } from '../../db/schema.js';
import { forbidden, notFound } from '../../lib/http-error.js';
import type { ConversationRow, Side } from './conversation-query.repository.js';
import type { ConversationsRepository } from './conversations.repository.js';
import { otherPartyId, presentConversation } from './messenger.presenter.js';
import { sideOf } from './messenger-rules.js';

/** Who is online now (presence); whether each shows it is in the conversation rows. */
export interface Presence {
  onlineAmong(ids: readonly number[]): Promise<ReadonlySet<number>>;
}

/**
 * The viewer's own conversation, as every use case of the messenger reads it first: the row (404
 * when there is none, 403 when it is someone else's) and the conversation as the viewer's list
 * shows it.
 */
export const createConversationAccess = ({
  db,
  repository,
  presence,
}: {
  db: Kysely<Database>;
  repository: Pick<ConversationsRepository, 'findConversation'>;
  presence: Presence;
}) => {
  /** The viewer's conversation, or 404 (none) / 403 (someone else's). */
  const ownConversation = async (viewer: AuthUser, id: number): Promise<ConversationRow> => {
    const row = await repository.findConversation(db, id);
    if (!row) throw notFound('Conversation not found.');
    if (row[sideOf(viewer).party] !== viewer.id) throw forbidden();
    return row;
  };

  /** Who among the other parties of these conversations is online now. */
  const onlineOthers = (rows: readonly ConversationRow[], side: Side) =>
    presence.onlineAmong(rows.map((row) => otherPartyId(row, side)));

  const present = async (viewer: AuthUser, id: number): Promise<MessengerUser> => {
    const row = await ownConversation(viewer, id);
    return presentConversation(row, sideOf(viewer), await onlineOthers([row], sideOf(viewer)));
  };

  return { ownConversation, onlineOthers, present };
};

export type ConversationAccess = ReturnType<typeof createConversationAccess>;
