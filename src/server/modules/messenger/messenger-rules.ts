// The messenger's rules on a conversation as read, shared by its use cases (no I/O).
import type { AuthUser } from '../../../shared/models.js';
import { BLOCKED_MESSAGE, SUSPENDED_MESSAGE } from '../../../shared/safety.js';
import { forbidden, HttpError } from '../../lib/http-error.js';
import {
  CANDIDATE_SIDE,
  COMPANY_SIDE,
  type ConversationRow,
  type Side,
} from './conversation-query.repository.js';
import { blockedBy } from './messenger.presenter.js';

/** Whether that party of the conversation has `read_receipts` on (receipts work both ways). */
export const showsReceipts = (
  conversation: Pick<ConversationRow, 'candidate_read_receipts' | 'company_read_receipts'>,
  party: Side['party'],
): boolean =>
  (party === 'candidate_id'
    ? conversation.candidate_read_receipts
    : conversation.company_read_receipts) !== 0;

export const sideOf = (viewer: Pick<AuthUser, 'role'>): Side =>
  viewer.role === 'candidate' ? CANDIDATE_SIDE : COMPANY_SIDE;
export const otherSideOf = (viewer: AuthUser): Side =>
  viewer.role === 'candidate' ? COMPANY_SIDE : CANDIDATE_SIDE;

/** A send to (or from) a conversation whose other party was erased. */
export const CONVERSATION_CLOSED =
  'This conversation is closed: the other person’s account was deleted.';
export const conversationClosed = () =>
  new HttpError(422, CONVERSATION_CLOSED, { message: [CONVERSATION_CLOSED] });

/**
 * What the viewer may not write toward the other party, on the conversation as read: a suspended
 * viewer sends, types and uploads nothing (403 saying so); a viewer the other party blocked is told
 * only that the other party is not accepting their messages.
 */
export const refuseWriteOf = (viewer: AuthUser, row: ConversationRow): void => {
  const side = sideOf(viewer);
  const suspendedAt =
    side.party === 'candidate_id' ? row.candidate_suspended_at : row.company_suspended_at;
  if (suspendedAt !== null) throw forbidden(SUSPENDED_MESSAGE);
  if (blockedBy(row, otherSideOf(viewer).party)) throw forbidden(BLOCKED_MESSAGE);
};
