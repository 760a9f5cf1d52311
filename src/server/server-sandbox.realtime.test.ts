import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ACME } from '../../test-support/accounts.js';
import { postLogin } from '../../test-support/http-session.js';
import { startServer, type ServerProcess } from '../../test-support/server-process.js';
import { migrateToLatest, openDatabase } from './db/database.js';
import { seedDemo } from './db/seed.js';

/**
 * A developer who ran `npm start` has a demo database (and uploads, e-mails) under the checkout's
 * `./data`. A server started by the tests must not open it: a hosted-service stand-in that read
 * the demo data announced presence to the test's users a second time.
 */
describe('a server started by the tests', () => {
  const checkout = mkdtempSync(join(tmpdir(), 'checkout-'));
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.stop();
    rmSync(checkout, { recursive: true, force: true });
  });

  it("opens none of the checkout's ./data, even without a DATABASE_URL of its own", async () => {
    // what `npm start` leaves behind: the demo on ./data/messenger.db
    const demo = openDatabase(`sqlite:${join(checkout, 'data', 'messenger.db')}`);
    await migrateToLatest(demo);
    expect(await seedDemo(demo)).toBe(true);
    await demo.destroy();
    const before = readdirSync(join(checkout, 'data')).sort();

    server = await startServer({ cwd: checkout, env: { DEMO_SEED: 'off' } });
    // the demo accounts are not in the server's database
    const login = await postLogin(server.url, { email: ACME.email });
    expect(login.status).toBe(401);
    expect(await server.stop()).toBe(0);
    server = undefined;
    expect(readdirSync(join(checkout, 'data')).sort()).toEqual(before);
  });
});
