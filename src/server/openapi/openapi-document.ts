import { z } from 'zod';
import { routePattern, schemaOf, type RouteDocumentation } from '../http/route.js';
import { namedSchemas, operations } from './operations.js';
import { securitySchemes, tags, type ResponseSpec } from './vocabulary.js';

/** A JSON Schema (draft 2020-12, as OpenAPI 3.1 uses it). */
export type JsonSchema = Record<string, unknown>;

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query';
  description?: string;
  required: boolean;
  schema: JsonSchema;
}

export interface OpenApiMediaType {
  schema?: JsonSchema;
}

export interface OpenApiResponse {
  description: string;
  headers?: Record<string, { description: string; schema: JsonSchema }>;
  content?: Record<string, OpenApiMediaType>;
}

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security: Record<string, string[]>[];
  parameters?: OpenApiParameter[];
  requestBody?: { required: boolean; content: Record<string, OpenApiMediaType> };
  responses: Record<string, OpenApiResponse>;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes: typeof securitySchemes;
  };
}

const SCHEMA_PREFIX = '#/components/schemas/';
const JSON_SCHEMA_OPTIONS = { target: 'draft-2020-12', unrepresentable: 'any' } as const;

/** A route's path as OpenAPI writes it: `/user/messenger/{id}/archive`. */
export const openApiPathOf = (path: RouteDocumentation['path']): string =>
  routePattern(path).replace(/:([A-Za-z0-9_]+)/g, '{$1}');

const pascal = (id: string) => `${id.charAt(0).toUpperCase()}${id.slice(1)}`;

/**
 * Drops the bounds zod gives every integer (±2^53 − 1): they say nothing to a reader, and a renderer
 * would show them as the example of every id.
 */
const withoutSafeIntegerBounds = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withoutSafeIntegerBounds);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(
        ([key, item]) =>
          !(key === 'minimum' && item === Number.MIN_SAFE_INTEGER) &&
          !(key === 'maximum' && item === Number.MAX_SAFE_INTEGER),
      )
      .map(([key, item]) => [key, withoutSafeIntegerBounds(item)]),
  );
};

/** Drops what zod puts on a top-level schema but a component or parameter must not carry. */
const bare = (schema: JsonSchema): JsonSchema => {
  const { $schema: _dialect, $id: _id, ...rest } = schema;
  return withoutSafeIntegerBounds(rest) as JsonSchema;
};

/**
 * Names every schema the operations use and converts each registry (requests as zod `input`,
 * answers as zod `output`) in one go, so that shared models become `$ref`s.
 */
const buildComponents = (specs: readonly RouteDocumentation[]) => {
  const outputNames = new Map<z.ZodType, string>(namedSchemas);
  const inputNames = new Map<z.ZodType, string>();
  for (const spec of specs) {
    const body = spec.body && schemaOf(spec.body);
    if (body && !inputNames.has(body)) inputNames.set(body, `${pascal(spec.operationId)}Body`);
    for (const [status, response] of Object.entries(spec.responses)) {
      if (response.schema && !outputNames.has(response.schema))
        outputNames.set(response.schema, `${pascal(spec.operationId)}${status}Response`);
    }
  }
  const convert = (names: Map<z.ZodType, string>, io: 'input' | 'output') => {
    const registry = z.registry<{ id: string }>();
    for (const [schema, id] of names) registry.add(schema, { id });
    const { schemas } = z.toJSONSchema(registry, {
      ...JSON_SCHEMA_OPTIONS,
      io,
      uri: (id) => `${SCHEMA_PREFIX}${id}`,
    });
    return schemas as Record<string, JsonSchema>;
  };
  const schemas: Record<string, JsonSchema> = {};
  for (const [id, schema] of [
    ...Object.entries(convert(outputNames, 'output')),
    ...Object.entries(convert(inputNames, 'input')),
  ]) {
    if (schemas[id]) throw new Error(`OpenAPI: two schemas are named ${id}.`);
    schemas[id] = bare(schema);
  }
  const ref = (names: Map<z.ZodType, string>, schema: z.ZodType): JsonSchema => ({
    $ref: `${SCHEMA_PREFIX}${names.get(schema) ?? ''}`,
  });
  return {
    schemas,
    inputRef: (schema: z.ZodType) => ref(inputNames, schema),
    outputRef: (schema: z.ZodType) => ref(outputNames, schema),
  };
};

