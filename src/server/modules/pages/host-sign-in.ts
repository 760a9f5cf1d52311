import { paths, sameOriginPath } from '../../../shared/paths.js';
import type { Config } from '../../config.js';

/** The query parameter of `LOGIN_URL` that says where the visitor wanted to go. */
export const RETURN_TO = 'return_to';

/**
 * `return_to`: the absolute URL of `pathAndQuery` on `PUBLIC_URL` (never on the request's Host).
 * Anything that is not a path of this site becomes `/messages`.
 */
export const returnToUrl = (publicUrl: URL, pathAndQuery: string | null | undefined): string =>
  new URL(sameOriginPath(pathAndQuery) ?? paths.messages, publicUrl.origin).href;

/**
 * `LOGIN_URL` with `return_to=<returnTo>` added to its own query. The query and fragment it has are
 * kept as they are written; a `return_to` it already carries is replaced.
 */
export const withReturnTo = (loginUrl: URL, returnTo: string): string => {
  const target = new URL(loginUrl.href);
  if (target.searchParams.has(RETURN_TO)) {
    target.searchParams.set(RETURN_TO, returnTo);
    return target.href;
  }
  const fragment = target.hash;
  target.hash = '';
  const base = target.href;
  const separator = target.search ? '&' : base.endsWith('?') ? '' : '?';
  return `${base}${separator}${RETURN_TO}=${encodeURIComponent(returnTo)}${fragment}`;
};

/**
 * Where a visitor without a session goes, when the host signs its users in: `LOGIN_URL` with
 * `return_to` = `PUBLIC_URL` + the path and query they wanted. Undefined without `LOGIN_URL` (the
 * messenger's own `/login`), and when `LOGIN_URL` is that very page (it would send them round in
 * circles).
 */
export const hostSignInFor = (
  config: Pick<Config, 'loginUrl' | 'publicUrl'>,
): ((pathAndQuery: string | null | undefined) => string) | undefined => {
  const { loginUrl, publicUrl } = config;
  if (!loginUrl) return undefined;
  if (loginUrl.origin === publicUrl.origin && loginUrl.pathname === paths.login) return undefined;
  return (pathAndQuery) => withReturnTo(loginUrl, returnToUrl(publicUrl, pathAndQuery));
};
