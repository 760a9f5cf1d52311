import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { integrationPaths } from '../src/shared/integration.js';
import type { TestContext } from './test-app.js';

let counter = 0;
/** A fresh external id per use: tests never share a user or a job. */
export const fresh = (label: string) => `${label}:${(counter += 1)}-${randomUUID().slice(0, 8)}`;

/** Calls of the integration API with `key` (unless told another), and the host's side of a test. */
export const hostOf = (ctx: () => TestContext, key: string) => {
  const call = (
    method: 'GET' | 'PUT' | 'POST' | 'DELETE',
    url: string,
    body?: unknown,
    withKey = key,
  ) =>
    ctx().app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${withKey}` },
      ...(body === undefined ? {} : { payload: body as object }),
    });
  const put = async (url: string, body: Record<string, unknown>) => {
    const response = await call('PUT', url, body);
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response;
  };
  /** A company and a candidate made by the host, and a job of the company. */
  const parties = async () => {
    const ids = { company: fresh('co'), candidate: fresh('cand'), job: fresh('job') };
    await put(integrationPaths.user(ids.company), { role: 'company', name: 'Atlas Freight' });
    await put(integrationPaths.user(ids.candidate), { role: 'candidate', name: 'Karim Nasser' });
    await put(integrationPaths.job(ids.job), {
      company: ids.company,
      title: 'Dispatcher',
      status: 'active',
      deadline: '2027-01-31',
    });
    return ids;
  };
  const start = (body: Record<string, unknown>, withKey = key) =>
    call('POST', integrationPaths.conversations, body, withKey);
  return { call, put, parties, start };
};
