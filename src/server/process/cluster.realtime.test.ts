/**
 * WEB_CONCURRENCY workers sharing the port (docs/operations.md): a user's sockets land on
 * different workers (the cluster hands connections out in turn) and everything live behaves as
 * with one process; `/metrics` sums the workers; a stop stops them all and exits 0; without Redis
 * the start refuses, saying why. A worker that dies is started again with a growing delay, and the
 * sockets it held reconnect to the workers left.
 */
import { spawn, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ACME, OMAR, SARA } from '../../../test-support/accounts.js';
import { freshServerDatabase, type ServerDatabase } from '../../../test-support/databases.js';
import { signInOverHttp, type HttpSession } from '../../../test-support/http-session.js';
import { conversationWith, rowWith, sendMessage } from '../../../test-support/messaging.js';
import { listenForChats, type ChatListener } from '../../../test-support/pusher-js.js';
import {
  freePort,
  startServer,
  uniqueAppId,
  type ServerProcess,
} from '../../../test-support/server-process.js';
import { serverEnvironment, settings } from '../../../test-support/settings.js';
import { sleep, until, within } from '../../../test-support/wait.js';
import { metricValue } from '../../../test-support/metrics-text.js';

const WORKERS = 2;

/**
 * A file's cluster: `start` runs WORKERS workers with the demo on a fresh database, `live` opens a
 * tab; after the tests the tabs close, the server is killed and the database dropped.
 */
const useCluster = () => {
  let database: ServerDatabase | undefined;
  let server: ServerProcess | undefined;
  const tabs: ChatListener[] = [];
  afterAll(async () => {
    tabs.forEach((tab) => tab.disconnect());
    await server?.kill();
    await database?.drop();
  });
  const start = async (
    dialect: 'sqlite' | 'postgres',
    label: string,
    env: Record<string, string> = {},
  ) => {
    database = await freshServerDatabase(dialect, label);
    server = await startServer({
      env: {
        WEB_CONCURRENCY: String(WORKERS),
        REDIS_URL: settings.redisUrl,
        PUSHER_APP_ID: uniqueAppId(label),
        DATABASE_URL: database.url,
        DEMO_SEED: 'on',
        ...env,
      },
      timeoutMs: 60_000,
    });
    return server;
  };
  const live = async (url: string, session: HttpSession) => {
    const tab = await listenForChats(url, session);
    tabs.push(tab);
    return tab;
  };
  return { start, live };
};

describe.each(['sqlite', 'postgres'] as const)('%s: two workers on one port', (dialect) => {
  const cluster = useCluster();

  it('delivers to every socket of a user whichever worker holds it, sums the metrics, and stops all workers', async () => {
    const metricsPort = await freePort();
    const server = await cluster.start(dialect, 'cluster', {
      METRICS_PORT: String(metricsPort),
      PRESENCE_GRACE_SECONDS: '0',
    });
    expect(server.output()).toContain(`(${WORKERS} workers)`);
    const url = server.url;
    const live = (session: HttpSession) => cluster.live(url, session);
    const [sara, acme, omar] = await Promise.all(
      [SARA, ACME, OMAR].map((account) => signInOverHttp(url, account.email)),
    );
    if (!sara || !acme || !omar) throw new Error('sign-in failed');
    // Connections are handed to the workers in turn: four tabs are two on each.
    const saraTabs = [await live(sara), await live(sara), await live(sara), await live(sara)];
    const [acmeSending, acmeOther] = [await live(acme), await live(acme)];
    const omarTab = await live(omar);

    // Sara is online for Acme, whichever worker Acme's request reaches.
    for (let ask = 0; ask < WORKERS; ask += 1)
      expect((await rowWith(acme, sara)).other_online).toBe(true);

    const outcome = await sendMessage(acme, await conversationWith(acme, sara.userId), 'hello', {
      socketId: acmeSending.socketId(),
    });
    if (!outcome.ok) throw new Error(`send answered ${outcome.status}: ${outcome.body}`);
    for (const tab of saraTabs)
      expect((await tab.waitFor(1)).map((chat) => chat.id)).toEqual([outcome.chat.id]);
    expect((await acmeOther.waitFor(1)).map((chat) => chat.id)).toEqual([outcome.chat.id]);
    await sleep(300); // a second copy, or one to the sending tab, would be here by now
    for (const tab of saraTabs) expect(tab.received).toHaveLength(1);
    expect(acmeOther.received).toHaveLength(1);
    expect(acmeSending.received).toEqual([]);
    expect(omarTab.received).toEqual([]);

    // Every tab of Sara's gone, on both workers: she is offline for Acme.
    saraTabs.forEach((tab) => tab.disconnect());
    await until(async () => !(await rowWith(acme, sara)).other_online, 'Sara offline', 10_000);

    // One figure for the instance: the sum over its workers.
    const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    await until(
      async () =>
        metricValue(await (await fetch(metricsUrl)).text(), 'messenger_live_connections') === 3,
      'three live connections summed over the workers',
      10_000,
    );
    const text = await (await fetch(metricsUrl)).text();
    expect(metricValue(text, 'messenger_messages_sent_total')).toBe(1);

    // A stop sent to the primary alone stops every worker; all stopped cleanly: 0.
    expect(await within(server.stop(), 'the stop', 30_000)).toBe(0);
  });
});

