import { messengerConfigSchema, type MessengerConfig } from '../../../shared/messenger-config.js';
import { paths } from '../../../shared/paths.js';
import type { Config } from '../../config.js';
import { defineRouteFor, routesPlugin } from '../../http/route.js';
import { security } from '../../openapi/vocabulary.js';
import { clientConfig } from './client-config.js';

const defineRoute = defineRouteFor<{ clientConfig: MessengerConfig }>({
  tag: 'config',
  security: security.public,
});

/** What clients need to connect (cacheable: it changes only with the configuration). */
export const configRoutes = routesPlugin<{ config: Config }, { clientConfig: MessengerConfig }>(
  [
    defineRoute({
      method: 'get',
      path: paths.config,
      operationId: 'getMessengerConfig',
      summary: 'What a client needs to connect: the application key, locales, the broadcaster',
      description:
        'Public. The page reads it first: the application key every messaging call sends as `key`, the languages offered, how to reach the live events (pusher-js options), and how long a sent message stays editable.',
      responses: {
        200: {
          description: 'The configuration (cacheable for 5 minutes).',
          schema: messengerConfigSchema,
        },
      },
      handler: async ({ reply }, { clientConfig }) => {
        void reply.header('cache-control', 'public, max-age=300');
        return clientConfig;
      },
    }),
  ],
  // made once, from the configuration
  async (_app, { config }) => ({ clientConfig: clientConfig(config) }),
);
