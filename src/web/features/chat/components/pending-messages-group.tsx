import { useTranslation } from 'react-i18next';
import { formatDateSeparator } from '../../../lib/format.js';
import type { OutgoingMessage } from '../hooks/use-send-message.js';
import { PendingBubble } from './message-bubble.js';

/**
 * The viewer's messages sent but not confirmed yet, after the thread: under today's separator
 * (unless the last group is today's already).
 */
export const PendingMessagesGroup = ({
  pending,
  today,
  withSeparator,
  continuesLastRun,
}: {
  pending: readonly OutgoingMessage[];
  /** Today's calendar date in the viewer's clock. */
  today: string;
  withSeparator: boolean;
  /** The first one continues the viewer's own run of the thread. */
  continuesLastRun: boolean;
}) => {
  const { i18n } = useTranslation();
  return (
    <section className="message-group">
      {withSeparator ? (
        <h3 className="date-separator" data-testid="date-separator">
          <span>{formatDateSeparator(today, i18n.language)}</span>
        </h3>
      ) : null}
      <ol className="message-group__list">
        {pending.map((message, index) => (
          <PendingBubble
            key={message.clientId}
            text={message.text}
            files={message.attachments}
            continued={index > 0 || continuesLastRun}
          />
        ))}
      </ol>
    </section>
  );
};
