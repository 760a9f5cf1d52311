import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { isSupportedLanguage, SUPPORTED_LANGUAGES, type Language } from '../../../lib/i18n.js';

interface LanguageSwitchProps {
  onChange: (language: Language) => void;
}

/** Each language is named in itself, so anyone can find their own. */
const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', ar: 'العربية' };

export const LanguageSwitch = ({ onChange }: LanguageSwitchProps) => {
  const { t, i18n } = useTranslation();
  const id = useId();
  const current = isSupportedLanguage(i18n.resolvedLanguage)
    ? i18n.resolvedLanguage
    : i18n.language;
  return (
    <div className="language-switch">
      <label className="visually-hidden" htmlFor={id}>
        {t('preferences.language')}
      </label>
      <select
        id={id}
        className="input select select--compact"
        data-testid="language-switch"
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
