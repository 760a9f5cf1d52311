/**
 * Operating it: liveness, readiness (the database and Redis within 1 s, draining once a stop
 * begins), the request id every answer carries, and the metrics a send leaves behind.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { paths } from '../../../shared/paths.js';
import { ACME, SARA } from '../../../../test-support/accounts.js';
import { settings } from '../../../../test-support/settings.js';
import { uniqueAppId } from '../../../../test-support/server-process.js';
import { createTestApp, signIn, type TestContext } from '../../../../test-support/test-app.js';
import { createHealthService } from './health.service.js';

const dialect = inject('database');

describe(`health, readiness, request ids and metrics (${dialect})`, () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp(dialect);
  });
  afterAll(async () => ctx.close());

  it('answers /healthz while the process runs, with a request id of its own', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: paths.healthz });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('is ready while the database answers (Redis off without REDIS_URL), draining once a stop begins', async () => {
    const ready = await ctx.app.inject({ method: 'GET', url: paths.readyz });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', redis: 'off' } });

    ctx.health.beginDraining();
    const draining = await ctx.app.inject({ method: 'GET', url: paths.readyz });
    expect(draining.statusCode).toBe(503);
    expect(draining.json()).toMatchObject({ status: 'draining' });
    // liveness does not change: the process still runs
    expect((await ctx.app.inject({ method: 'GET', url: paths.healthz })).statusCode).toBe(200);
  });

  it('ignores a client’s own X-Request-Id unless it came through a trusted proxy', async () => {
    const sent = { 'x-request-id': 'proxy-abc.123' };
    const direct = await ctx.app.inject({ method: 'GET', url: paths.healthz, headers: sent });
    expect(direct.headers['x-request-id']).not.toBe('proxy-abc.123');

    const behindProxy = await createTestApp(dialect, { TRUST_PROXY: '127.0.0.1' });
    try {
      const kept = await behindProxy.app.inject({
        method: 'GET',
        url: paths.healthz,
        headers: sent,
      });
      expect(kept.headers['x-request-id']).toBe('proxy-abc.123');
      const odd = await behindProxy.app.inject({
        method: 'GET',
        url: paths.healthz,
        headers: { 'x-request-id': 'has spaces <and> markup' },
      });
      expect(odd.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await behindProxy.close();
    }
  });

  it('counts requests by route pattern (never a raw path), and the messages sent', async () => {
    const sara = await signIn(ctx.app, SARA.email);
    const acme = await signIn(ctx.app, ACME.email);
    const list = await sara.call('GET', paths.initialData);
    const conversation = (
      list.json() as { messengerUsers: { id: number; company_id: number; job_id: number | null }[] }
    ).messengerUsers.find((row) => row.company_id === acme.user.id)!;
    const sent = await sara.call('POST', paths.sendMessage, {
      receiver_id: acme.user.id,
      messenger_user: conversation.id,
      job_id: conversation.job_id,
      message: 'counted once',
      client_id: crypto.randomUUID(),
    });
    expect(sent.statusCode).toBe(200);
    expect((await sara.call('POST', paths.archive(conversation.id))).statusCode).toBe(200);

    const text = await ctx.metrics.registry.metrics();
    expect(text).toContain(
      'messenger_http_requests_total{method="POST",route="/user/send/message",status="200"} 1',
    );
    expect(text).toContain(
      'messenger_http_requests_total{method="POST",route="/user/messenger/:id/archive",status="200"} 1',
    );
    expect(text).not.toMatch(/route="\/user\/messenger\/\d+/);
    expect(text).toMatch(/messenger_messages_sent_total 1\b/);
    expect(text).toMatch(
      /messenger_http_request_duration_seconds_bucket\{le="[^"]+",method="POST",route="\/user\/send\/message"\}/,
    );
    expect(text).toMatch(/messenger_outbox_tasks_pending \d+/);
    expect(text).toMatch(/messenger_live_connections 0/);
  });
});

describe.runIf(dialect === 'postgres')('readiness with Redis', () => {
  it('checks Redis when REDIS_URL is set, and says which dependency does not answer', async () => {
    const withRedis = await createTestApp(dialect, {
      REDIS_URL: settings.redisUrl,
      PUSHER_APP_ID: uniqueAppId('ready'),
    });
    try {
      let answer = await withRedis.app.inject({ method: 'GET', url: paths.readyz });
      for (let tries = 0; answer.statusCode !== 200 && tries < 20; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100)); // the connection is being made
        answer = await withRedis.app.inject({ method: 'GET', url: paths.readyz });
      }
      expect(answer.json()).toEqual({ status: 'ready', checks: { database: 'ok', redis: 'ok' } });
    } finally {
      await withRedis.close();
    }

    const noRedis = await createTestApp(dialect, {
      REDIS_URL: 'redis://127.0.0.1:1',
      PUSHER_APP_ID: uniqueAppId('ready'),
    });
    try {
      const answer = await noRedis.app.inject({ method: 'GET', url: paths.readyz });
      expect(answer.statusCode).toBe(503);
      expect(answer.json()).toEqual({
        status: 'unavailable',
        checks: { database: 'ok', redis: 'error' },
      });
    } finally {
      await noRedis.close();
    }
  });
});

describe('readiness when the database does not answer', () => {
  it('is unavailable after the 1 s limit, and ready again once it answers', async () => {
    let answering = false;
    const health = createHealthService({
      db: {} as never,
      repository: {
        ping: () => (answering ? Promise.resolve() : new Promise<void>(() => undefined)),
      },
    });
    expect(await health.readiness()).toEqual({
      status: 'unavailable',
      checks: { database: 'error', redis: 'off' },
    });
    answering = true;
    expect(await health.readiness()).toEqual({
      status: 'ready',
      checks: { database: 'ok', redis: 'off' },
    });
  });
});
