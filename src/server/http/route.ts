import type {
  FastifyContextConfig,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  preValidationAsyncHookHandler,
} from 'fastify';
import type { z } from 'zod';
import { parseBody, parseInput } from '../lib/validation.js';
import {
  bodyErrors,
  errors,
  type ErrorStatus,
  type HttpMethod,
  type ResponseSpec,
  type SecurityRequirement,
  type TagName,
} from '../openapi/vocabulary.js';

/**
 * Each route is declared once: its path, method, input schemas, answers and handler. Its module's
 * plugin (`routesPlugin`) registers it with Fastify, parsing the declared input before the handler
 * runs; the OpenAPI document (src/server/openapi) is made from the same declarations.
 */

/**
 * A schema that documents an input which the handler reads itself, unparsed: the exact bytes a
 * signature covers, a multipart stream, a link whose faults answer a page rather than a 422.
 */
export interface Documented<Schema extends z.ZodType = z.ZodType> {
  readonly documented: Schema;
}
export const documentedOnly = <Schema extends z.ZodType>(schema: Schema): Documented<Schema> => ({
  documented: schema,
});

/** A declared input: a schema the plugin parses it with, or one that only documents it. */
export type Part<Schema extends z.ZodType> = Schema | Documented<Schema>;
export const schemaOf = <Schema extends z.ZodType>(part: Part<Schema>): Schema =>
  'documented' in part ? part.documented : part;
const isParsed = <Schema extends z.ZodType>(part: Part<Schema> | undefined): part is Schema =>
  part !== undefined && !('documented' in part);

/** A plain path, or a `PathTemplate` (src/shared/paths.ts) whose pattern has `:parameters`. */
export type RoutePath = string | { readonly pattern: string };

/** What the OpenAPI document says of a route. */
export interface RouteDocumentation {
  method: HttpMethod;
  /** A path of src/shared/paths.ts: a plain one, or a template with `:parameters`. */
  path: RoutePath;
  operationId: string;
  summary: string;
  description?: string;
  tag: TagName;
  /** Alternatives (any one suffices); `[]` is public. */
  security: SecurityRequirement[];
  params?: Part<z.ZodObject>;
  query?: Part<z.ZodObject>;
  body?: Part<z.ZodType>;
  /** Media types the body may come as; `application/json` unless told. */
  bodyTypes?: readonly string[];
  responses: Record<number, ResponseSpec>;
}

