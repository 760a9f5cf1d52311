import { useTranslation } from 'react-i18next';

/**
 * The panel's heading and the unread total; in the drawer (whose dialog carries the title) only
 * the total, and nothing when there is none.
 */
export const PanelTitleRow = ({
  inDrawer,
  unreadTotal,
}: {
  inDrawer: boolean;
  unreadTotal: number | undefined;
}) => {
  const { t } = useTranslation();
  if (inDrawer && !unreadTotal) return null;
  return (
    <div className="conversation-panel__title-row">
      {inDrawer ? null : (
        <h2 className="conversation-panel__heading">{t('conversations.heading')}</h2>
      )}
      {unreadTotal ? (
        <span className="conversation-panel__unread-total" data-testid="unread-total">
          {t('conversations.unreadTotal', { count: unreadTotal })}
        </span>
      ) : null}
    </div>
  );
};
