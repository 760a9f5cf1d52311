import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import {
  createOpenApiDocument,
  type JsonSchema,
  type OpenApiDocument,
  type OpenApiOperation,
} from '../src/server/openapi/openapi-document.js';

/**
 * The OpenAPI document as a contract for the API tests: every request an API test makes that is
 * answered 2xx is recorded, and when the test app closes its parameters, query, body and answer
 * are validated against the document (ajv, JSON Schema 2020-12, formats). Validators are compiled
 * once per operation and per process.
 */

// ajv-formats is CommonJS: its default export is the plugin itself or `{ default: plugin }`.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as unknown as typeof addFormatsModule.default;

/** One request and its answer, as the server saw them. */
export interface RecordedExchange {
  method: string;
  /** The matched route, Fastify style (`/user/messenger/:id/archive`). */
  route: string;
  /** Served by @fastify/static (one concrete route per file of the built client). */
  staticFile: boolean;
  url: string;
  params: unknown;
  query: unknown;
  body: unknown;
  requestType: string | undefined;
  status: number;
  responseType: string | undefined;
  response: string | undefined;
}

const mediaType = (header: unknown): string | undefined =>
  typeof header === 'string' ? header.split(';')[0]?.trim().toLowerCase() : undefined;

const payloadText = (payload: unknown): string | undefined => {
  if (typeof payload === 'string') return payload;
  if (Buffer.isBuffer(payload)) return payload.toString('utf8');
  return undefined; // a stream (a static file): not inspected
};

/** @fastify/static registers one route per file, marked with the file in its config. */
export const isStaticFileRoute = (route: { config?: unknown }): boolean =>
  typeof (route.config as { file?: unknown } | undefined)?.file === 'string';

/** Records every 2xx exchange of the routes it instruments (pass `instrument` as `onRoute`). */
export const createExchangeRecorder = () => {
  const exchanges: RecordedExchange[] = [];
  const record = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (reply.statusCode >= 200 && reply.statusCode < 300) {
      exchanges.push({
        method: request.method,
        route: request.routeOptions.url ?? request.url,
        staticFile: isStaticFileRoute(request.routeOptions),
        url: request.url,
        params: request.params,
        query: request.query,
        body: request.body,
        requestType: mediaType(request.headers['content-type']),
        status: reply.statusCode,
        responseType: mediaType(reply.getHeader('content-type')),
        response: payloadText(payload),
      });
    }
    return payload;
  };
  const instrument = (route: RouteOptions) => {
    const existing = route.onSend;
    const hooks = existing === undefined ? [] : Array.isArray(existing) ? existing : [existing];
    route.onSend = [...hooks, record] as RouteOptions['onSend'];
  };
  return { exchanges, instrument };
};

// ---------------------------------------------------------------------------
// Finding an exchange's operation
// ---------------------------------------------------------------------------

/** Fastify's `/a/:id` as OpenAPI's `/a/{id}`. */
export const openApiPath = (route: string): string => route.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

const templateMatcher = (path: string) => {
  const names: string[] = [];
  const pattern = path
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const name = /^\{([^}]+)\}$/.exec(part)?.[1];
      if (name === undefined) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
      names.push(name);
      return '([^/]+)';
    })
    .join('');
  const regex = new RegExp(`^${pattern}$`);
  return (url: string): Record<string, string> | undefined => {
    const match = regex.exec(url);
    if (!match) return undefined;
    return Object.fromEntries(names.map((name, index) => [name, match[index + 1] ?? '']));
  };
};

export interface FoundOperation {
  path: string;
  method: string;
  operation: OpenApiOperation;
  /** Set when a concrete route (a static file) matched a templated path: its parameters. */
  params?: Record<string, string>;
}

/**
 * The documented operation for a registered route: the same path (`:id` → `{id}`), or, for a
 * static file's concrete route, the templated path it fits (`/assets/x.js` → `/assets/{file}`).
 */
export const findOperation = (
  document: OpenApiDocument,
  method: string,
  route: string,
  staticFile = false,
): FoundOperation | undefined => {
  const verb = method.toLowerCase();
  const path = openApiPath(route);
  const exact = document.paths[path]?.[verb];
  if (exact) return { path, method: verb, operation: exact };
  if (!staticFile) return undefined;
  for (const [candidate, item] of Object.entries(document.paths)) {
    const operation = item[verb];
    if (!operation || !candidate.includes('{')) continue;
    const params = templateMatcher(candidate)(path);
    if (params) return { path: candidate, method: verb, operation, params };
  }
  return undefined;
};

// ---------------------------------------------------------------------------
// Validators, compiled once per process
// ---------------------------------------------------------------------------

const DOCUMENT_ID = 'openapi.json';
let contract: { document: OpenApiDocument; ajv: Ajv2020 } | undefined;
const validators = new Map<string, ValidateFunction>();

const getContract = () => {
  if (!contract) {
    const document = createOpenApiDocument({ publicUrl: new URL('http://127.0.0.1:3000') });
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(document as unknown as JsonSchema, DOCUMENT_ID);
    contract = { document, ajv };
  }
  return contract;
};

