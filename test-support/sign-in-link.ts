import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { expect } from 'vitest';
import { paths } from '../src/shared/paths.js';
import { SESSION_COOKIE, XSRF_COOKIE } from '../src/server/plugins/auth.js';
import { withTestKey, type Session, type TestContext } from './test-app.js';

/** A sign-in link's token (HS256), living 5 minutes unless the claims say otherwise. */
export const signedLinkToken = async (
  claims: Record<string, unknown>,
  secret: string,
): Promise<string> => {
  const iat = Math.floor(Date.now() / 1000);
  return new SignJWT({ iat, exp: iat + 300, jti: randomUUID(), ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode(secret));
};

/** A page session of a host-made user, through a sign-in link (the host's users have no password). */
export const signInByLink = async (
  ctx: TestContext,
  secret: string,
  claims: { sub: string; role: string; name: string },
): Promise<Session> => {
  const token = await signedLinkToken(claims, secret);
  const response = await ctx.app.inject({
    method: 'GET',
    url: `${paths.sso}?token=${encodeURIComponent(token)}`,
  });
  expect(response.statusCode, response.body).toBe(303);
  const cookie = (name: string) => response.cookies.find((item) => item.name === name)?.value;
  const session = cookie(SESSION_COOKIE);
  // the session's own token, echoed as the page does
  const xsrf = cookie(XSRF_COOKIE);
  if (!session || !xsrf) throw new Error('no session or XSRF cookie');
  const cookies = { [SESSION_COOKIE]: session, [XSRF_COOKIE]: xsrf };
  const user = await ctx.database.db.kysely
    .selectFrom('users')
    .select(['id', 'name', 'role'])
    .where('external_id', '=', claims.sub)
    .executeTakeFirstOrThrow();
  return {
    user,
    cookies,
    csrf: xsrf,
    call: (method, url, body, headers = {}) =>
      ctx.app.inject({
        method,
        url: withTestKey(url),
        cookies,
        headers: { 'x-xsrf-token': xsrf, ...headers },
        ...(body === undefined ? {} : { payload: body as object }),
      }),
  };
};