/** The primary's workers: its child processes (the cluster's only ones). */
const workerPids = (primaryPid: number): number[] =>
  spawnSync('pgrep', ['-P', String(primaryPid)], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter(Boolean)
    .map(Number)
    .sort((a, b) => a - b);

/** The delays the primary logged for starting a dead worker again (pino's JSON lines). */
const restartDelays = (output: string): number[] =>
  output
    .split('\n')
    .filter((line) => line.includes('worker died: starting another'))
    .map((line) => (JSON.parse(line) as { restartInMs: number }).restartInMs);

describe('a worker that dies', () => {
  const cluster = useCluster();

  it('is started again (0.5 s, then 1 s while they keep dying); the sockets it held reconnect to the other worker and get what is sent', async () => {
    const server = await cluster.start('sqlite', 'cluster-restart');
    const primaryPid = server.child.pid;
    if (primaryPid === undefined) throw new Error('no primary pid');
    const first = workerPids(primaryPid);
    expect(first).toHaveLength(WORKERS);

    const [sara, acme] = await Promise.all(
      [SARA, ACME].map((account) => signInOverHttp(server.url, account.email)),
    );
    if (!sara || !acme) throw new Error('sign-in failed');
    const saraTabs: ChatListener[] = [];
    for (let open = 0; open < 4; open += 1) saraTabs.push(await cluster.live(server.url, sara));
    const dropped = new Set<ChatListener>();
    for (const tab of saraTabs)
      tab.pusher.connection.bind('state_change', ({ previous }: { previous: string }) => {
        if (previous === 'connected') dropped.add(tab);
      });

    // A crash of one worker: the tabs it held lose their socket, the others' stay.
    const [victim] = first;
    process.kill(victim!, 'SIGKILL');
    await until(() => dropped.size > 0, 'a tab of the dead worker notices', 10_000);
    await sleep(500); // every socket of the dead worker is closed by now
    // some but not all: the sockets had landed on both workers
    expect(dropped.size).toBeGreaterThan(0);
    expect(dropped.size).toBeLessThan(saraTabs.length);

    // Started again after 0.5 s: two workers again, one of them new.
    await until(
      () => workerPids(primaryPid).filter((pid) => !first.includes(pid)).length === 1,
      'a new worker in place of the dead one',
      10_000,
    );
    expect(restartDelays(server.output())).toEqual([500]);
    const second = workerPids(primaryPid);
    expect(second).toHaveLength(WORKERS);
    expect(second).not.toContain(victim);

    // The dropped tabs are back (on a worker that lives), and a message reaches all four.
    await until(
      () => saraTabs.every((tab) => tab.pusher.connection.state === 'connected'),
      'every tab connected again',
      20_000,
    );
    await sleep(500); // pusher-js subscribes again right after it connects
    const outcome = await sendMessage(
      acme,
      await conversationWith(acme, sara.userId),
      'still here',
    );
    if (!outcome.ok) throw new Error(`send answered ${outcome.status}: ${outcome.body}`);
    for (const tab of saraTabs)
      expect((await tab.waitFor(1)).map((chat) => chat.id)).toEqual([outcome.chat.id]);

    // The new worker dies too, well before 60 s: the next start waits twice as long.
    const [replacement] = second.filter((pid) => !first.includes(pid));
    process.kill(replacement!, 'SIGKILL');
    await until(
      () => workerPids(primaryPid).filter((pid) => !second.includes(pid)).length === 1,
      'a new worker in place of the second dead one',
      10_000,
    );
    expect(restartDelays(server.output())).toEqual([500, 1_000]);
    expect(await within(server.stop(), 'the stop', 30_000)).toBe(0);
  });
});

describe('WEB_CONCURRENCY above 1 without Redis', () => {
  it('refuses to start, saying that it needs REDIS_URL', async () => {
    const child = spawn(process.execPath, [resolve('dist/server/main.js')], {
      env: serverEnvironment({ WEB_CONCURRENCY: '2', REDIS_URL: '', PORT: '0' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await within(
      new Promise<number | null>((done) => child.once('exit', done)),
      'the refusal',
      10_000,
    );
    expect(code).toBe(1);
    expect(output).toContain('WEB_CONCURRENCY=2 (2 workers) needs REDIS_URL');
    expect(output).not.toContain('running at');
  });
});
