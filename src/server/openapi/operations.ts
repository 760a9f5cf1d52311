import type { z } from 'zod';
import { errorResponseSchema } from '../../shared/api-fields.js';
import {
  demoAccountsResponseSchema,
  loginResponseSchema,
  tokenListResponseSchema,
  tokenResponseSchema,
} from '../../shared/auth.js';
import {
  initialDataResponseSchema,
  messengerUserResponseSchema,
} from '../../shared/conversations.js';
import { getMessageResponseSchema, sendMessageResponseSchema } from '../../shared/messages.js';
import { messengerConfigSchema } from '../../shared/messenger-config.js';
import {
  applicationResponseSchema,
  integrationJobResponseSchema,
  integrationUserResponseSchema,
  startConversationResponseSchema,
  userSettingsResponseSchema,
} from '../../shared/integration.js';
import * as models from '../../shared/models.js';
import {
  blockResponseSchema,
  blocksResponseSchema,
  createReportResponseSchema,
  hostReportSchema,
  reportResponseSchema,
  reportsResponseSchema,
} from '../../shared/safety.js';
import { templateResponseSchema, templatesResponseSchema } from '../../shared/saved-replies.js';
import type { RouteDocumentation } from '../http/route.js';
import { attachmentsRoutes } from '../modules/attachments/attachments.routes.js';
import { authRoutes } from '../modules/auth/auth.routes.js';
import { brandRoutes } from '../modules/brand/brand.routes.js';
import {
  broadcastingRoutes,
  channelAuthResponseSchema,
  userAuthResponseSchema,
} from '../modules/broadcasting/broadcasting.routes.js';
import { configRoutes } from '../modules/config/config.routes.js';
import { embedRoutes } from '../modules/embed/embed.routes.js';
import { healthRoutes } from '../modules/health/health.routes.js';
import { integrationRoutes } from '../modules/integration/integration.routes.js';
import { messengerRoutes } from '../modules/messenger/messenger.routes.js';
import { notificationsRoutes } from '../modules/notifications/notifications.routes.js';
import { pagesRoutes, staticFileOperations } from '../modules/pages/pages.routes.js';
import { presenceRoutes } from '../modules/presence/presence.routes.js';
import { safetyRoutes } from '../modules/safety/safety.routes.js';
import { searchRoutes } from '../modules/search/search.routes.js';
import { settingsRoutes } from '../modules/settings/settings.routes.js';
import { ssoRoutes } from '../modules/sso/sso.routes.js';
import { templatesRoutes } from '../modules/templates/templates.routes.js';
import { triggerResponseSchema, triggerRoutes } from '../realtime/trigger-api.js';
import { openApiDocumentSchema, openApiRoutes } from './openapi.routes.js';

/**
 * Every HTTP operation the server answers, as each route plugin declares it (and the built client's
 * files, which @fastify/static serves). `openapi-document.ts` turns them into the OpenAPI 3.1
 * document; `openapi.api.test.ts` checks that every registered route is among them.
 */
export const operations: readonly RouteDocumentation[] = [
  ...healthRoutes.routes,
  ...configRoutes.routes,
  ...authRoutes.routes,
  ...ssoRoutes.routes,
  ...notificationsRoutes.routes,
  ...messengerRoutes.routes,
  ...embedRoutes.routes,
  ...settingsRoutes.routes,
  ...safetyRoutes.routes,
  ...searchRoutes.routes,
  ...templatesRoutes.routes,
  ...attachmentsRoutes.routes,
  ...broadcastingRoutes.routes,
  ...presenceRoutes.routes,
  ...triggerRoutes.routes,
  ...integrationRoutes.routes,
  ...openApiRoutes.routes,
  ...brandRoutes.routes,
  ...pagesRoutes.routes,
  ...staticFileOperations,
];

/** Output schemas shown under their own name in `components.schemas` (and referenced by it). */
export const namedSchemas: ReadonlyMap<z.ZodType, string> = new Map<z.ZodType, string>([
  [errorResponseSchema, 'ErrorResponse'],
  [models.jobSchema, 'Job'],
  [models.messengerUserSchema, 'MessengerUser'],
  [models.chatSchema, 'Chat'],
  [models.receiverSchema, 'Receiver'],
  [models.authUserSchema, 'AuthUser'],
  [models.messageGroupSchema, 'MessageGroup'],
  [messengerConfigSchema, 'MessengerConfig'],
  [loginResponseSchema, 'LoginResponse'],
  [tokenResponseSchema, 'TokenResponse'],
  [tokenListResponseSchema, 'TokenListResponse'],
  [demoAccountsResponseSchema, 'DemoAccountsResponse'],
  [initialDataResponseSchema, 'InitialDataResponse'],
  [getMessageResponseSchema, 'GetMessageResponse'],
  [sendMessageResponseSchema, 'SendMessageResponse'],
  [messengerUserResponseSchema, 'MessengerUserResponse'],
  [userSettingsResponseSchema, 'UserSettingsResponse'],
  [channelAuthResponseSchema, 'ChannelAuthResponse'],
  [userAuthResponseSchema, 'UserAuthResponse'],
  [triggerResponseSchema, 'TriggerResponse'],
  [integrationUserResponseSchema, 'IntegrationUserResponse'],
  [integrationJobResponseSchema, 'IntegrationJobResponse'],
  [applicationResponseSchema, 'ApplicationResponse'],
  [startConversationResponseSchema, 'StartConversationResponse'],
  [openApiDocumentSchema, 'OpenApiDocument'],
  [blocksResponseSchema, 'BlocksResponse'],
  [blockResponseSchema, 'BlockResponse'],
  [createReportResponseSchema, 'CreateReportResponse'],
  [hostReportSchema, 'HostReport'],
  [reportsResponseSchema, 'ReportsResponse'],
  [reportResponseSchema, 'ReportResponse'],
  [templatesResponseSchema, 'TemplatesResponse'],
  [templateResponseSchema, 'TemplateResponse'],
]);
