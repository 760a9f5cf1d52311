import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { integrationPaths, type StartConversationResponse } from '../../src/shared/integration.js';
import { paths } from '../../src/shared/paths.js';
import { sessionFromSignIn, type HttpSession } from '../../test-support/http-session.js';
import type { Conversation } from '../../test-support/messaging.js';

/**
 * A job board's users brought in the way docs/integration.md says: the integration API creates
 * the users and their conversations, and each user signs in through a sign-in link (`/sso`).
 * Many users without a password hash each (the demo has ten).
 */

/** Settings of a server that takes this file's calls (INTEGRATION_KEYS and SSO_SECRET). */
export interface HostKeys {
  integrationKey: string;
  ssoSecret: string;
}

export const hostKeysEnv = (keys: HostKeys): Record<string, string> => ({
  INTEGRATION_KEYS: keys.integrationKey,
  SSO_SECRET: keys.ssoSecret,
});

/** New random keys (each well over the 32 bytes the server asks for). */
export const newHostKeys = (): HostKeys => ({
  integrationKey: randomBytes(32).toString('hex'),
  ssoSecret: randomBytes(32).toString('hex'),
});

/** One party of a conversation: signed in, and the conversation as they see it. */
export interface Party {
  session: HttpSession;
  conversation: Conversation;
}

/** A company and a candidate of the host's, one conversation between them (no job). */
export interface HostConversation {
  id: number;
  company: Party;
  candidate: Party;
}

const integrationCall = async (
  baseUrl: string,
  keys: HostKeys,
  method: string,
  path: string,
  body: unknown,
): Promise<unknown> => {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${keys.integrationKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 200 && response.status !== 201)
    throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json();
};

/** Signs a host user in through a fresh sign-in link and keeps the session it opened. */
export const signInWithLink = async (
  baseUrl: string,
  keys: HostKeys,
  user: { externalId: string; id: number; role: string; name: string },
): Promise<HttpSession> => {
  const iat = Math.floor(Date.now() / 1000);
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(user.externalId)
    .setJti(randomBytes(16).toString('hex'))
    .setIssuedAt(iat)
    .setExpirationTime(iat + 300)
    .sign(new TextEncoder().encode(keys.ssoSecret));
  const response = await fetch(`${baseUrl}${paths.sso}?token=${encodeURIComponent(token)}`, {
    redirect: 'manual',
  });
  if (response.status !== 303)
    throw new Error(`sign-in link of ${user.externalId}: ${response.status}`);
  return sessionFromSignIn(baseUrl, response, user);
};

/** Runs `work` over `items`, `concurrency` at a time; the results in the items' order. */
export const mapConcurrently = async <T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> => {
  const results = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!, index);
      }
    }),
  );
  return results;
};

/**
 * `count` conversations, each between a company and a candidate of their own (2 × `count` users),
 * created through the integration API and signed in through sign-in links, all at `baseUrl`.
 */
export const hostConversations = async (
  baseUrl: string,
  keys: HostKeys,
  count: number,
  prefix = 'host',
): Promise<HostConversation[]> =>
  mapConcurrently(
    Array.from({ length: count }, (_, i) => i),
    8,
    async (i) => {
      const company = {
        externalId: `${prefix}-company-${i}`,
        role: 'company',
        name: `Company ${i}`,
      };
      const candidate = {
        externalId: `${prefix}-candidate-${i}`,
        role: 'candidate',
        name: `Candidate ${i}`,
      };
      for (const user of [company, candidate])
        await integrationCall(baseUrl, keys, 'PUT', integrationPaths.user(user.externalId), {
          role: user.role,
          name: user.name,
        });
      const started = (await integrationCall(
        baseUrl,
        keys,
        'POST',
        integrationPaths.conversations,
        {
          company: company.externalId,
          candidate: candidate.externalId,
        },
      )) as StartConversationResponse;
      const { id, company_id: companyId, candidate_id: candidateId } = started.conversation;
      return {
        id,
        company: {
          session: await signInWithLink(baseUrl, keys, { ...company, id: companyId }),
          conversation: { id, receiverId: candidateId, jobId: null },
        },
        candidate: {
          session: await signInWithLink(baseUrl, keys, { ...candidate, id: candidateId }),
          conversation: { id, receiverId: companyId, jobId: null },
        },
      };
    },
  );
