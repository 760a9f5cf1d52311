import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatFullDateTime } from '../../../lib/format.js';

/**
 * Under the viewer's latest own message: "Seen" (the time on hover or focus) once the other party
 * read it, else "Sent". A polite live region: its change to "Seen" is announced once.
 */
export const ReadReceipt = ({ seenAt }: { seenAt: string | null }) => {
  const { t, i18n } = useTranslation();
  const timeId = useId();
  const seenTime = seenAt ? formatFullDateTime(seenAt, i18n.language) : undefined;
  return (
    <li className="message-receipt" data-testid="message-receipt" aria-live="polite">
      {seenAt ? (
        <span
          className="message-receipt__seen"
          tabIndex={0}
          aria-describedby={seenTime ? timeId : undefined}
          data-seen-at={seenAt}
        >
          {t('chat.seen')}
          {seenTime ? (
            <span id={timeId} role="tooltip" className="message-receipt__time">
              {seenTime}
            </span>
          ) : null}
        </span>
      ) : (
        <span className="message-receipt__sent">{t('chat.sent')}</span>
      )}
    </li>
  );
};
