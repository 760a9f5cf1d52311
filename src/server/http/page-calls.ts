import type { z } from 'zod';
import type { AuthUser } from '../../shared/models.js';
import {
  pageCallErrors,
  security,
  type SecurityRequirement,
  type TagName,
} from '../openapi/vocabulary.js';
import { viewerOf } from '../plugins/auth.js';
import {
  defineRouteFor,
  routesPlugin,
  type Input,
  type Part,
  type Route,
  type RouteCall,
  type RouteDeclaration,
  type RoutesPlugin,
} from './route.js';

/**
 * The messaging page's calls on the viewer's own things: every request carries the application key
 * and a viewer (session or token), both checked before the body is read; a change made with the
 * session cookie also needs the CSRF header. A module states of each call only what is its own.
 */

type ObjectPart = Part<z.ZodObject> | undefined;
type BodyPart = Part<z.ZodType> | undefined;

/**
 * A page call as its module declares it: `responses` are its own answers (`pageCallErrors` are
 * added, and with a body `bodyErrors`), and its handler is also given the viewer.
 */
export type PageCallDeclaration<
  Deps,
  Params extends ObjectPart,
  Query extends ObjectPart,
  Body extends BodyPart,
> = Omit<RouteDeclaration<Deps, Params, Query, Body>, 'security' | 'handler'> & {
  handler: (
    call: RouteCall<Input<Params>, Input<Query>, Input<Body>> & {
      /** The signed-in user. */
      viewer: AuthUser;
    },
    deps: Deps,
  ) => Promise<unknown>;
};

/** The two kinds of page call of one module (its tag), whose handlers are given `Deps`. */
export const definePageCallsFor = <Deps>(tag: TagName) => {
  const defineRoute = defineRouteFor<Deps>({
    tag,
    security: security.pageChange,
    errors: pageCallErrors,
  });
  const pageCall = <Params extends ObjectPart, Query extends ObjectPart, Body extends BodyPart>(
    { handler, ...declaration }: PageCallDeclaration<Deps, Params, Query, Body>,
    callSecurity: SecurityRequirement[],
  ) =>
    defineRoute<Params, Query, Body>({
      ...declaration,
      security: callSecurity,
      handler: async (call, deps) =>
        handler({ ...call, viewer: viewerOf(call.request).user }, deps),
    });
  return {
    /** A GET that reads: key + session (or token). */
    pageRead: <Params extends ObjectPart = undefined, Query extends ObjectPart = undefined>(
      declaration: Omit<PageCallDeclaration<Deps, Params, Query, undefined>, 'method' | 'body'>,
    ) => pageCall<Params, Query, undefined>({ ...declaration, method: 'get' }, security.pageRead),
    /** A call that changes state: key + session + CSRF header (or token). */
    pageChange: <
      Params extends ObjectPart = undefined,
      Query extends ObjectPart = undefined,
      Body extends BodyPart = undefined,
    >(
      declaration: PageCallDeclaration<Deps, Params, Query, Body>,
    ) => pageCall(declaration, security.pageChange),
  };
};

/** A module's page calls, whose handlers are given the plugin's options (its services). */
export const pageCallsPlugin = <Options>(
  routes: readonly Route<Options>[],
): RoutesPlugin<Options> =>
  routesPlugin(routes, async (app, options: Options) => {
    app.addHook('onRequest', app.requireAppKey);
    app.addHook('onRequest', app.requireViewer);
    return options;
  });
