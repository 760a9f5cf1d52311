import { describe, expect, it } from 'vitest';
import { createOpenApiDocument, type OpenApiDocument } from './openapi-document.js';
import { undescribed } from './openapi-descriptions.js';

const documentWith = (extra: (document: OpenApiDocument) => void): OpenApiDocument => {
  const document = structuredClone(createOpenApiDocument({ publicUrl: new URL('http://x.test/') }));
  extra(document);
  return document;
};

describe('the OpenAPI document’s descriptions', () => {
  it('describes every operation, parameter and schema property (nested objects and array items too)', () => {
    const document = createOpenApiDocument({ publicUrl: new URL('http://x.test/') });
    expect(undescribed(document)).toEqual([]);
  });

  it('puts a parameter’s description on the parameter, from its zod schema', () => {
    const document = createOpenApiDocument({ publicUrl: new URL('http://x.test/') });
    const user = document.paths['/api/v1/users/{externalId}']?.put?.parameters?.[0];
    expect(user?.description).toMatch(/id on the host site/);
    expect(user?.schema).not.toHaveProperty('description');
  });

  it('names what is left undescribed: an operation, a parameter, a nested or an array item’s property', () => {
    const document = documentWith((d) => {
      const operation = d.paths['/api/v1/conversations']!.post!;
      delete operation.description;
      operation.parameters = [{ name: 'q', in: 'query', required: false, schema: {} }];
      d.components.schemas.Extra = {
        type: 'object',
        properties: {
          outer: {
            description: 'Described.',
            type: 'object',
            properties: { inner: { type: 'string' } },
          },
          list: {
            description: 'Described.',
            type: 'array',
            items: { type: 'object', properties: { item: { type: 'integer' } } },
          },
          maybe: {
            description: 'Described.',
            anyOf: [{ type: 'object', properties: { deep: { type: 'string' } } }, { type: 'null' }],
          },
        },
      };
    });
    expect(undescribed(document)).toEqual([
      'components.schemas.Extra.outer.inner',
      'components.schemas.Extra.list[].item',
      'components.schemas.Extra.maybe[0].deep',
      'POST /api/v1/conversations: description',
      'POST /api/v1/conversations: query parameter q',
    ]);
  });
});
