/**
 * Every benchmark scenario once at the tiny size, so the harness cannot rot. Only counts and shapes
 * are checked (no timing assertions): sends delivered once each, rows present, no scenario error.
 * Needs the built server and client (`npm run build`; fails at once, saying so, without them), PostgreSQL
 * and Redis.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { dropStaleBenchDatabases } from './lib/database.js';
import { runScenario } from './lib/runner.js';
import type { Scenario, ScenarioResult } from './lib/types.js';
import { capacity } from './scenarios/capacity.js';
import { connections } from './scenarios/connections.js';
import { dataScale } from './scenarios/data-scale.js';
import { notifications } from './scenarios/notifications.js';
import { pageWeight } from './scenarios/page-weight.js';
import { presence } from './scenarios/presence.js';
import { sendThroughput } from './scenarios/send-throughput.js';
import { sendToDeliver } from './scenarios/send-to-deliver.js';
import { twoInstances } from './scenarios/two-instances.js';
import { uploads } from './scenarios/uploads.js';
import { SCENARIOS } from './scenarios/index.js';

const run = (scenario: Scenario): Promise<ScenarioResult> =>
  runScenario(scenario, { size: 'tiny', log: () => undefined });

const expectCompleted = (result: ScenarioResult) => {
  expect(result.error).toBeUndefined();
  expect(result.rows.length).toBeGreaterThan(0);
  for (const row of result.rows) {
    expect(row.metric).toBeTruthy();
    expect(['met', 'missed', 'info', 'skipped']).toContain(row.status);
  }
};

/** What the scenarios run: without the client, the browser and page-weight figures would be skipped. */
const BUILT = ['dist/server/main.js', 'dist/web/index.html', 'dist/web/login.html'];

