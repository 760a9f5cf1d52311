import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../components/line-icon.js';
import { isSupportedLanguage, SUPPORTED_LANGUAGES, type Language } from '../../../lib/i18n.js';

interface LanguageSwitchProps {
  onChange: (language: Language) => void;
}

/** Each language is named in itself, so anyone can find their own. */
const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', ar: 'العربية' };

/**
 * A native select of the languages. On wide screens it shows the language's name; on small ones the
 * box shows a globe and the language code (the select lies invisibly on top of it, so a tap still
 * opens the native list of full names).
 */
export const LanguageSwitch = ({ onChange }: LanguageSwitchProps) => {
  const { t, i18n } = useTranslation();
  const id = useId();
  const current = isSupportedLanguage(i18n.resolvedLanguage)
    ? i18n.resolvedLanguage
    : i18n.language;
  return (
    <div className="language-switch">
      <Icon className="language-switch__icon" size={16}>
        <g fill="none" stroke="currentColor" strokeWidth="1.8">
          <circle cx="12" cy="12" r="9" />
          <path d="M3 12h18M12 3c2.5 2.6 3.7 5.6 3.7 9s-1.2 6.4-3.7 9c-2.5-2.6-3.7-5.6-3.7-9S9.5 5.6 12 3z" />
        </g>
      </Icon>
      <span className="language-switch__code" aria-hidden="true">
        {current.slice(0, 2).toUpperCase()}
      </span>
      <label className="visually-hidden" htmlFor={id}>
        {t('preferences.language')}
      </label>
      <select
        id={id}
        className="input select select--compact language-switch__select"
        data-testid="language-switch"
        title={t('preferences.language')}
        value={current}
        onChange={(event) => {
          if (isSupportedLanguage(event.target.value)) onChange(event.target.value);
        }}
      >
        {SUPPORTED_LANGUAGES.map((language) => (
          <option key={language} value={language} lang={language}>
            {LANGUAGE_NAMES[language]}
          </option>
        ))}
      </select>
    </div>
  );
};
