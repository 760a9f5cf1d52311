import { useTranslation } from 'react-i18next';
import { BrandMark } from '../components/brand-mark.js';
import { LineIcon } from '../components/line-icon.js';
import { useSignOut } from '../features/auth/api/logout.js';
import { LanguageSwitch } from '../features/language-and-sound/components/language-switch.js';
import { MuteToggle } from '../features/language-and-sound/components/mute-toggle.js';
import { SettingsMenu } from '../features/settings/components/settings-menu.js';
import { useSaveLanguageAndTimeZone } from '../features/settings/hooks/use-save-language-and-time-zone.js';
import { readPageBrand } from '../lib/brand.js';
import { useServices } from '../lib/services.js';
import { SMALL_SCREEN_QUERY, useMediaQuery } from '../lib/use-media-query.js';

interface TopbarProps {
  viewerId: number | undefined;
  /** Phones with a conversation open: the Messages button opens the drawer holding the list. */
  drawer: { open: boolean; onOpen: () => void } | null;
  muted: boolean;
  onMutedChange: (muted: boolean) => void;
  /** Read receipts or online status were switched: what the viewer sees of others changes too. */
  onReciprocalChanged: () => void;
}

/**
 * The page's top bar: the drawer button (phones), the site's logo and name (SITE_NAME,
 * BRAND_LOGO_URL), language, sound, settings, sign-out.
 */
export const Topbar = ({
  viewerId,
  drawer,
  muted,
  onMutedChange,
  onReciprocalChanged,
}: TopbarProps) => {
  const { t } = useTranslation();
  const { appI18n } = useServices();
  const { saveLanguage } = useSaveLanguageAndTimeZone(viewerId);
  const signOut = useSignOut();
  // small screens: sign-out and settings show their icons only (named as tooltips too)
  const iconOnly = useMediaQuery(SMALL_SCREEN_QUERY);
  const brand = readPageBrand();
  return (
    <header className="topbar">
      {drawer ? (
        <button
          type="button"
          className="icon-button topbar__drawer-button"
          data-testid="open-drawer"
          aria-haspopup="dialog"
          aria-expanded={drawer.open}
          title={t('conversations.openDrawer')}
          onClick={drawer.onOpen}
        >
          <LineIcon path="M4 6h16M4 12h16M4 18h16" size={20} />
          <span className="visually-hidden">{t('conversations.openDrawer')}</span>
        </button>
      ) : null}
      <div className="topbar__brand">
        <BrandMark brand={brand} />
        <h1 className="topbar__title" data-testid="site-name">
          {brand.siteName}
        </h1>
      </div>
      <div className="topbar__controls">
        <LanguageSwitch
          onChange={(language) => {
            void appI18n.changeLanguage(language);
            saveLanguage(language);
          }}
        />
        <MuteToggle muted={muted} onChange={onMutedChange} />
        <SettingsMenu onReciprocalChanged={onReciprocalChanged} />
        <button
          type="button"
          className="button button--ghost topbar__sign-out"
          title={t('app.signOut')}
          onClick={() => void signOut()}
        >
          <LineIcon
            className="topbar__sign-out-icon"
            path="M10 4H6a2 2 0 0 0-2 2v12a2 2 0 0 0 2 2h4M15 8l4 4-4 4M19 12H9"
            size={18}
            strokeWidth={1.8}
          />
          <span className={iconOnly ? 'visually-hidden' : undefined}>{t('app.signOut')}</span>
        </button>
      </div>
    </header>
  );
};
