import { useCallback, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DEMO_PASSWORD, useDemoAccounts } from '../features/auth/api/get-demo-accounts.js';
import { useSignIn } from '../features/auth/api/login.js';
import { DemoAccounts } from '../features/auth/components/demo-accounts.js';
import { LoginForm } from '../features/auth/components/login-form.js';
import { safeNextPath } from '../features/auth/utils/safe-next-path.js';
import { LanguageSwitch } from '../features/language-and-sound/components/language-switch.js';
import { BrandMark } from '../components/brand-mark.js';
import { readPageBrand } from '../lib/brand.js';
import type { AppI18n } from '../lib/i18n.js';

interface LoginPageProps {
  appI18n: AppI18n;
  search: string;
  navigate: (url: string) => void;
}

/** The sign-in page: email + password, and in demo mode the demo accounts one click away. */
export const LoginPage = ({ appI18n, search, navigate }: LoginPageProps) => {
  const { t } = useTranslation();
  const accounts = useDemoAccounts();
  const next = useMemo(() => safeNextPath(search), [search]);
  const onSignedIn = useCallback(() => navigate(next), [navigate, next]);
  const { signIn, pending, error } = useSignIn(onSignedIn);
  const brand = readPageBrand();

  useEffect(() => {
    document.title = t('app.pageTitle', { page: t('login.title'), site: brand.siteName });
  }, [t, brand.siteName]);

  return (
    <div className="login-page">
      <header className="login-page__language">
        <LanguageSwitch onChange={(language) => void appI18n.changeLanguage(language)} />
      </header>
      <main className="login-card">
        <div className="login-card__brand">
          <BrandMark brand={brand} />
          <span className="login-card__product">{brand.siteName}</span>
        </div>
        <h1 className="login-card__title">{t('login.title')}</h1>
        <p className="login-card__subtitle">{t('login.subtitle')}</p>
        <LoginForm
          pending={pending}
          error={error}
          onSubmit={(email, password) => void signIn(email, password)}
        />
        <DemoAccounts
          accounts={accounts}
          pending={pending}
          onChoose={(account) => void signIn(account.email, DEMO_PASSWORD)}
        />
      </main>
    </div>
  );
};
