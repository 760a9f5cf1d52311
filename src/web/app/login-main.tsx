import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { ApiProvider } from '../lib/api-provider.js';
import { createApiClient } from '../lib/api-client.js';
import { createI18n, detectLanguage } from '../lib/i18n.js';
import { LoginPage } from './login-page.js';
import '../styles/login-page.css';

const boot = async () => {
  const container = document.getElementById('login');
  if (!container) throw new Error('#login is missing');
  const appI18n = await createI18n({ language: detectLanguage() });
  createRoot(container).render(
    <StrictMode>
      <ApiProvider client={createApiClient()}>
        <I18nextProvider i18n={appI18n.i18n}>
          <LoginPage
            appI18n={appI18n}
            search={location.search}
            navigate={(url) => location.replace(url)}
          />
        </I18nextProvider>
      </ApiProvider>
    </StrictMode>,
  );
};

void boot();
