import {
  userSettingsPatchSchema,
  userSettingsResponseSchema,
} from '../../../shared/integration.js';
import { paths } from '../../../shared/paths.js';
import { definePageCallsFor, pageCallsPlugin } from '../../http/page-calls.js';
import type { SettingsService } from './settings.service.js';

const { pageRead, pageChange } = definePageCallsFor<{ settingsService: SettingsService }>(
  'settings',
);

/**
 * The viewer's own settings, guarded like the messaging calls (application key, session or token,
 * CSRF for a cookie-authenticated PATCH), all checked before the body is read.
 */
export const settingsRoutes = pageCallsPlugin([
  pageRead({
    path: paths.settings,
    operationId: 'getUserSettings',
    summary: 'The viewer’s settings',
    description:
      'The signed-in user’s switches (e-mails, read receipts, being seen online, browser notifications), language and time zone.',
    responses: { 200: { description: 'The settings.', schema: userSettingsResponseSchema } },
    handler: async ({ viewer }, { settingsService }) => ({
      settings: await settingsService.getSettings(viewer.id),
    }),
  }),
  pageChange({
    method: 'patch',
    path: paths.settings,
    operationId: 'updateUserSettings',
    summary: 'Change any subset of the viewer’s settings',
    description:
      'Changes any of the signed-in user’s settings; a field left out is left as it is, an unknown field is a 422. Turning `show_online` off hides the user at once from their partners; the language chosen here is the user’s language everywhere (the page and e-mails).',
    body: userSettingsPatchSchema,
    // Anything but a JSON object of known switches is a 422 (no body at all changes nothing).
    nonObjectBody: 422,
    responses: {
      200: { description: 'The updated settings.', schema: userSettingsResponseSchema },
    },
    handler: async ({ body, viewer }, { settingsService }) => ({
      settings: await settingsService.updateSettings(viewer.id, body),
    }),
  }),
]);