/**
 * Path or query parameters from a zod object (each property one parameter); a property's
 * description (zod `.describe()`) becomes the parameter's.
 */
const parametersOf = (schema: z.ZodObject, where: 'path' | 'query'): OpenApiParameter[] => {
  const json = z.toJSONSchema(schema, { ...JSON_SCHEMA_OPTIONS, io: 'input', reused: 'inline' });
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(json.required ?? []);
  return Object.entries(properties).map(([name, { description, ...property }]) => ({
    name,
    in: where,
    ...(typeof description === 'string' ? { description } : {}),
    required: where === 'path' || required.has(name),
    schema: withoutSafeIntegerBounds(property) as JsonSchema,
  }));
};

const responseOf = (
  response: ResponseSpec,
  outputRef: (schema: z.ZodType) => JsonSchema,
): OpenApiResponse => {
  const content: Record<string, OpenApiMediaType> | undefined = response.schema
    ? { 'application/json': { schema: outputRef(response.schema) } }
    : response.media
      ? { [response.media.type]: response.media.binary ? {} : { schema: { type: 'string' } } }
      : undefined;
  return {
    description: response.description,
    ...(response.headers ? { headers: response.headers } : {}),
    ...(content ? { content } : {}),
  };
};

const buildBase = (): Omit<OpenApiDocument, 'servers'> => {
  const { schemas, inputRef, outputRef } = buildComponents(operations);
  const paths: OpenApiDocument['paths'] = {};
  const operationIds = new Set<string>();
  for (const spec of operations) {
    if (operationIds.has(spec.operationId))
      throw new Error(`OpenAPI: operationId ${spec.operationId} is listed twice.`);
    operationIds.add(spec.operationId);
    const parameters = [
      ...(spec.params ? parametersOf(schemaOf(spec.params), 'path') : []),
      ...(spec.query ? parametersOf(schemaOf(spec.query), 'query') : []),
    ];
    const body = spec.body && schemaOf(spec.body);
    const path = openApiPathOf(spec.path);
    const item = (paths[path] ??= {});
    if (item[spec.method])
      throw new Error(`OpenAPI: ${spec.method.toUpperCase()} ${path} is listed twice.`);
    item[spec.method] = {
      operationId: spec.operationId,
      summary: spec.summary,
      ...(spec.description ? { description: spec.description } : {}),
      tags: [spec.tag],
      security: spec.security.map((requirement) =>
        Object.fromEntries(requirement.map((name) => [name, []])),
      ),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(body
        ? {
            requestBody: {
              required: true,
              content: Object.fromEntries(
                (spec.bodyTypes ?? ['application/json']).map((type) => [
                  type,
                  { schema: inputRef(body) },
                ]),
              ),
            },
          }
        : {}),
      responses: Object.fromEntries(
        Object.entries(spec.responses).map(([status, response]) => [
          status,
          responseOf(response, outputRef),
        ]),
      ),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Job board messenger',
      version: '1.0.0',
      description:
        'The messenger’s HTTP API: the integration API a host job board calls server to server (`/api/v1`, with one of INTEGRATION_KEYS as a bearer token), sign-in links from the host site, and the messaging page’s own calls, sign-in and live-event signatures. Generated from the route declarations and the zod schemas the server validates with; shown as a readable reference at `/api/docs`.',
    },
    tags: Object.entries(tags).map(([name, description]) => ({ name, description })),
    paths,
    components: { schemas, securitySchemes },
  };
};

let base: Omit<OpenApiDocument, 'servers'> | undefined;

/** The OpenAPI 3.1 document; the schemas are converted once per process. */
export const createOpenApiDocument = (options: { publicUrl: URL }): OpenApiDocument => {
  base ??= buildBase();
  const { openapi, info, ...rest } = base;
  return { openapi, info, servers: [{ url: options.publicUrl.href.replace(/\/$/, '') }], ...rest };
};
