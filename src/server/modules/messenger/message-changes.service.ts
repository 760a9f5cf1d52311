import type { Transaction } from 'kysely';
import {
  MESSAGES_SEEN_EVENT,
  MESSAGE_UPDATED_EVENT,
  type MessageUpdatedEvent,
  type MessagesSeenEvent,
} from '../../../shared/events.js';
import type { AuthUser, Chat, MessengerUser } from '../../../shared/models.js';
import { hasVisibleText } from '../../../shared/text.js';
import {
  EDIT_WINDOW_PASSED_MESSAGE,
  type EditMessageResponse,
} from '../../../shared/message-changes.js';
import type { Database } from '../../db/schema.js';
import { forbidden, HttpError, notFound, validationFailed } from '../../lib/http-error.js';
import { nowIso } from '../../lib/time.js';
import type { NewOutboxTask } from '../../outbox/outbox.js';
import type { ConversationHostIds } from '../../read-model/chat.presenter.js';
import type { ChatRowWithSender } from '../../read-model/chat.repository.js';
import type { PublishToUser } from './channel-publish.js';
import type { ConversationAccess, Presence } from './conversation-access.js';
import type { ConversationRow } from './conversation-query.repository.js';
import type { MessageChangesRepository } from './message-changes.repository.js';
import {
  blockedBy,
  otherPartyId,
  presentChat,
  presentConversation,
  previewOfMessage,
  type AttachmentRow,
} from './messenger.presenter.js';
import {
  conversationClosed,
  otherSideOf,
  refuseWriteOf,
  showsReceipts,
  sideOf,
} from './messenger-rules.js';

/**
 * A port other modules fill (notifications: the host's webhooks): the durable work an edit or a
 * delete brings, as outbox tasks that exist exactly when the change does.
 */
export interface MessageChangeWork {
  outboxTasksForChange(
    type: 'message.updated' | 'message.deleted',
    chat: ChatRowWithSender,
    files: readonly AttachmentRow[],
    /** The message's conversation as read (the host's ids of its parties and job). */
    conversation: ConversationHostIds,
  ): readonly NewOutboxTask[];
}

/** A port the attachments module fills: removes the bytes of files whose rows are gone. */
export interface StoredFiles {
  removeStoredFiles(
    files: readonly { storage_key: string; thumbnail_key: string | null }[],
  ): Promise<void>;
}

const editWindowPassed = () =>
  new HttpError(422, EDIT_WINDOW_PASSED_MESSAGE, { message: [EDIT_WINDOW_PASSED_MESSAGE] });

/**
 * After an edit or a delete's commit: `MessageUpdated` to both parties' channels (the request's
 * socket excluded), each with the conversation as that party sees it; nothing reaches a party who
 * blocked the sender. The sender's view is the answer.
 */
const createChangeBroadcast =
  (publish: PublishToUser, presence: Presence) =>
  async (
    viewer: AuthUser,
    {
      chat,
      files,
      conversation,
    }: {
      chat: ChatRowWithSender;
      files: readonly AttachmentRow[];
      conversation: ConversationRow;
    },
    /** The request's socket; false: tell nobody (only answer). */
    socketId: string | undefined | false,
  ): Promise<EditMessageResponse> => {
    const side = sideOf(viewer);
    const message: Chat = presentChat(
      chat,
      files,
      viewer.id,
      !showsReceipts(conversation, side.party),
    );
    const online = await presence.onlineAmong([chat.receiver_id, chat.sender_id]);
    const messengerUser = presentConversation(conversation, side, online);
    const channelEvents: [number, MessageUpdatedEvent][] = [
      [chat.sender_id, { messenger_user_id: conversation.id, message, messengerUser }],
    ];
    const receiverSide = otherSideOf(viewer);
    if (!blockedBy(conversation, receiverSide.party))
      channelEvents.push([
        chat.receiver_id,
        {
          messenger_user_id: conversation.id,
          message: presentChat(
            chat,
            files,
            chat.receiver_id,
            !showsReceipts(conversation, receiverSide.party),
          ),
          messengerUser: presentConversation(conversation, receiverSide, online),
        },
      ]);
    if (socketId !== false)
      await Promise.all(
        channelEvents.map(([userId, event]) =>
          publish(userId, MESSAGE_UPDATED_EVENT, event, socketId),
        ),
      );
    return { message, messengerUser };
  };

