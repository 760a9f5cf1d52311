import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { integrationPaths, startConversationResponseSchema } from '../src/shared/integration.js';
import { paths } from '../src/shared/paths.js';
import {
  expectMessageOnce,
  sendFromUi,
  uniqueTag,
  waitForLive,
  waitForMessagesPage,
} from './support/messages-page.js';
import { useE2eSuite } from './support/suite.js';

const INTEGRATION_KEY = 'e2e-journey-integration-key-0123456789abcdef';
const SSO_SECRET = 'e2e-journey-sso-secret-0123456789abcdef-0123';

/**
 * What docs/integration.md promises: from an empty database to two of the host's users chatting
 * about one of its jobs, with only the integration API, sign-in links and the page.
 */
describe('a job board adopts the messenger', () => {
  const suite = useE2eSuite({
    env: { DEMO_SEED: 'off', INTEGRATION_KEYS: INTEGRATION_KEY, SSO_SECRET },
    failOnConsoleErrors: true,
  });

  const api = async (method: 'PUT' | 'POST', path: string, body: unknown) => {
    const response = await fetch(new URL(path, suite.url), {
      method,
      headers: { authorization: `Bearer ${INTEGRATION_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status, `${method} ${path}: ${await response.clone().text()}`).toBeLessThan(
      300,
    );
    return response.json() as Promise<unknown>;
  };

  /** The host's back end mints a sign-in link that lands on `next`. */
  const signInLink = async (externalId: string, next: string) => {
    const iat = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({ next })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(externalId)
      .setJti(randomUUID())
      .setIssuedAt(iat)
      .setExpirationTime(iat + 300)
      .sign(new TextEncoder().encode(SSO_SECRET));
    return `${paths.sso}?token=${encodeURIComponent(token)}`;
  };
  const pathOf = (url: string) => {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  };

  it('from an empty database to a live conversation about a job', async () => {
    // the demo is not there
    const demo = await fetch(new URL(paths.demoAccounts, suite.url));
    expect(demo.status).toBe(404);

    await api('PUT', integrationPaths.user('company:42'), { role: 'company', name: 'Delta Ports' });
    await api('PUT', integrationPaths.user('candidate:7'), {
      role: 'candidate',
      name: 'Lina Farouk',
      email: 'lina@example.com',
    });
    await api('PUT', integrationPaths.job('job:991'), {
      company: 'company:42',
      title: 'Crane Operator',
      status: 'active',
      deadline: '2027-01-31',
    });
    const tag = uniqueTag();
    const first = `Hello Lina, are you free for a call? ${tag}`;
    const started = startConversationResponseSchema.parse(
      await api('POST', integrationPaths.conversations, {
        company: 'company:42',
        candidate: 'candidate:7',
        job: 'job:991',
        message: { from: 'company', text: first, client_id: randomUUID() },
      }),
    );

    // each side follows a sign-in link to the conversation
    const recruiter = await suite.newUser('recruiter');
    await recruiter.page.goto(await signInLink('company:42', pathOf(started.company_url)));
    await waitForMessagesPage(recruiter.page);
    await expectMessageOnce(recruiter.page, first);
    const candidate = await suite.newUser('candidate');
    await candidate.page.goto(await signInLink('candidate:7', pathOf(started.candidate_url)));
    await waitForMessagesPage(candidate.page);
    await expectMessageOnce(candidate.page, first);
    expect(
      await candidate.page.getByRole('heading', { name: 'Crane Operator' }).count(),
    ).toBeGreaterThan(0);

    // and they talk, live
    await waitForLive(recruiter);
    await waitForLive(candidate);
    const reply = `Yes, tomorrow at 10 works ${tag}`;
    await sendFromUi(candidate.page, reply);
    await expectMessageOnce(recruiter.page, reply);
    const answer = `Great, I will call you then ${tag}`;
    await sendFromUi(recruiter.page, answer);
    await expectMessageOnce(candidate.page, answer);
  });
});
