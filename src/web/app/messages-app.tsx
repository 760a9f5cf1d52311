import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { StrictMode, useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { EmbedProvider, type Embed } from '../features/embed/hooks/use-embed.js';
import type { ApiClient } from '../lib/api-client.js';
import { ApiProvider } from '../lib/api-provider.js';
import { createLiveEvents, LiveEventsContext } from '../lib/realtime.js';
import { ServicesProvider, type Services } from '../lib/services.js';
import { MessagesPage } from './messages-page.js';

interface MessagesAppProps {
  client: ApiClient;
  services: Services;
  queryClient: QueryClient;
  /** In a host's frame (`?embed=`), else null. */
  embed?: Embed | null;
}

/**
 * Providers (API client, services, server state, live events, translations, the embedding) around
 * the page.
 */
export const MessagesApp = ({ client, services, queryClient, embed = null }: MessagesAppProps) => {
  const [liveEvents] = useState(createLiveEvents);
  return (
    <StrictMode>
      <ApiProvider client={client}>
        <ServicesProvider services={services}>
          <QueryClientProvider client={queryClient}>
            <LiveEventsContext.Provider value={liveEvents}>
              <I18nextProvider i18n={services.appI18n.i18n}>
                <EmbedProvider embed={embed}>
                  <MessagesPage />
                </EmbedProvider>
              </I18nextProvider>
            </LiveEventsContext.Provider>
          </QueryClientProvider>
        </ServicesProvider>
      </ApiProvider>
    </StrictMode>
  );
};
