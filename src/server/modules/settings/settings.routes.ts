import type { FastifyInstance } from 'fastify';
import { userSettingsPatchSchema } from '../../../shared/integration.js';
import { paths } from '../../../shared/paths.js';
import { parseInput } from '../../lib/validation.js';
import { viewerOf } from '../../plugins/auth.js';
import type { SettingsService } from './settings.service.js';

/**
 * The viewer's own settings, guarded like the messaging calls (application key, session or token,
 * CSRF for a cookie-authenticated PATCH), all checked before the body is read.
 */
export const settingsRoutes = async (
  app: FastifyInstance,
  options: { settingsService: SettingsService },
) => {
  const service = options.settingsService;
  app.addHook('onRequest', app.requireAppKey);
  app.addHook('onRequest', app.requireViewer);

  app.get(paths.settings, async (request) => ({
    settings: await service.getSettings(viewerOf(request).user.id),
  }));

  // Anything but a JSON object of known switches is a 422 (no body at all changes nothing).
  app.patch(paths.settings, async (request) => {
    const patch = parseInput(
      userSettingsPatchSchema,
      request.body === undefined ? {} : request.body,
    );
    return { settings: await service.updateSettings(viewerOf(request).user.id, patch) };
  });
};
