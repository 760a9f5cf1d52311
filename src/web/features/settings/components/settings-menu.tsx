import { useId, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { UserSettings } from '../../../../shared/integration.js';
import { Icon } from '../../../components/line-icon.js';
import { RetryButton } from '../../../components/retry-button.js';
import { Spinner } from '../../../components/spinner.js';
import { useServices } from '../../../lib/services.js';
import { SMALL_SCREEN_QUERY, useMediaQuery } from '../../../lib/use-media-query.js';
import { usePopup } from '../../../lib/use-popup.js';
import { useSettings } from '../hooks/use-settings.js';

interface SwitchSpec {
  name: SwitchName;
  label: string;
  /** What the switch does, said under it. */
  help: string;
}

type SwitchName = {
  [K in keyof UserSettings]: UserSettings[K] extends boolean ? K : never;
}[keyof UserSettings];

/** The switches in the order they are shown. */
const SWITCHES: readonly SwitchSpec[] = [
  {
    name: 'email_notifications',
    label: 'settings.emailNotifications',
    help: 'settings.emailNotificationsHelp',
  },
  { name: 'read_receipts', label: 'settings.readReceipts', help: 'settings.readReceiptsHelp' },
  { name: 'show_online', label: 'settings.showOnline', help: 'settings.showOnlineHelp' },
  {
    name: 'browser_notifications',
    label: 'settings.browserNotifications',
    help: 'settings.browserNotificationsHelp',
  },
];

/** Why browser notifications stayed off after the switch was turned on. */
type PermissionProblem = 'blocked' | 'unsupported';

/**
 * The top bar's settings: a disclosure button and, under it, the viewer's switches. Each change
 * is saved at once (and put back, saying so, if the save fails). Escape closes it and gives the
 * button its focus back; a click or focus outside closes it.
 */
export interface SettingsMenuProps {
  /**
   * After read receipts or online status were switched and saved: what the viewer sees of others
   * changed too (both ways), so what the page holds is asked for again.
   */
  onReciprocalChanged?: () => void;
}

export const SettingsMenu = ({ onReciprocalChanged }: SettingsMenuProps) => {
  const { t } = useTranslation();
  const iconOnly = useMediaQuery(SMALL_SCREEN_QUERY);
  const { open, setOpen, rootRef, closeToButton, buttonProps, popupProps } = usePopup({
    keptInPage: true,
  });
  const [opened, setOpened] = useState(false);
  const { settings, loading, loadFailed, reload, save, saveError, clearSaveError } = useSettings({
    enabled: opened,
    onReciprocalSaved: onReciprocalChanged,
  });
  const idPrefix = useId();
  const { notifications } = useServices();
  const [permissionProblem, setPermissionProblem] = useState<PermissionProblem | null>(null);

  /**
   * Turning browser notifications on is the user gesture that asks the browser's permission (never
   * asked on load); refused or dismissed, the switch stays off and the menu says why.
   */
  const change = (name: SwitchName, on: boolean) => {
    if (name !== 'browser_notifications') {
      save({ [name]: on });
      return;
    }
    setPermissionProblem(null);
    if (!on || notifications.permission() === 'granted') {
      save({ browser_notifications: on });
      return;
    }
    void notifications.requestPermission().then((permission) => {
      if (permission === 'granted') save({ browser_notifications: true });
      else setPermissionProblem(permission === 'unsupported' ? 'unsupported' : 'blocked');
    });
  };

  const toggle = () => {
    setOpened(true);
    if (!open) clearSaveError();
    setOpen(!open);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Escape' || !open) return;
    event.stopPropagation();
    closeToButton();
  };

  return (
    <div className="popup settings-menu" ref={rootRef} onKeyDown={onKeyDown}>
      <button
        {...buttonProps}
        className="button button--ghost popup__button topbar__settings"
        data-testid="settings-button"
        title={t('settings.button')}
        onClick={toggle}
      >
        <Icon className="topbar__settings-icon" size={18}>
          <g fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round">
            <path d="M4 7h10M18 7h2M4 17h2M10 17h10" />
            <circle cx="16" cy="7" r="2" />
            <circle cx="8" cy="17" r="2" />
          </g>
        </Icon>
        <span className={iconOnly ? 'visually-hidden' : undefined}>{t('settings.button')}</span>
      </button>
      <div
        {...popupProps}
        className="popup__panel settings-menu__panel"
        data-testid="settings-panel"
        role="group"
        hidden={!open}
      >
        {settings ? (
          <ul className="settings-menu__list">
            {SWITCHES.map(({ name, label, help }) => {
              const id = `${idPrefix}-${name}`;
              const problem = name === 'browser_notifications' ? permissionProblem : null;
              const describedBy = problem ? `${id}-note ${id}-problem` : `${id}-note`;
              return (
                <li key={name} className="settings-menu__item">
                  <div className="split-row settings-menu__row">
                    <label className="settings-menu__label" htmlFor={id}>
                      {t(label)}
                    </label>
                    <input
                      id={id}
                      className="switch"
                      type="checkbox"
                      role="switch"
                      checked={settings[name]}
                      aria-describedby={describedBy}
                      onChange={(event) => change(name, event.target.checked)}
                    />
                  </div>
                  <p className="settings-menu__note" id={`${id}-note`}>
                    {t(help)}
                  </p>
                  {name === 'browser_notifications' ? (
                    <p
                      className="settings-menu__note settings-menu__note--problem"
                      id={`${id}-problem`}
                      role="status"
                      data-testid="notification-permission-problem"
                    >
                      {problem === 'blocked'
                        ? t('settings.browserNotificationsBlocked')
                        : problem === 'unsupported'
                          ? t('settings.browserNotificationsUnsupported')
                          : null}
                    </p>
                  ) : null}
                </li>
              );
            })}
          </ul>
        ) : loadFailed ? (
          <div className="centered-column settings-menu__status" role="alert">
            <p>{t('settings.loadFailed')}</p>
            <RetryButton label={t('settings.retry')} onRetry={reload} variant="secondary" />
          </div>
        ) : loading ? (
          <div className="centered-column settings-menu__status">
            <Spinner size="sm" label={t('settings.loading')} />
          </div>
        ) : null}
        <div role="alert" className="settings-menu__error" data-testid="settings-error">
          {saveError ? t('settings.saveFailed') : null}
        </div>
      </div>
    </div>
  );
};