export interface MessageChangesServiceOptions {
  repository: MessageChangesRepository;
  access: Pick<ConversationAccess, 'ownConversation' | 'present'>;
  publish: PublishToUser;
  presence: Presence;
  /** How long after sending a message its sender may edit or delete it. */
  editWindowMs?: number;
  /** What other modules add to every edit and delete, written in its own commit. */
  messageChangeWork?: MessageChangeWork | undefined;
  /** Where a deleted message's files leave storage (attachments), after the delete's commit. */
  storedFiles?: StoredFiles | undefined;
  /** A deleted message's files could not be removed now (the sweep of orphaned bytes will). */
  onStorageError: (error: unknown) => void;
}

/**
 * What changes messages already sent: the receiver marks them seen; their sender edits or deletes
 * one within the edit window. Each change is one transaction, then the parties are told.
 */
export const createMessageChangesService = ({
  repository,
  access: { ownConversation, present },
  publish,
  presence,
  editWindowMs = 0,
  messageChangeWork,
  storedFiles,
  onStorageError,
}: MessageChangesServiceOptions) => {
  const broadcastChange = createChangeBroadcast(publish, presence);
  /**
   * Marks the viewer's unread messages of the conversation seen, then tells the sender
   * (`MessagesSeen`), unless the viewer keeps their reading to themselves (`read_receipts` off) or
   * the sender does (read receipts work both ways: whoever hides theirs sees nobody's).
   */
  const markSeenIn = async (viewer: AuthUser, conversation: ConversationRow) => {
    const side = sideOf(viewer);
    const seenAt = nowIso();
    const readerShowsReceipts = showsReceipts(conversation, side.party);
    // recorded with the messages: switching receipts on later reveals nothing read meanwhile
    const lastSeenId = await repository.inWriteTransaction((trx) =>
      repository.markSeen(trx, conversation.id, viewer.id, side, seenAt, !readerShowsReceipts),
    );
    const senderShowsReceipts = showsReceipts(
      conversation,
      side.party === 'candidate_id' ? 'company_id' : 'candidate_id',
    );
    if (lastSeenId === null || !readerShowsReceipts || !senderShowsReceipts) return;
    // nothing of a blocked reader reaches the party who blocked them
    if (blockedBy(conversation, otherSideOf(viewer).party)) return;
    const event: MessagesSeenEvent = {
      messenger_user_id: conversation.id,
      reader_id: viewer.id,
      seen_at: seenAt,
      last_seen_id: lastSeenId,
    };
    await publish(otherPartyId(conversation, side), MESSAGES_SEEN_EVENT, event);
  };

  /**
   * The viewer's own message and its conversation, locked for the rest of `trx`: 404 for a message
   * that is not in one of the viewer's conversations, 403 for the other party's; `checkWindow`
   * answers 422 once the edit window has passed or the message is deleted.
   */
  const changeableMessage = async (
    trx: Transaction<Database>,
    viewer: AuthUser,
    id: number,
    now: string,
  ) => {
    const locked = await repository.lockMessage(trx, id);
    if (!locked || (locked.chat.sender_id !== viewer.id && locked.chat.receiver_id !== viewer.id))
      throw notFound('Message not found.');
    if (locked.chat.sender_id !== viewer.id) throw forbidden();
    return {
      ...locked,
      /** 422 unless the message can still change (checked after the 403s the caller adds). */
      checkWindow: () => {
        const { chat } = locked;
        if (
          chat.deleted_at !== null ||
          Date.parse(now) - Date.parse(chat.created_at) > editWindowMs
        )
          throw editWindowPassed();
      },
    };
  };

  return {
    markSeenIn,

    /**
     * The sender edits a message's text within the edit window, in one commit with the full-text
     * index, the list's preview (when it was the conversation's latest message) and the host's
     * webhook; then `MessageUpdated` to both parties. A suspended sender, or one the receiver
     * blocked, edits nothing (403). The same text again changes nothing (200, `edited_at` as it was).
     */
    async editMessage(
      viewer: AuthUser,
      id: number,
      text: string,
      socketId?: string,
    ): Promise<EditMessageResponse> {
      const now = nowIso();
      const changed = await repository.inWriteTransaction(async (trx) => {
        const { chat, conversation, checkWindow } = await changeableMessage(trx, viewer, id, now);
        refuseWriteOf(viewer, conversation);
        checkWindow();
        if (conversation.candidate_erased_at !== null || conversation.company_erased_at !== null)
          throw conversationClosed();
        const files = await repository.attachmentsOfChats(trx, [chat.id]);
        if (!hasVisibleText(text) && !(files.length > 0 && text === ''))
          throw validationFailed('message', 'The message field is required.');
        if (text === chat.message) return { chat, files, conversation, changed: false };
        await repository.editChat(trx, chat.id, text, now);
        await repository.reindexChat(trx, chat.id, text);
        if ((await repository.newestShownChatId(trx, conversation.id)) === chat.id)
          await repository.setPreview(
            trx,
            conversation.id,
            previewOfMessage(
              text,
              files.map((file) => file.name),
            ),
          );
        const edited: ChatRowWithSender = { ...chat, message: text, edited_at: now };
        await repository.writeTasks(
          trx,
          messageChangeWork?.outboxTasksForChange('message.updated', edited, files, conversation) ??
            [],
          now,
        );
        const after = await repository.findConversation(trx, conversation.id);
        return { chat: edited, files, conversation: after ?? conversation, changed: true };
      });
      // the same text: nothing changed, nobody is told
      return broadcastChange(viewer, changed, changed.changed ? socketId : false);
    },

    /**
     * The sender deletes a message within the edit window (a suspended sender too, and one the
     * receiver blocked: then nothing reaches the receiver live). In one commit: the text emptied,
     * the files' rows removed, no full-text entry, the list's preview back to the newest message
     * left (when it was the latest; time and activity unchanged), one unread fewer for a receiver
     * who had not seen it, and the host's webhook. Then its files leave storage, and
     * `MessageUpdated` goes to both parties.
     */
    async deleteMessage(viewer: AuthUser, id: number, socketId?: string): Promise<void> {
      const now = nowIso();
      const deleted = await repository.inWriteTransaction(async (trx) => {
        const { chat, conversation, checkWindow } = await changeableMessage(trx, viewer, id, now);
        checkWindow();
        // the list previews the newest message not deleted: this one, until now?
        const previewed = (await repository.newestShownChatId(trx, conversation.id)) === chat.id;
        const removedFiles = await repository.deleteChat(trx, chat.id, now);
        await repository.reindexChat(trx, chat.id, null);
        if (previewed) {
          const shown = await repository.newestShownChat(trx, conversation.id);
          await repository.setPreview(
            trx,
            conversation.id,
            shown ? previewOfMessage(shown.message, shown.fileNames) : null,
          );
        }
        if (chat.seen_at === null)
          await repository.lowerUnread(trx, conversation.id, otherSideOf(viewer));
        const gone: ChatRowWithSender = { ...chat, message: '', deleted_at: now };
        await repository.writeTasks(
          trx,
          messageChangeWork?.outboxTasksForChange('message.deleted', gone, [], conversation) ?? [],
          now,
        );
        const after = await repository.findConversation(trx, conversation.id);
        return { chat: gone, removedFiles, conversation: after ?? conversation };
      });
      // the rows are gone: bytes left behind by a failure here go with the sweep of orphans
      if (deleted.removedFiles.length > 0)
        await storedFiles?.removeStoredFiles(deleted.removedFiles).catch(onStorageError);
      await broadcastChange(
        viewer,
        { chat: deleted.chat, files: [], conversation: deleted.conversation },
        socketId,
      );
    },

    async markSeen(viewer: AuthUser, conversationId: number): Promise<MessengerUser> {
      await markSeenIn(viewer, await ownConversation(viewer, conversationId));
      return present(viewer, conversationId);
    },
  };
};

export type MessageChangesService = ReturnType<typeof createMessageChangesService>;
