import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { randomToken } from '../src/server/lib/crypto.js';
import { paths } from '../src/shared/paths.js';
import { NILE } from '../test-support/accounts.js';
import { WAIT } from '../test-support/wait.js';
import { expectMessageOnce, row, waitForMessagesPage } from './support/messages-page.js';
import { hostKnowsSara } from './support/host-user.js';
import { useE2eSuite } from './support/suite.js';

const SSO_SECRET = 'e2e-sso-secret-0123456789abcdef-0123456789';
const SARA_EXTERNAL_ID = 'host-user-sara';

/** A sign-in link's token as the host site makes it. */
const mint = (claims: Record<string, unknown>) => {
  const iat = Math.floor(Date.now() / 1000);
  return new SignJWT({ iat, exp: iat + 300, jti: randomToken(12), ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode(SSO_SECRET));
};

/**
 * Sign-in from the host site: a browser that follows a /sso link is signed in and lands on the
 * conversation the link names.
 */
describe('sign-in links from the host site', () => {
  const suite = useE2eSuite({ env: { SSO_SECRET } });
  let deepLink: string;

  beforeAll(async () => {
    // The host knows Sara by its own id.
    deepLink = await hostKnowsSara(suite.url, suite.server.database.url, SARA_EXTERNAL_ID);
  });

  it('signs the user in and opens the conversation the link names', async () => {
    const user = await suite.newUser('sso');
    const token = await mint({ sub: SARA_EXTERNAL_ID, next: deepLink });
    await user.page.goto(`${paths.sso}?token=${encodeURIComponent(token)}`);
    await user.page.waitForURL(
      (url) => url.pathname === '/messages' && url.search === deepLink.slice('/messages'.length),
      { timeout: 30_000 },
    );
    await waitForMessagesPage(user.page);
    await expectMessageOnce(user.page, 'Unfortunately it has just been closed.');
    await expect
      .poll(() => row(user.page, NILE.name).getAttribute('aria-current'), WAIT)
      .toBe('true');
    expect(
      await user.page.getByRole('heading', { name: 'Frontend Developer' }).count(),
    ).toBeGreaterThan(0);

    // the same link again: refused with the page saying so, and no one else is signed in by it
    const other = await suite.newUser('replay');
    const replay = await other.page.goto(`${paths.sso}?token=${encodeURIComponent(token)}`);
    expect(replay?.status()).toBe(401);
    await other.page
      .getByRole('heading', { name: 'This sign-in link is invalid or has expired.' })
      .waitFor({ timeout: 30_000 });
    expect(await other.context.cookies()).not.toContainEqual(
      expect.objectContaining({ name: 'messenger_session' }),
    );
  });
});
