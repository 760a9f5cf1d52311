import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrationPaths, startConversationResponseSchema } from '../../../shared/integration.js';
import { ACME, SARA } from '../../../../test-support/accounts.js';
import { signInOverHttp } from '../../../../test-support/http-session.js';
import { listenForChats, type ChatListener } from '../../../../test-support/pusher-js.js';
import {
  APP_KEY,
  createTestApp,
  listen,
  type TestContext,
} from '../../../../test-support/test-app.js';

const KEY = 'integration-realtime-key-0123456789abcdef0123';

describe('integration API: a conversation started with a message', () => {
  let ctx: TestContext;
  let baseUrl: string;
  const clients: ChatListener[] = [];

  beforeAll(async () => {
    ctx = await createTestApp('sqlite', { INTEGRATION_KEYS: KEY });
    baseUrl = await listen(ctx.app);
    // the demo's Sara and Acme are the host's "sara" and "acme"
    for (const [email, externalId] of [
      [SARA.email, 'sara'],
      [ACME.email, 'acme'],
    ] as const)
      await ctx.database.db.kysely
        .updateTable('users')
        .set({ external_id: externalId })
        .where('email', '=', email)
        .execute();
  });
  afterAll(async () => {
    clients.forEach((client) => client.disconnect());
    await ctx.close();
  });

  const api = (method: 'PUT' | 'POST', path: string, body: unknown) =>
    fetch(new URL(path, baseUrl), {
      method,
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('reaches both parties live, exactly like a send from the page', async () => {
    const sara = await signInOverHttp(baseUrl, SARA.email, { appKey: APP_KEY });
    const acme = await signInOverHttp(baseUrl, ACME.email, { appKey: APP_KEY });
    const saraLive = await listenForChats(baseUrl, sara, { pusherKey: ctx.config.pusher.key });
    const acmeLive = await listenForChats(baseUrl, acme, { pusherKey: ctx.config.pusher.key });
    clients.push(saraLive, acmeLive);

    const job = await api('PUT', integrationPaths.job('job:warehouse'), {
      company: 'acme',
      title: 'Warehouse Planner',
      status: 'active',
      deadline: null,
    });
    expect(job.status).toBe(201);
    const started = await api('POST', integrationPaths.conversations, {
      company: 'acme',
      candidate: 'sara',
      job: 'job:warehouse',
      message: {
        from: 'company',
        text: 'Would you like to talk about this role?',
        client_id: randomUUID(),
      },
    });
    expect(started.status).toBe(201);
    const { conversation } = startConversationResponseSchema.parse(await started.json());

    const [toSara] = await saraLive.waitFor(1);
    const [toAcme] = await acmeLive.waitFor(1);
    expect(toSara).toEqual(toAcme);
    expect(toSara).toMatchObject({
      messenger_user_id: conversation.id,
      sender_id: acme.userId,
      receiver_id: sara.userId,
      message: 'Would you like to talk about this role?',
    });
    // Each party's event carries the new conversation as that party sees it: the page adds the row.
    expect(saraLive.events[0]?.messengerUser).toMatchObject({
      id: conversation.id,
      is_seen_messages_count: 1,
      last_message: 'Would you like to talk about this role?',
    });
    expect(acmeLive.events[0]?.messengerUser).toMatchObject({
      id: conversation.id,
      is_seen_messages_count: 0,
    });
  });
});
