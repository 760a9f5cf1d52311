import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/server/db/database.js';
import { integrationPaths } from '../src/shared/integration.js';
import { paths } from '../src/shared/paths.js';
import { SARA } from '../test-support/accounts.js';
import { freshPostgresDatabase, type ServerDatabase } from '../test-support/databases.js';
import { signInOverHttp } from '../test-support/http-session.js';
import { listenForChats, type ChatListener } from '../test-support/pusher-js.js';
import { startServer, uniqueAppId, type ServerProcess } from '../test-support/server-process.js';
import { settings } from '../test-support/settings.js';
import { until } from '../test-support/wait.js';

const INTEGRATION_KEY = 'erasure-fault-key-0123456789abcdef0123456789';

/**
 * Erasure through one instance ends the user's live socket on another (through Redis), and their
 * session everywhere: nothing more reaches a browser left open on the erased account.
 */
describe('erasure across instances', () => {
  let database: ServerDatabase;
  const servers: ServerProcess[] = [];
  const clients: ChatListener[] = [];

  beforeAll(async () => {
    database = await freshPostgresDatabase('erase');
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: settings.redisUrl,
      DEMO_SEED: 'on',
      PUSHER_APP_ID: uniqueAppId('erase'),
      INTEGRATION_KEYS: INTEGRATION_KEY,
    };
    servers.push(await startServer({ env }));
    servers.push(await startServer({ env }));
    // The demo's Sara is the host's user "sara".
    const db = openDatabase(database.url);
    try {
      await db.kysely
        .updateTable('users')
        .set({ external_id: 'sara' })
        .where('email', '=', SARA.email)
        .execute();
    } finally {
      await db.destroy();
    }
  });
  afterAll(async () => {
    clients.forEach((client) => client.disconnect());
    await Promise.all(servers.map((server) => server.stop()));
    await database?.drop();
  });

  it('closes the erased user’s socket on instance A when B erases them, and ends their session', async () => {
    const [a, b] = servers;
    if (!a || !b) throw new Error('servers did not start');
    const sara = await signInOverHttp(a.url, SARA.email);
    const saraLive = await listenForChats(a.url, sara);
    clients.push(saraLive);
    expect(saraLive.pusher.connection.state).toBe('connected');

    const erased = await fetch(new URL(integrationPaths.user('sara'), b.url), {
      method: 'DELETE',
      headers: { authorization: `Bearer ${INTEGRATION_KEY}` },
    });
    expect(erased.status).toBe(204);

    await until(
      () => saraLive.pusher.connection.state !== 'connected' || !saraLive.channel.subscribed,
      'the erased user’s socket on the other instance closed',
    );
    for (const server of [a, b]) {
      const response = await fetch(new URL(`${paths.initialData}?key=local-app-key`, server.url), {
        headers: { cookie: sara.cookie },
      });
      expect(response.status).toBe(401);
    }
  });
});
