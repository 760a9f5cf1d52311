import { useTranslation } from 'react-i18next';

/**
 * The badge mode's whole page: the viewer's unread count as text (empty at 0), named for screen
 * readers ("3 unread messages"), a live region: a change is announced.
 */
export const EmbedBadge = ({ count }: { count: number | undefined }) => {
  const { t } = useTranslation();
  const total = count ?? 0;
  return (
    <div
      className="embed-badge"
      role="status"
      aria-label={t('embed.unreadCount', { count: total })}
      data-testid="embed-badge"
    >
      <span className="unread-badge embed-badge__count">{total > 0 ? total : ''}</span>
    </div>
  );
};
