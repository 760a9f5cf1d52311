import {
  userSettingsPatchSchema,
  userSettingsResponseSchema,
} from '../../../shared/integration.js';
import { paths } from '../../../shared/paths.js';
import { defineRouteFor, routesPlugin } from '../../http/route.js';
import { bodyErrors, errors, pageCallErrors, security } from '../../openapi/vocabulary.js';
import { viewerOf } from '../../plugins/auth.js';
import type { SettingsService } from './settings.service.js';

const defineRoute = defineRouteFor<SettingsService>({
  tag: 'settings',
  security: security.pageChange,
});

/**
 * The viewer's own settings, guarded like the messaging calls (application key, session or token,
 * CSRF for a cookie-authenticated PATCH), all checked before the body is read.
 */
export const settingsRoutes = routesPlugin(
  [
    defineRoute({
      method: 'get',
      path: paths.settings,
      operationId: 'getUserSettings',
      summary: 'The viewer’s settings',
      security: security.pageRead,
      responses: {
        200: { description: 'The settings.', schema: userSettingsResponseSchema },
        ...errors(...pageCallErrors),
      },
      handler: async ({ request }, service) => ({
        settings: await service.getSettings(viewerOf(request).user.id),
      }),
    }),
    defineRoute({
      method: 'patch',
      path: paths.settings,
      operationId: 'updateUserSettings',
      summary: 'Change any subset of the viewer’s settings',
      body: userSettingsPatchSchema,
      // Anything but a JSON object of known switches is a 422 (no body at all changes nothing).
      nonObjectBody: 422,
      responses: {
        200: { description: 'The updated settings.', schema: userSettingsResponseSchema },
        ...errors(...bodyErrors, ...pageCallErrors),
      },
      handler: async ({ body, request }, service) => ({
        settings: await service.updateSettings(viewerOf(request).user.id, body),
      }),
    }),
  ],
  async (app, options: { settingsService: SettingsService }) => {
    app.addHook('onRequest', app.requireAppKey);
    app.addHook('onRequest', app.requireViewer);
    return options.settingsService;
  },
);
