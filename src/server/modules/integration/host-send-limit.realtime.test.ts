import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrationPaths } from '../../../shared/integration.js';
import { settings } from '../../../../test-support/settings.js';
import { createTestApp, type TestContext } from '../../../../test-support/test-app.js';

const KEY = 'host-send-limit-realtime-key-0123456789abcdef';

// HOST_SEND_RATE_PER_SECOND holds per key over every instance of a deployment: the bucket is kept
// in Redis, as the SEND_RATE_* limits are.
describe('the host’s send limit with several instances (Redis)', () => {
  const instances: TestContext[] = [];

  beforeAll(async () => {
    // one deployment (its own Redis namespace, so no earlier run's bucket counts)
    const deployment = `host-limit-${randomUUID()}`;
    for (let index = 0; index < 2; index += 1)
      instances.push(
        await createTestApp('postgres', {
          INTEGRATION_KEYS: KEY,
          REDIS_URL: settings.redisUrl,
          PUSHER_APP_ID: deployment,
          // at most one message every 2 s (the burst is never below one message)
          HOST_SEND_RATE_PER_SECOND: '0.5',
        }),
      );
  });
  afterAll(async () => {
    for (const instance of instances) await instance.close();
  });

  const call = (instance: TestContext, method: 'PUT' | 'POST', url: string, body: object) =>
    instance.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${KEY}` },
      payload: body,
    });

  it('a message through one instance uses up the key’s burst on the other too', async () => {
    const send = (instance: TestContext, text: string) =>
      call(instance, 'POST', integrationPaths.conversations, {
        company: 'co:shared',
        candidate: 'cand:shared',
        message: { from: 'company', text },
      });
    // the test apps have a database each: the host's users are made in both
    for (const instance of instances) {
      await call(instance, 'PUT', integrationPaths.user('co:shared'), {
        role: 'company',
        name: 'Atlas Freight',
      });
      await call(instance, 'PUT', integrationPaths.user('cand:shared'), {
        role: 'candidate',
        name: 'Karim',
      });
    }
    const [first, second] = instances as [TestContext, TestContext];
    expect((await send(first, 'Through the first instance')).statusCode).toBe(201);
    const refused = await send(second, 'Through the second instance');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(
      await second.database.db.kysely
        .selectFrom('chats')
        .select('id')
        .where('message', '=', 'Through the second instance')
        .execute(),
    ).toEqual([]);
  });
});
