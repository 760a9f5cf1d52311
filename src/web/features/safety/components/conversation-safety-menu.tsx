import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../../components/error-alert.js';
import { useBlockUser } from '../api/block-user.js';
import { useReportConversation } from '../api/report-conversation.js';
import { useUnblockUser } from '../api/unblock-user.js';
import type { BlockedChange } from '../utils/blocked-change.js';
import { ConversationMenu } from './conversation-menu.js';
import { ReportDialog, type ReportInput } from './report-dialog.js';

export interface SafetyTarget {
  /** The other party's user id (whom a block is of). */
  userId: number;
  conversationId: number;
  /** The other party's name, as the page shows it. */
  name: string;
  /** The viewer blocked them. */
  blocked: boolean;
}

interface ConversationSafetyMenuProps extends SafetyTarget {
  /** Shows a block or unblock on every conversation the page holds with that user. */
  onBlockedChange: BlockedChange;
  /** Says what happened to screen-reader users (the page's live region). */
  announce: (message: string) => void;
}

/**
 * The open conversation's menu (Block or Unblock, Report) and the report dialog it opens. A block
 * or unblock is said in the page's live region; one that failed is said under the menu.
 */
export const ConversationSafetyMenu = ({
  userId,
  conversationId,
  name,
  blocked,
  onBlockedChange,
  announce,
}: ConversationSafetyMenuProps) => {
  const { t } = useTranslation();
  const [reporting, setReporting] = useState(false);
  const [failed, setFailed] = useState<'block' | 'unblock' | null>(null);
  const block = useBlockUser(onBlockedChange);
  const unblock = useUnblockUser(onBlockedChange);
  const report = useReportConversation(onBlockedChange);

  const change = (toBlocked: boolean) => {
    setFailed(null);
    (toBlocked ? block : unblock).mutate(userId, {
      onSuccess: () =>
        announce(
          toBlocked
            ? t('safety.blockedAnnounce', { name })
            : t('safety.unblockedAnnounce', { name }),
        ),
      onError: () => setFailed(toBlocked ? 'block' : 'unblock'),
    });
  };

  const send = async ({ reason, details, block: alsoBlock }: ReportInput) => {
    await report.mutateAsync({
      userId,
      body: {
        messenger_user_id: conversationId,
        reason,
        ...(details === undefined ? {} : { details }),
        ...(alsoBlock ? { block: true } : {}),
      },
    });
  };

  return (
    <>
      <ConversationMenu
        blocked={blocked}
        busy={block.isPending || unblock.isPending}
        onBlock={() => change(true)}
        onUnblock={() => change(false)}
        onReport={() => setReporting(true)}
      />
      {/* an alert is said as it is added */}
      <ErrorAlert
        className="conversation-menu__error"
        message={failed && t(failed === 'block' ? 'safety.blockFailed' : 'safety.unblockFailed')}
      />
      {reporting ? (
        <ReportDialog
          name={name}
          blocked={blocked}
          onSend={send}
          onClose={() => setReporting(false)}
        />
      ) : null}
    </>
  );
};
