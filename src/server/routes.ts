import type { FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import { attachmentsRoutes } from './modules/attachments/attachments.routes.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { brandRoutes } from './modules/brand/brand.routes.js';
import { broadcastingRoutes } from './modules/broadcasting/broadcasting.routes.js';
import { configRoutes } from './modules/config/config.routes.js';
import { embedRoutes } from './modules/embed/embed.routes.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { integrationRoutes } from './modules/integration/integration.routes.js';
import { messengerRoutes } from './modules/messenger/messenger.routes.js';
import { notificationsRoutes } from './modules/notifications/notifications.routes.js';
import { pagesRoutes } from './modules/pages/pages.routes.js';
import { presenceRoutes } from './modules/presence/presence.routes.js';
import { safetyRoutes } from './modules/safety/safety.routes.js';
import { searchRoutes } from './modules/search/search.routes.js';
import { settingsRoutes } from './modules/settings/settings.routes.js';
import { ssoRoutes } from './modules/sso/sso.routes.js';
import { templatesRoutes } from './modules/templates/templates.routes.js';
import { createOpenApiDocument } from './openapi/openapi-document.js';
import { openApiRoutes } from './openapi/openapi.routes.js';
import { authPlugin } from './plugins/auth.js';
import { errorHandlerPlugin } from './plugins/error-handler.js';
import { securityHeadersFromConfig, securityHeadersPlugin } from './plugins/security-headers.js';
import type { Config } from './config.js';
import type { Realtime } from './realtime/index.js';
import type { Services } from './services.js';

export interface RouteDependencies {
  config: Config;
  services: Services;
  realtime: Realtime;
  /** Folder of the built client. */
  webRoot: string;
}

/**
 * Every plugin and route of the application, in the order they apply: the error handler, security
 * headers and sign-in first, then each module's routes with its service, the page last.
 */
export const registerRoutes = async (
  app: FastifyInstance,
  { config, services, realtime, webRoot }: RouteDependencies,
): Promise<void> => {
  const onSessionEnded = (sessionHash: string) => realtime.closeSessionSockets(sessionHash);
  await app.register(errorHandlerPlugin);
  await app.register(securityHeadersPlugin, securityHeadersFromConfig(config));
  await app.register(fastifyCookie);
  await app.register(authPlugin, { config, authService: services.auth });
  await app.register(healthRoutes, { healthService: services.health });
  await app.register(configRoutes, { config });
  await app.register(authRoutes, {
    config,
    authService: services.auth,
    onSessionEnded,
    demoAccounts: services.demoAccounts,
  });
  // Sign-in links from the host site: off (404) without SSO_SECRET.
  if (services.sso)
    await app.register(ssoRoutes, { config, ssoService: services.sso, onSessionEnded, webRoot });
  await app.register(messengerRoutes, { messengerService: services.messenger });
  await app.register(embedRoutes, { embedService: services.embed });
  // A hosted Pusher owns the sockets: its channel webhooks feed presence (404 without one).
  await app.register(presenceRoutes, {
    key: config.pusher.key,
    secret: config.pusher.external ? config.pusher.secret : undefined,
    presenceService: services.presence,
  });
  await app.register(settingsRoutes, { settingsService: services.settings });
  await app.register(safetyRoutes, { safetyService: services.safety });
  await app.register(searchRoutes, { searchService: services.search });
  await app.register(templatesRoutes, { templatesService: services.templates });
  await app.register(attachmentsRoutes, {
    attachmentsService: services.attachments,
    uploadTempDir: config.storage.uploadTempDir,
  });
  await app.register(notificationsRoutes, {
    notificationsService: services.notifications,
    webRoot,
    brand: config.brand,
  });
  await app.register(openApiRoutes, {
    document: createOpenApiDocument({ publicUrl: config.publicUrl }),
    siteName: config.brand.siteName,
  });
  await app.register(integrationRoutes, {
    integrationService: services.integration,
    safetyService: services.safety,
    keys: config.integrationKeys,
  });
  await app.register(async (scope) => {
    await scope.register(fastifyFormbody);
    await scope.register(broadcastingRoutes, { realtime });
  });
  await app.register(realtime.triggerRoutes);
  await app.register(brandRoutes, { color: config.brand.color });
  await app.register(pagesRoutes, {
    config,
    webRoot,
    savedLocale: (userId) => services.settings.savedLocale(userId),
    saveLocale: (userId, locale) => services.settings.updateSettings(userId, { locale }),
  });
};
