import type { ReactNode } from 'react';
import type { AuthUser } from '../../shared/models.js';
import type { OpenConversation } from '../features/chat/components/chat-pane.js';
import { ConversationSafetyMenu } from '../features/safety/components/conversation-safety-menu.js';
import { BlockedNotice, SuspendedNotice } from '../features/safety/components/safety-notices.js';
import { useBlockedChange } from './hooks/use-blocked-change.js';

/**
 * What keeping people safe adds to the open conversation: the chat header's menu (Block or
 * Unblock, Report) and, in place of the composer, why the viewer cannot write there: their account
 * is suspended (they still read), or they blocked the other party (with Unblock).
 */
export const useSafetySlots = ({
  auth,
  conversation,
  announce,
}: {
  auth: AuthUser | undefined;
  conversation: OpenConversation | null;
  announce: (message: string) => void;
}): { headerActions: ReactNode; composerNotice: ReactNode } => {
  const onBlockedChange = useBlockedChange(auth?.id);
  if (!auth || !conversation || conversation.receiverId === null)
    return { headerActions: null, composerNotice: null };
  const target = {
    userId: conversation.receiverId,
    conversationId: conversation.conversationId,
    name: conversation.name,
    blocked: conversation.blocked === true,
  };
  return {
    headerActions: conversation.closed ? null : (
      <ConversationSafetyMenu {...target} onBlockedChange={onBlockedChange} announce={announce} />
    ),
    composerNotice:
      auth.suspended === true ? (
        <SuspendedNotice />
      ) : target.blocked ? (
        <BlockedNotice
          userId={target.userId}
          name={target.name}
          onBlockedChange={onBlockedChange}
          announce={announce}
        />
      ) : null,
  };
};
