import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { StrictMode, useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import type { ApiClient } from '../lib/api-client.js';
import { ApiProvider } from '../lib/api-provider.js';
import { createLiveEvents, LiveEventsContext } from '../lib/realtime.js';
import { ServicesProvider, type Services } from '../lib/services.js';
import { MessagesPage } from './messages-page.js';

interface MessagesAppProps {
  client: ApiClient;
  services: Services;
  queryClient: QueryClient;
}

/** Providers (API client, services, server state, live events, translations) around the page. */
export const MessagesApp = ({ client, services, queryClient }: MessagesAppProps) => {
  const [liveEvents] = useState(createLiveEvents);
  return (
    <StrictMode>
      <ApiProvider client={client}>
        <ServicesProvider services={services}>
          <QueryClientProvider client={queryClient}>
            <LiveEventsContext.Provider value={liveEvents}>
              <I18nextProvider i18n={services.appI18n.i18n}>
                <MessagesPage />
              </I18nextProvider>
            </LiveEventsContext.Provider>
          </QueryClientProvider>
        </ServicesProvider>
      </ApiProvider>
    </StrictMode>
  );
};