/** The parsed input of a call (the request's own value where the part is not parsed). */
export interface RouteCall<Params, Query, Body> {
  params: Params;
  query: Query;
  body: Body;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** How a route is registered, besides its documentation. */
interface RouteRegistration {
  /** Route-level `onRequest` hooks, after the plugin's own (given the app: its auth hooks). */
  onRequest?: (app: FastifyInstance) => onRequestHookHandler[];
  /** Runs once the body is read, before the declared input is parsed. */
  preValidation?: preValidationAsyncHookHandler;
  config?: FastifyContextConfig;
  bodyLimit?: number;
  /**
   * A body that is not a JSON object: 400 (the default), or 422 naming the whole body (`_`) as
   * any other invalid input. No body at all is parsed as `{}` either way.
   */
  nonObjectBody?: 400 | 422;
}

/** What the handler is given of a declared part: its parsed value, or (unparsed) the request's own. */
export type Input<Declared> = Declared extends z.ZodType ? z.output<Declared> : unknown;

/** What all the routes of a plugin share: their tag and, unless a route says otherwise, their security. */
export interface RouteDefaults {
  tag: TagName;
  security: SecurityRequirement[];
  /**
   * The errors every route of the plugin can meet, added to each route's own answers (with a body
   * the plugin parses, also `bodyErrors`).
   */
  errors?: readonly ErrorStatus[];
}

export interface RouteDeclaration<
  Deps,
  Params extends Part<z.ZodObject> | undefined,
  Query extends Part<z.ZodObject> | undefined,
  Body extends Part<z.ZodType> | undefined,
>
  extends Omit<RouteDocumentation, keyof RouteDefaults>, RouteRegistration {
  security?: SecurityRequirement[];
  params?: Params;
  query?: Query;
  body?: Body;
  handler: (
    call: RouteCall<Input<Params>, Input<Query>, Input<Body>>,
    deps: Deps,
  ) => Promise<unknown>;
}

/** A declared route, its input types forgotten (the plugin parses the input with its schemas). */
export interface Route<Deps> extends RouteDocumentation, RouteRegistration {
  handler(call: RouteCall<unknown, unknown, unknown>, deps: Deps): Promise<unknown>;
}

/**
 * Declares the routes of one plugin, whose handlers are given `Deps` (the plugin's options, or what
 * its setup made of them).
 */
export const defineRouteFor =
  <Deps>({ errors: usualErrors, ...defaults }: RouteDefaults) =>
  <
    Params extends Part<z.ZodObject> | undefined = undefined,
    Query extends Part<z.ZodObject> | undefined = undefined,
    Body extends Part<z.ZodType> | undefined = undefined,
  >(
    declaration: RouteDeclaration<Deps, Params, Query, Body>,
  ): Route<Deps> => {
    const route = { ...defaults, ...declaration };
    if (!usualErrors) return route;
    const statuses = isParsed(declaration.body) ? [...usualErrors, ...bodyErrors] : usualErrors;
    // A route's own answer for one of the usual statuses would be silently replaced: refuse it.
    const twice = statuses.filter((status) => status in route.responses);
    if (twice.length > 0)
      throw new Error(
        `${route.operationId}: answers ${twice.join(', ')} are the plugin's usual ones`,
      );
    return { ...route, responses: { ...route.responses, ...errors(...statuses) } };
  };

/** The path as Fastify registers it (`/user/messenger/:id/archive`). */
export const routePattern = (path: RoutePath): string =>
  typeof path === 'string' ? path : path.pattern;

/** Parses the declared input in order: path parameters, query, body (failures: 422, or 400). */
const parseCall = (route: RouteDocumentation & RouteRegistration, request: FastifyRequest) => {
  const { params, query, body } = route;
  return {
    params: isParsed(params) ? parseInput(params, request.params) : request.params,
    query: isParsed(query) ? parseInput(query, request.query) : request.query,
    body: !isParsed(body)
      ? request.body
      : route.nonObjectBody === 422
        ? parseInput(body, request.body === undefined ? {} : request.body)
        : parseBody(body, request.body),
  };
};

const register = <Deps>(app: FastifyInstance, route: Route<Deps>, deps: Deps) => {
  app.route({
    method: route.method.toUpperCase(),
    url: routePattern(route.path),
    ...(route.onRequest ? { onRequest: route.onRequest(app) } : {}),
    ...(route.preValidation ? { preValidation: route.preValidation } : {}),
    ...(route.config ? { config: route.config } : {}),
    ...(route.bodyLimit === undefined ? {} : { bodyLimit: route.bodyLimit }),
    handler: async (request, reply) =>
      route.handler({ ...parseCall(route, request), request, reply }, deps),
  });
};

export type RoutesPlugin<Options> = ((app: FastifyInstance, options: Options) => Promise<void>) & {
  /** The routes it registers, for the OpenAPI document. */
  readonly routes: readonly RouteDocumentation[];
};

/**
 * A module's Fastify plugin: `setup` (hooks and parsers for the whole plugin, state kept between
 * requests) runs first and makes the handlers' `Deps` from the plugin's options; then each route
 * is registered. Without `setup`, the options are the handlers' `Deps`.
 */
export function routesPlugin<Deps>(routes: readonly Route<Deps>[]): RoutesPlugin<Deps>;
export function routesPlugin<Options, Deps>(
  routes: readonly Route<Deps>[],
  setup: (app: FastifyInstance, options: Options) => Promise<Deps>,
): RoutesPlugin<Options>;
export function routesPlugin<Options, Deps>(
  routes: readonly Route<Deps>[],
  setup?: (app: FastifyInstance, options: Options) => Promise<Deps>,
): RoutesPlugin<Options> {
  const plugin = async (app: FastifyInstance, options: Options) => {
    const deps = setup ? await setup(app, options) : (options as unknown as Deps);
    for (const route of routes) register(app, route, deps);
  };
  return Object.assign(plugin, { routes });
}
