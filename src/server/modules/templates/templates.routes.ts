import {
  createTemplateBodySchema,
  templateParamsSchema,
  templateResponseSchema,
  templatesResponseSchema,
  updateTemplateBodySchema,
  workingFasterPaths,
} from '../../../shared/working-faster.js';
import { defineRouteFor, routesPlugin } from '../../http/route.js';
import { bodyErrors, errors, pageCallErrors, security } from '../../openapi/vocabulary.js';
import { viewerOf } from '../../plugins/auth.js';
import type { TemplatesService } from './templates.service.js';

const defineRoute = defineRouteFor<TemplatesService>({
  tag: 'templates',
  security: security.pageChange,
});

/**
 * The viewer's saved replies, guarded like the other `/user/*` calls (application key, session or
 * token, CSRF for a cookie-authenticated change), all checked before the body is read.
 */
export const templatesRoutes = routesPlugin(
  [
    defineRoute({
      method: 'get',
      path: workingFasterPaths.templates,
      operationId: 'listTemplates',
      summary: 'The viewer’s saved replies, by name (ignoring case)',
      security: security.pageRead,
      responses: {
        200: { description: 'The saved replies.', schema: templatesResponseSchema },
        ...errors(...pageCallErrors),
      },
      handler: async ({ request }, service) => ({
        templates: await service.list(viewerOf(request).user),
      }),
    }),
    defineRoute({
      method: 'post',
      path: workingFasterPaths.templates,
      operationId: 'createTemplate',
      summary:
        'Save a reply (a name and a body that may hold `{{candidate.first_name}}`, `{{candidate.name}}`, `{{company.name}}`, `{{job.title}}`, `{{me.name}}`); at most 100 per user (422 beyond)',
      body: createTemplateBodySchema,
      responses: {
        201: { description: 'Saved.', schema: templateResponseSchema },
        ...errors(...bodyErrors, ...pageCallErrors),
      },
      handler: async ({ body, request, reply }, service) =>
        reply.code(201).send({ template: await service.create(viewerOf(request).user, body) }),
    }),
    defineRoute({
      method: 'patch',
      path: workingFasterPaths.template,
      operationId: 'updateTemplate',
      summary: 'Change the name, the body or both of one of the viewer’s saved replies',
      params: templateParamsSchema,
      body: updateTemplateBodySchema,
      responses: {
        200: { description: 'Changed.', schema: templateResponseSchema },
        ...errors(...bodyErrors, ...pageCallErrors, 404),
      },
      handler: async ({ params, body, request }, service) => ({
        template: await service.update(viewerOf(request).user, params.id, body),
      }),
    }),
    defineRoute({
      method: 'delete',
      path: workingFasterPaths.template,
      operationId: 'deleteTemplate',
      summary: 'Delete one of the viewer’s saved replies',
      params: templateParamsSchema,
      responses: {
        204: { description: 'Deleted.' },
        ...errors(...pageCallErrors, 404),
      },
      handler: async ({ params, request, reply }, service) => {
        await service.delete(viewerOf(request).user, params.id);
        return reply.code(204).send();
      },
    }),
  ],
  async (app, options: { templatesService: TemplatesService }) => {
    app.addHook('onRequest', app.requireAppKey);
    app.addHook('onRequest', app.requireViewer);
    return options.templatesService;
  },
);
