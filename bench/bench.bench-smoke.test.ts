/**
 * Every benchmark scenario once at the tiny size, so the harness cannot rot. Only counts and shapes
 * are checked (no timing assertions): sends delivered once each, rows present, no scenario error.
 * Needs the built server and client (`npm run build`; fails at once, saying so, without them), PostgreSQL
 * and Redis.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { dropStaleBenchDatabases } from './lib/database.js';
import { checkKey } from './lib/delivery.js';
import { runScenario } from './lib/runner.js';
import type { Checks, Scenario, ScenarioResult } from './lib/types.js';
import { capacity } from './scenarios/capacity.js';
import { connections } from './scenarios/connections.js';
import { dataScale } from './scenarios/data-scale.js';
import { embed } from './scenarios/embed.js';
import { notifications } from './scenarios/notifications.js';
import { pageWeight } from './scenarios/page-weight.js';
import { presence } from './scenarios/presence.js';
import { phaseKey, scaleOut } from './scenarios/scale-out.js';
import { sendThroughput } from './scenarios/send-throughput.js';
import { sendToDeliver } from './scenarios/send-to-deliver.js';
import { twoInstances } from './scenarios/two-instances.js';
import { uploads } from './scenarios/uploads.js';
import { SCENARIOS } from './scenarios/index.js';

/** Runs a scenario at the tiny size and expects it to complete with rows. */
const completed = async (scenario: Scenario): Promise<ScenarioResult> => {
  const result = await runScenario(scenario, { size: 'tiny', log: () => undefined });
  expect(result.error).toBeUndefined();
  expect(result.rows.length).toBeGreaterThan(0);
  for (const row of result.rows) {
    expect(row.metric).toBeTruthy();
    expect(['met', 'missed', 'info', 'skipped']).toContain(row.status);
  }
  return result;
};

/** The checks of a completed tiny run. */
const checksOf = async (scenario: Scenario): Promise<Checks> => (await completed(scenario)).checks;

const DIALECTS = ['sqlite', 'postgres'] as const;

/**
 * Every send of a delivery phase accepted and delivered once to its receiver, none to anyone else
 * (the checks `sent`, `accepted`, `delivered`, … after `prefix`).
 */
const expectDeliveredOnce = (c: Checks, prefix = '') => {
  const check = (key: string) => c[checkKey(prefix, key)];
  expect(check('sent')).toBeGreaterThan(0);
  expect(check('accepted')).toBe(check('sent'));
  expect(check('delivered')).toBe(check('accepted'));
  for (const key of ['lost', 'duplicates', 'echoes', 'misdelivered']) expect(check(key)).toBe(0);
};