const pointer = (...segments: string[]) =>
  segments.map((segment) => segment.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

const validator = (key: string, schema: () => JsonSchema): ValidateFunction => {
  let validate = validators.get(key);
  if (!validate) {
    validate = getContract().ajv.compile(schema());
    validators.set(key, validate);
  }
  return validate;
};

/** A `$ref` into the document at a JSON pointer. */
const refTo = (...segments: string[]): JsonSchema => ({
  $ref: `${DOCUMENT_ID}#/${pointer(...segments)}`,
});

/** The path or query parameters of an operation as one object schema (no undeclared ones). */
const parametersSchema = (found: FoundOperation, where: 'path' | 'query'): JsonSchema => {
  const { document } = getContract();
  const declared = (found.operation.parameters ?? [])
    .map((parameter, index) => ({ parameter, index }))
    .filter(({ parameter }) => parameter.in === where);
  const properties: Record<string, JsonSchema> = {};
  for (const { parameter, index } of declared)
    properties[parameter.name] = refTo(
      'paths',
      found.path,
      found.method,
      'parameters',
      String(index),
      'schema',
    );
  if (where === 'query') {
    // Credentials in the query are security schemes, not parameters. Clients may send the page's
    // `key` and `token` on any call (the test helpers do): where not needed they are ignored.
    for (const scheme of Object.values(document.components.securitySchemes) as {
      in?: string;
      name?: string;
    }[])
      if (scheme.in === 'query' && scheme.name && scheme.name !== 'auth_signature')
        properties[scheme.name] ??= { type: 'string' };
  }
  return {
    type: 'object',
    properties,
    required: declared
      .filter(({ parameter }) => parameter.required)
      .map(({ parameter }) => parameter.name),
    additionalProperties: false,
  };
};

/** ajv's errors as `where what (detail)`, the first few of them. */
const describeErrors = (errors: ErrorObject[] | null | undefined, what: string): string => {
  const all = (errors ?? []).map((error) => {
    const where = `${what}${error.instancePath}`;
    const extra =
      error.keyword === 'additionalProperties'
        ? ` (${String((error.params as { additionalProperty?: unknown }).additionalProperty)})`
        : error.keyword === 'enum' || error.keyword === 'const'
          ? ` (${JSON.stringify(error.params)})`
          : '';
    return `${where} ${error.message ?? error.keyword}${extra}`;
  });
  const shown = all.slice(0, 4);
  return all.length > shown.length
    ? `${shown.join('; ')}; … ${all.length - shown.length} more`
    : shown.join('; ');
};

const parseJson = (text: string | undefined): { ok: true; value: unknown } | { ok: false } => {
  if (text === undefined || text === '') return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
};

const isEmptyBody = (body: unknown) =>
  body === undefined ||
  body === null ||
  (typeof body === 'object' && !Buffer.isBuffer(body) && Object.keys(body).length === 0) ||
  (Buffer.isBuffer(body) && body.length === 0);

/** What is wrong with one exchange according to the document (empty: nothing). */
export const checkExchange = (exchange: RecordedExchange): string[] => {
  const { document } = getContract();
  const found =
    findOperation(document, exchange.method, exchange.route, exchange.staticFile) ??
    (exchange.method === 'HEAD'
      ? findOperation(document, 'GET', exchange.route, exchange.staticFile)
      : undefined);
  if (!found) return [`${exchange.method} ${exchange.route} is not in the OpenAPI document`];
  const { operation } = found;
  const id = `${found.method} ${found.path}`;
  const problems: string[] = [];
  const check = (key: string, schema: () => JsonSchema, data: unknown, what: string) => {
    const validate = validator(`${id} ${key}`, schema);
    if (!validate(data)) problems.push(describeErrors(validate.errors, what));
  };

  check(
    'params',
    () => parametersSchema(found, 'path'),
    found.params ?? exchange.params ?? {},
    'params',
  );
  check('query', () => parametersSchema(found, 'query'), exchange.query ?? {}, 'query');

  const bodyContent = operation.requestBody?.content;
  if (bodyContent) {
    const types = Object.keys(bodyContent);
    const type =
      exchange.requestType && bodyContent[exchange.requestType] ? exchange.requestType : types[0];
    const body = Buffer.isBuffer(exchange.body)
      ? parseJson(exchange.body.toString('utf8'))
      : { ok: true as const, value: exchange.body ?? {} };
    if (type && body.ok)
      check(
        `body ${type}`,
        () => refTo('paths', found.path, found.method, 'requestBody', 'content', type, 'schema'),
        body.value,
        'body',
      );
  } else if (!isEmptyBody(exchange.body)) {
    problems.push('a request body was sent, but the operation documents none');
  }

  const status = String(exchange.status);
  const response = operation.responses[status];
  if (!response) {
    problems.push(`status ${status} is not documented`);
  } else if (response.content?.['application/json']?.schema) {
    const json = parseJson(exchange.response);
    if (exchange.responseType !== 'application/json' || !json.ok)
      problems.push(`the answer is ${exchange.responseType ?? 'empty'}, documented as JSON`);
    else
      check(
        `response ${status}`,
        () =>
          refTo(
            'paths',
            found.path,
            found.method,
            'responses',
            status,
            'content',
            'application/json',
            'schema',
          ),
        json.value,
        'response',
      );
  } else if (!response.content && exchange.response) {
    problems.push(`status ${status} documents no body, but one was sent`);
  }
  return problems.map((problem) => `${exchange.method} ${exchange.url} → ${status}: ${problem}`);
};

/** Throws, listing what does not match, when any recorded exchange breaks the document. */
export const assertExchangesMatchDocument = (exchanges: readonly RecordedExchange[]): void => {
  const problems = [...new Set(exchanges.flatMap(checkExchange))];
  if (problems.length === 0) return;
  const shown = problems.slice(0, 20);
  throw new Error(
    `${problems.length} recorded API exchange(s) do not match the OpenAPI document ` +
      `(the route declarations in src/server/modules/*/*.routes.ts, schemas in src/shared):\n  - ${shown.join('\n  - ')}` +
      (problems.length > shown.length ? `\n  … and ${problems.length - shown.length} more` : ''),
  );
};
