import type { JsonSchema, OpenApiDocument } from './openapi-document.js';

/**
 * What the OpenAPI document leaves undescribed, one line each: an operation without a summary or a
 * description, a parameter without a description, a property of a schema (in a component, a
 * parameter or a request body; nested objects and array items included) without a description.
 * The API reference page shows the document as it is, so this list must stay empty.
 */
export const undescribed = (document: OpenApiDocument): string[] => {
  const missing: string[] = [];
  const hasText = (value: unknown) => typeof value === 'string' && value.trim().length > 0;
  const walk = (schema: unknown, where: string) => {
    if (Array.isArray(schema)) {
      schema.forEach((item, index) => walk(item, `${where}[${index}]`));
      return;
    }
    if (!schema || typeof schema !== 'object') return;
    const node = schema as JsonSchema;
    const properties = node.properties as Record<string, JsonSchema> | undefined;
    for (const [name, property] of Object.entries(properties ?? {})) {
      if (!hasText(property.description)) missing.push(`${where}.${name}`);
      walk(property, `${where}.${name}`);
    }
    for (const key of ['items', 'anyOf', 'oneOf', 'allOf', 'additionalProperties'] as const)
      if (node[key] !== undefined) walk(node[key], `${where}${key === 'items' ? '[]' : ''}`);
  };
  for (const [name, schema] of Object.entries(document.components.schemas))
    walk(schema, `components.schemas.${name}`);
  for (const [path, item] of Object.entries(document.paths))
    for (const [method, operation] of Object.entries(item)) {
      const where = `${method.toUpperCase()} ${path}`;
      if (!hasText(operation.summary)) missing.push(`${where}: summary`);
      if (!hasText(operation.description)) missing.push(`${where}: description`);
      for (const parameter of operation.parameters ?? []) {
        if (!hasText(parameter.description))
          missing.push(`${where}: ${parameter.in} parameter ${parameter.name}`);
        walk(parameter.schema, `${where}: ${parameter.in} parameter ${parameter.name}`);
      }
      for (const [type, media] of Object.entries(operation.requestBody?.content ?? {}))
        walk(media.schema, `${where}: ${type} body`);
      for (const [status, response] of Object.entries(operation.responses))
        if (!hasText(response.description)) missing.push(`${where}: ${status} answer`);
    }
  return missing;
};
