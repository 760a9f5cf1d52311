import { useTranslation } from 'react-i18next';
import { LineIcon } from '../../../components/line-icon.js';

/** The composer's saved replies button: opens (or closes) the picker's popup. */
export const SavedRepliesButton = ({
  popupId,
  open,
  disabled,
  onClick,
}: {
  popupId: string;
  /** The popup is open (however it was opened). */
  open: boolean;
  disabled: boolean;
  onClick: () => void;
}) => {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className="icon-button saved-replies__button"
      title={t('templates.button')}
      aria-expanded={open}
      aria-controls={open ? popupId : undefined}
      disabled={disabled}
      data-testid="saved-replies-button"
      onClick={onClick}
    >
      <LineIcon path="M5 4h14v16l-7-4-7 4z M9 9h6 M9 12h4" />
      <span className="visually-hidden">{t('templates.button')}</span>
    </button>
  );
};
