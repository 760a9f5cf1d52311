import { useTranslation } from 'react-i18next';
import { Toast } from '../components/toast.js';
import type { useArchiveWithUndo } from '../features/conversations/hooks/use-archive-with-undo.js';

/** "Archived · Undo" after an archive from the list (none: nothing shown). */
export const ArchiveUndoToast = ({
  toast,
}: {
  toast: ReturnType<typeof useArchiveWithUndo>['toast'];
}) => {
  const { t } = useTranslation();
  if (!toast) return null;
  return (
    <Toast
      key={toast.key}
      testId="archive-toast"
      message={t('pageNotices.archived')}
      actionLabel={t('pageNotices.undo')}
      onAction={toast.undo}
      onDismiss={toast.dismiss}
    />
  );
};
