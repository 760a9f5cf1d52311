import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { ApiProvider } from '../lib/api.js';
import { createApiClient } from '../lib/api-client.js';
import { createI18n, detectLanguage } from '../lib/i18n.js';
import { createApi } from './create-api.js';
import { LoginPage } from './login-page.js';
import '../styles/login-page.css';

const boot = async () => {
  const container = document.getElementById('login');
  if (!container) throw new Error('#login is missing');
  const appI18n = await createI18n({ language: detectLanguage() });
  const api = createApi(createApiClient());
  createRoot(container).render(
    <StrictMode>
      <ApiProvider api={api}>
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