/** What the scenarios run: without the client, the browser and page-weight figures would be skipped. */
const BUILT = [
  'dist/server/main.js',
  'dist/web/index.html',
  'dist/web/login.html',
  'dist/web/embed.js',
];

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
      'scale-out',
      'connections',
      'data-scale',
      'page-weight',
      'embed',
      'notifications',
      'presence',
      'uploads',
      'capacity',
    ]);
  });

  it('send-to-deliver: every send delivered once to its receiver, app, relay and Socket.IO peer', async () => {
    const c = await checksOf(sendToDeliver);
    expect(c.clients).toBe(c.expectedClients);
    expectDeliveredOnce(c);
    expect(c.relayDelivered).toBe(c.relaySent);
    expect(c.relayDuplicates).toBe(0);
    expect(c.peerClients).toBe(c.expectedClients);
    expectDeliveredOnce(c, 'peer');
  });

  it('send-throughput: every accepted send broadcast once, on SQLite and PostgreSQL', async () => {
    const c = await checksOf(sendThroughput);
    for (const dialect of DIALECTS) {
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
    const c = await checksOf(twoInstances);
    expect(c.singleDelivered).toBe(c.singleSent);
    expect(c.singleDuplicates).toBe(0);
    expectDeliveredOnce(c);
  });

  it('scale-out: every send delivered once in every phase; per-user routing sends each event to its user only, broadcast to every instance', async () => {
    const c = await checksOf(scaleOut);
    for (const instances of [1, 2, 4]) {
      for (const routing of ['broadcast', 'per-user'] as const) {
        const key = phaseKey(routing, instances);
        expect(c[`${key}Instances`]).toBe(instances);
        expectDeliveredOnce(c, key);
        // one frame per send (the receiver's), the sender's own socket excluded; no presence noise
        expect(c[`${key}Deliveries`]).toBe(c[`${key}Accepted`]);
        expect(c[`${key}PresenceHeard`]).toBe(0);
        expect(c[`${key}Settled`]).toBe(1);
        // one event to several channels at once through each instance: each copy once, where named
        expect(c[`${key}MultiChannelMissing`]).toBe(0);
        expect(c[`${key}MultiChannelDoubled`]).toBe(0);
        expect(c[`${key}MultiChannelMisdelivered`]).toBe(0);
        // every send publishes two events (the receiver's channel, the sender's): Redis is shared,
        // so at least those
        expect(c[`${key}Publishes`]).toBeGreaterThanOrEqual(2 * (c[`${key}Accepted`] as number));
      }
      const perUser = phaseKey('per-user', instances);
      const broadcast = phaseKey('broadcast', instances);
      // per-user: each event reaches only the instance holding its user, however many there are
      expect(c[`${perUser}FanoutReceived`]).toBe(2 * (c[`${perUser}Accepted`] as number));
      expect(c[`${perUser}RoutedChannels`]).toBe(c.clients);
      // broadcast: every instance receives every event, N × what one instance receives
      expect(c[`${broadcast}FanoutReceived`]).toBe(
        instances * 2 * (c[`${broadcast}Accepted`] as number),
      );
      // the shard channels are kept with either routing (a rolling switch between them loses nothing)
      expect(c[`${broadcast}RoutedChannels`]).toBe(c.clients);
    }
  });

  it('connections: every connection held and still receiving', async () => {
    const c = await checksOf(connections);
    expect(c.connected).toBe(c.requested);
    expect(c.failed).toBe(0);
    expect(c.dropped).toBe(0);
    expect(c.probeSent).toBeGreaterThan(0);
    expect(c.probeDelivered).toBe(c.probeSent);
    expect(c.probeDuplicates).toBe(0);
  });

  it('data-scale: seeded counts as asked, every call answered, pages walked, messages shown live without list calls', async () => {
    const c = await checksOf(dataScale);
    for (const dialect of DIALECTS) {
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

  it('embed: embed.js measured, every cold load of the board showed the inbox frame’s first row, and the baseline page its own', async () => {
    const c = await checksOf(embed);
    expect(c.built).toBe(true);
    expect(c.embedGzipBytes).toBeGreaterThan(0);
    expect(c.embedGzipBytes).toBeLessThan(c.embedBytes as number);
    expect(c.embedFailures).toBe(0);
    expect(c.embedRowsShown).toBe(c.embedRuns);
    expect(c.warmRowsShown).toBe(c.embedRuns);
    expect(c.baselineRowsShown).toBe(c.embedRuns);
  });

  it('notifications: every due e-mail handed to SMTP once, on SQLite and PostgreSQL', async () => {
    const c = await checksOf(notifications);
    for (const dialect of DIALECTS) {
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
    const c = await checksOf(pageWeight);
    expect(c.built).toBe(true);
    expect(c.messagesFiles).toBeGreaterThan(0);
    expect(c.messagesGzipBytes).toBeGreaterThan(0);
    expect(c.loginGzipBytes).toBeGreaterThan(0);
  });

  it('presence: every online partner hears each change once', async () => {
    const c = await checksOf(presence);
    expect(c.partnersOnline).toBe(50);
    expect(c.changes).toBe(4);
    expect(c.arrivals).toBe(200);
    expect(c.missing).toBe(0);
    expect(c.duplicates).toBe(0);
  });

  it('uploads: every upload stored (ours and the bare server), memory measured', async () => {
    const { checks: c, rows } = await completed(uploads);
    expect(c.uploads).toBe(9);
    expect(c.failed).toBe(0);
    expect(c.rawFailed).toBe(0);
    expect(c.leftInTmp).toBe(0);
    expect(rows.some((row) => row.metric.startsWith('server RSS increase'))).toBe(true);
  });

  it('capacity: every user on at each step, every live send delivered, no errors', async () => {
    const c = await checksOf(capacity);
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
      expect(c[`${key}.failedArrivals`]).toBe(0);
      expect(c[`${key}.live`]).toBe(users);
      expect(c[`${key}.pageLoads`]).toBeGreaterThan(0);
      expect(c[`${key}.opens`]).toBeGreaterThan(0);
      expect(c[`${key}.sendsAccepted`]).toBeGreaterThan(0);
      expect(c[`${key}.delivered`]).toBe(c[`${key}.expected`]);
      expect(c[`${key}.lost`]).toBe(0);
      expect(c[`${key}.errors`]).toBe(0);
      // nothing left out of the step's figures: every call answered by its collection
      expect(c[`${key}.callsInFlight`]).toBe(0);
      expect(c[`${key}.actionsInFlight`]).toBe(0);
      expect(c[`${key}.warmupFailures`]).toBe(0);
    }
    expect(c.sqlitePeerSteps).toBe(1);
  });
});
