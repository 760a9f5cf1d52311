import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { ApiProvider, type Api } from '../lib/api.js';
import { ServicesProvider, type Services } from '../lib/services.js';
import { MessagesPage } from './messages-page.js';

interface MessagesAppProps {
  api: Api;
  services: Services;
  queryClient: QueryClient;
}

/** Providers (API, services, server state, translations) around the messaging page. */
export const MessagesApp = ({ api, services, queryClient }: MessagesAppProps) => (
  <StrictMode>
    <ApiProvider api={api}>
      <ServicesProvider services={services}>
        <QueryClientProvider client={queryClient}>
          <I18nextProvider i18n={services.appI18n.i18n}>
            <MessagesPage />
          </I18nextProvider>
        </QueryClientProvider>
      </ServicesProvider>
    </ApiProvider>
  </StrictMode>
);