describe('benchmarks at tiny size', () => {
  beforeAll(async () => {
    const missing = BUILT.filter((file) => !existsSync(resolve(import.meta.dirname, '..', file)));
    if (missing.length > 0)
      throw new Error(
        `${missing.join(', ')} missing: run \`npm run build\` first (the smoke test runs the built server and client)`,
      );
    await dropStaleBenchDatabases();
  });

  it('lists every scenario once', () => {
    expect(SCENARIOS.map((scenario) => scenario.name)).toEqual([
      'send-to-deliver',
      'send-throughput',
      'two-instances',
      'connections',
      'data-scale',
      'page-weight',
      'notifications',
      'presence',
      'uploads',
      'capacity',
    ]);
  });

  it('send-to-deliver: every send delivered once to its receiver, app, relay and Socket.IO peer', async () => {
    const result = await run(sendToDeliver);
    expectCompleted(result);
    const c = result.checks;
    expect(c.clients).toBe(c.expectedClients);
    expect(c.sent).toBeGreaterThan(0);
    expect(c.accepted).toBe(c.sent);
    expect(c.delivered).toBe(c.accepted);
    expect(c.lost).toBe(0);
    expect(c.duplicates).toBe(0);
    expect(c.echoes).toBe(0);
    expect(c.misdelivered).toBe(0);
    expect(c.relayDelivered).toBe(c.relaySent);
    expect(c.relayDuplicates).toBe(0);
    expect(c.peerClients).toBe(c.expectedClients);
    expect(c.peerSent).toBeGreaterThan(0);
    expect(c.peerAccepted).toBe(c.peerSent);
    expect(c.peerDelivered).toBe(c.peerAccepted);
    expect(c.peerLost).toBe(0);
    expect(c.peerDuplicates).toBe(0);
    expect(c.peerEchoes).toBe(0);
    expect(c.peerMisdelivered).toBe(0);
  });

  it('send-throughput: every accepted send broadcast once, on SQLite and PostgreSQL', async () => {
    const result = await run(sendThroughput);
    expectCompleted(result);
    const c = result.checks;
    for (const dialect of ['sqlite', 'postgres']) {
      expect(c[`${dialect}Accepted`]).toBeGreaterThan(0);
      expect(c[`${dialect}Non2xx`]).toBe(0);
      // autocannon stops counting at its deadline: a few stored sends may be missing from its 2xx.
      expect(c[`${dialect}Stored`]).toBeGreaterThanOrEqual(c[`${dialect}Accepted`] as number);
      expect(c[`${dialect}Delivered`]).toBe(c[`${dialect}Stored`]);
      expect(c[`${dialect}Duplicates`]).toBe(0);
      expect(c[`${dialect}Misdelivered`]).toBe(0);
      expect(c[`${dialect}RawOk`]).toBeGreaterThan(0);
    }
  });

  it('two-instances: sends on A reach receivers on B once each', async () => {
    const result = await run(twoInstances);
    expectCompleted(result);
    const c = result.checks;
    expect(c.singleDelivered).toBe(c.singleSent);
    expect(c.singleDuplicates).toBe(0);
    expect(c.accepted).toBe(c.sent);
    expect(c.delivered).toBe(c.accepted);
    expect(c.lost).toBe(0);
    expect(c.duplicates).toBe(0);
    expect(c.echoes).toBe(0);
    expect(c.misdelivered).toBe(0);
  });

  it('connections: every connection held and still receiving', async () => {
    const result = await run(connections);
    expectCompleted(result);
    const c = result.checks;
    expect(c.connected).toBe(c.requested);
    expect(c.failed).toBe(0);
    expect(c.dropped).toBe(0);
    expect(c.probeSent).toBeGreaterThan(0);
    expect(c.probeDelivered).toBe(c.probeSent);
    expect(c.probeDuplicates).toBe(0);
  });

  it('data-scale: seeded counts as asked, every call answered, pages walked, messages shown live without list calls', async () => {
    const result = await run(dataScale);
    expectCompleted(result);
    const c = result.checks;
    for (const dialect of ['sqlite', 'postgres']) {
      expect(c[`${dialect}Conversations`]).toBe(120);
      expect(c[`${dialect}Messages`]).toBe(1_200);
      // 120 conversations, 50 a page
      expect(c[`${dialect}Pages`]).toBe(3);
      for (const name of ['firstPage', 'laterPage', 'search', 'filtered', 'whole', 'open'])
        expect(c[`${dialect}Runs.${name}`]).toBeGreaterThan(0);
      expect(c[`${dialect}Non200`]).toBe(0);
      expect(c[`${dialect}BrowserRowsShown`]).toBeGreaterThan(0);
      expect(c[`${dialect}ScrollFrames`]).toBeGreaterThan(0);
      expect(c[`${dialect}FlowError`]).toBeNull();
      expect(c[`${dialect}FlowShown`]).toBe(3);
      expect(c[`${dialect}FlowListRequests`]).toBe(0);
    }
    expect(c.browser).toBe('ran');
  });

  it('notifications: every due e-mail handed to SMTP once, on SQLite and PostgreSQL', async () => {
    const result = await run(notifications);
    expectCompleted(result);
    const c = result.checks;
    for (const dialect of ['sqlite', 'postgres']) {
      expect(c[`${dialect}FailedSends`]).toBe(0);
      expect(c[`${dialect}SentOn`]).toBe(c[`${dialect}EmailsExpected`]);
      expect(c[`${dialect}SentOff`]).toBe(c[`${dialect}EmailsExpected`]);
      expect(c[`${dialect}EmailsReceived`]).toBe(c[`${dialect}EmailsExpected`]);
      expect(c[`${dialect}EmailsDuplicated`]).toBe(0);
      expect(c[`${dialect}EmailsUnknown`]).toBe(0);
      expect(c[`${dialect}AllArrived`]).toBe(true);
      expect(c[`${dialect}PendingTasks`]).toBe(0);
    }
  });

  it('page-weight: the built client references files that exist', async () => {
    const result = await run(pageWeight);
    expectCompleted(result);
    expect(result.checks.built).toBe(true);
    expect(result.checks.messagesFiles).toBeGreaterThan(0);
    expect(result.checks.messagesGzipBytes).toBeGreaterThan(0);
    expect(result.checks.loginGzipBytes).toBeGreaterThan(0);
  });

  it('presence: every online partner hears each change once', async () => {
    const result = await run(presence);
    expectCompleted(result);
    const c = result.checks;
    expect(c.partnersOnline).toBe(50);
    expect(c.changes).toBe(4);
    expect(c.arrivals).toBe(200);
    expect(c.missing).toBe(0);
    expect(c.duplicates).toBe(0);
  });

  it('uploads: every upload stored (ours and the bare server), memory measured', async () => {
    const result = await run(uploads);
    expectCompleted(result);
    const c = result.checks;
    expect(c.uploads).toBe(9);
    expect(c.failed).toBe(0);
    expect(c.rawFailed).toBe(0);
    expect(c.leftInTmp).toBe(0);
    expect(result.rows.some((row) => row.metric.startsWith('server RSS increase'))).toBe(true);
  });

  it('capacity: every user on at each step, every live send delivered, no errors', async () => {
    const result = await run(capacity);
    expectCompleted(result);
    const c = result.checks;
    // tiny: SQLite 20 then 50 users (every step runs, whatever its timings), PostgreSQL 50
    expect(c.sqliteSteps).toBe(2);
    expect(c.postgresSteps).toBe(1);
    for (const [dialect, users] of [
      ['sqlite', 20],
      ['sqlite', 50],
      ['postgres', 50],
    ] as const) {
      expect(c[`${dialect}Error`]).toBe('none');
      const key = `${dialect}.${users}`;
      expect(c[`${key}.arrived`]).toBe(c[`${key}.requested`]);
      expect(c[`${key}.live`]).toBe(users);
      expect(c[`${key}.pageLoads`]).toBeGreaterThan(0);
      expect(c[`${key}.opens`]).toBeGreaterThan(0);
      expect(c[`${key}.sendsAccepted`]).toBeGreaterThan(0);
      expect(c[`${key}.delivered`]).toBe(c[`${key}.expected`]);
      expect(c[`${key}.lost`]).toBe(0);
      expect(c[`${key}.errors`]).toBe(0);
    }
    expect(c.sqlitePeerSteps).toBe(1);
  });
});
