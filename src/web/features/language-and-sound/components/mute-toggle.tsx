import { LineIcon } from '../../../components/line-icon.js';
import { useTranslation } from 'react-i18next';

interface MuteToggleProps {
  muted: boolean;
  onChange: (muted: boolean) => void;
}

/** Sound on / off for new-message notifications. */
export const MuteToggle = ({ muted, onChange }: MuteToggleProps) => {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className="icon-button topbar__control"
      data-testid="mute-toggle"
      aria-pressed={muted}
      aria-label={t('preferences.muteSound')}
      title={muted ? t('preferences.soundOff') : t('preferences.soundOn')}
      onClick={() => onChange(!muted)}
    >
      <LineIcon
        path={`M4 9h4l5-4v14l-5-4H4z${muted ? 'M16 9l5 6m0-6l-5 6' : 'M16.5 8.5a5 5 0 0 1 0 7M19 6a8.5 8.5 0 0 1 0 12'}`}
        size={18}
        strokeWidth={1.8}
      />
    </button>
  );
};
