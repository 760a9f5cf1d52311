import {
  createTemplateBodySchema,
  templateParamsSchema,
  templateResponseSchema,
  templatesResponseSchema,
  updateTemplateBodySchema,
  savedRepliesPaths,
} from '../../../shared/saved-replies.js';
import { definePageCallsFor, pageCallsPlugin } from '../../http/page-calls.js';
import { errors } from '../../openapi/vocabulary.js';
import type { TemplatesService } from './templates.service.js';

const { pageRead, pageChange } = definePageCallsFor<{ templatesService: TemplatesService }>(
  'templates',
);

/**
 * The viewer's saved replies, guarded like the other `/user/*` calls (application key, session or
 * token, CSRF for a cookie-authenticated change), all checked before the body is read.
 */
export const templatesRoutes = pageCallsPlugin([
  pageRead({
    path: savedRepliesPaths.templates,
    operationId: 'listTemplates',
    summary: 'The viewer’s saved replies, by name (ignoring case)',
    description:
      'The signed-in user’s saved replies (short texts to insert in the composer), sorted by name ignoring case.',
    responses: { 200: { description: 'The saved replies.', schema: templatesResponseSchema } },
    handler: async ({ viewer }, { templatesService }) => ({
      templates: await templatesService.list(viewer),
    }),
  }),
  pageChange({
    method: 'post',
    path: savedRepliesPaths.templates,
    operationId: 'createTemplate',
    summary:
      'Save a reply (a name and a body that may hold `{{candidate.first_name}}`, `{{candidate.name}}`, `{{company.name}}`, `{{job.title}}`, `{{me.name}}`); at most 100 per user (422 beyond)',
    description:
      'Saves a new reply for the signed-in user. Its body may hold variables, filled in when inserted in a conversation. A user may keep 100 (422 beyond).',
    body: createTemplateBodySchema,
    responses: { 201: { description: 'Saved.', schema: templateResponseSchema } },
    handler: async ({ body, viewer, reply }, { templatesService }) =>
      reply.code(201).send({ template: await templatesService.create(viewer, body) }),
  }),
  pageChange({
    method: 'patch',
    path: savedRepliesPaths.template,
    operationId: 'updateTemplate',
    summary: 'Change the name, the body or both of one of the viewer’s saved replies',
    description:
      'Changes the name, the body, or both, of one of the signed-in user’s saved replies; another user’s is a 404.',
    params: templateParamsSchema,
    body: updateTemplateBodySchema,
    responses: {
      200: { description: 'Changed.', schema: templateResponseSchema },
      ...errors(404),
    },
    handler: async ({ params, body, viewer }, { templatesService }) => ({
      template: await templatesService.update(viewer, params.id, body),
    }),
  }),
  pageChange({
    method: 'delete',
    path: savedRepliesPaths.template,
    operationId: 'deleteTemplate',
    summary: 'Delete one of the viewer’s saved replies',
    description: 'Deletes one of the signed-in user’s saved replies; another user’s is a 404.',
    params: templateParamsSchema,
    responses: { 204: { description: 'Deleted.' }, ...errors(404) },
    handler: async ({ params, viewer, reply }, { templatesService }) => {
      await templatesService.delete(viewer, params.id);
      return reply.code(204).send();
    },
  }),
]);
