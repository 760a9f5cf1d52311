import type { Browser } from 'playwright-core';
import type { DialectName } from '../../src/server/db/database.js';
import { paths } from '../../src/shared/paths.js';
import { launchChromium } from '../../test-support/browser.js';
import { clientBuilt, loadListPage, type PageLoad, type ScrollResult } from '../lib/browser.js';
import { countScale, createBenchDatabase, insertSession } from '../lib/database.js';
import { summarizeEncoded, type LatencySummary } from '../lib/histogram.js';
import { seedScale, type ScaleSeed } from '../../test-support/seed-scale.js';
import { callQuery, startBenchServer, type BenchServer } from '../lib/server.js';
import { spawnWorker, type WorkerHandle } from '../lib/spawn.js';
import type {
  TimedRequest,
  TimedRunRequest,
  TimedRunResult,
} from '../lib/timed-requests-worker.js';
import {
  atMost,
  bySize,
  exactly,
  info,
  skipped,
  type Checks,
  type ResultRow,
  type Scenario,
} from '../lib/types.js';

const SIZES = {
  tiny: {
    conversations: 50,
    messages: 10,
    jobs: 5,
    initialRuns: 3,
    openRuns: 10,
    warmup: 1,
    pageLoads: 1,
    scrollMs: 300,
    dialects: ['sqlite', 'postgres'] as DialectName[],
  },
  full: {
    conversations: 10_000,
    messages: 100,
    jobs: 20,
    initialRuns: 60,
    openRuns: 300,
    warmup: 5,
    pageLoads: 3,
    scrollMs: 3_000,
    dialects: ['sqlite', 'postgres'] as DialectName[],
  },
};

/** Deterministic shuffle, so every run opens the same conversations in the same order. */
const shuffled = (count: number): number[] => {
  const order = Array.from({ length: count }, (_, i) => i);
  let seed = 42;
  for (let i = count - 1; i > 0; i -= 1) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = seed % (i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
};

interface HttpFigures {
  initial: LatencySummary;
  initialBytes: number;
  filtered: LatencySummary;
  filteredRows: number;
  open: LatencySummary;
  non200: number;
  errors: string[];
}

const timedRuns = async (
  timer: WorkerHandle,
  server: BenchServer,
  seed: ScaleSeed,
  config: (typeof SIZES)['full'],
): Promise<HttpFigures> => {
  const headers = { authorization: `Bearer ${seed.companyToken}`, accept: 'application/json' };
  const initialPath = `${paths.initialData}?${callQuery}&job_id=`;
  const run = (requests: TimedRequest[]) =>
    timer.call<TimedRunResult>(
      'run',
      { url: server.url, headers, requests, warmup: config.warmup } satisfies TimedRunRequest,
      300_000,
    );
  const initialRuns = Array.from(
    { length: config.initialRuns + config.warmup },
    (): TimedRequest => ({ method: 'GET', path: initialPath }),
  );
  const initial = await run(initialRuns);
  const filteredRuns = Array.from(
    { length: config.initialRuns + config.warmup },
    (_, i): TimedRequest => ({
      method: 'GET',
      path: `${initialPath}${seed.jobIds[i % seed.jobIds.length]}`,
    }),
  );
  const filtered = await run(filteredRuns);
  const order = shuffled(seed.conversations);
  const openRuns = Array.from({ length: config.openRuns + config.warmup }, (_, i): TimedRequest => {
    const index = order[i % order.length]!;
    return {
      method: 'POST',
      path: `${paths.getMessage}?${callQuery}`,
      body: { receiver_id: seed.candidateIds[index], job_id: seed.jobOfConversation[index] },
    };
  });
  const open = await run(openRuns);
  const non200 = [initial, filtered, open].reduce(
    (sum, result) =>
      sum +
      Object.entries(result.statuses)
        .filter(([code]) => code !== '200')
        .reduce((s, [, n]) => s + n, 0),
    0,
  );
  return {
    initial: summarizeEncoded(initial.histogram),
    initialBytes: initial.bytes.mean,
    filtered: summarizeEncoded(filtered.histogram),
    filteredRows: Math.round(seed.conversations / seed.jobIds.length),
    open: summarizeEncoded(open.histogram),
    non200,
    errors: [...initial.errors, ...filtered.errors, ...open.errors],
  };
};

interface BrowserFigures {
  loads: PageLoad[];
  scroll: ScrollResult | undefined;
}

const browserRuns = async (
  server: BenchServer,
  cookie: string,
  config: (typeof SIZES)['full'],
  log: (message: string) => void,
): Promise<BrowserFigures> => {
  let browser: Browser | undefined;
  try {
    browser = await launchChromium();
    const loads: PageLoad[] = [];
    let scroll: ScrollResult | undefined;
    for (let i = 0; i < config.pageLoads; i += 1) {
      const last = i === config.pageLoads - 1;
      const result = await loadListPage(browser, server.url, cookie, {
        timeoutMs: 20_000,
        ...(last ? { scrollMs: config.scrollMs } : {}),
      });
      loads.push(result.load);
      if (result.scroll) scroll = result.scroll;
      log(
        `  page load ${i + 1}: first row ${result.load.firstRowMs === null ? `none (${result.load.error})` : `${Math.round(result.load.firstRowMs)} ms`}, ${result.load.rowsInDom} rows in the DOM`,
      );
    }
    return { loads, scroll };
  } finally {
    await browser?.close();
  }
};

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;
};

/**
 * One company with 10,000 conversations and 1,000,000 messages: initial data (all, and filtered by
 * job) and opening conversations, timed one request at a time; on SQLite also the /messages page in
 * Chromium (first row, then a scripted scroll with frame times).
 */
export const dataScale: Scenario = {
  name: 'data-scale',
  title: 'A company with 10,000 conversations and 1,000,000 messages',
  run: async ({ size, log, profileDir }) => {
    const config = bySize(size, SIZES);
    const rows: ResultRow[] = [];
    const checks: Checks = {};
    const notes: string[] = [
      `Requests are sent one at a time by a separate process (Bearer token of the company), ${config.warmup} warm-up requests first; "open" posts /user/get/message for different conversations in a fixed shuffled order (each marks that conversation's unread messages seen).`,
    ];
    const timer = await spawnWorker('timed-requests-worker.ts', { deadlineMs: 600_000 });
    try {
      for (const dialect of config.dialects) {
        const bench = await createBenchDatabase(dialect, `scale${dialect}`);
        try {
          log(
            `${dialect}: seeding ${config.conversations} conversations × ${config.messages} messages`,
          );
          const seed = await seedScale(bench, {
            conversations: config.conversations,
            messagesPerConversation: config.messages,
            jobs: config.jobs,
          });
          const counted = await countScale(bench);
          const withBrowser = dialect === 'sqlite';
          const session = withBrowser ? await insertSession(bench, seed.companyId) : undefined;
          await bench.close();
          log(`  seeded in ${seed.seedSeconds.toFixed(1)} s`);
          const server = await startBenchServer({ databaseUrl: bench.url, profileDir });
          try {
            const http = await timedRuns(timer, server, seed, config);
            log(
              `  initial data p95 ${http.initial.p95} ms (${Math.round(http.initialBytes / 1024)} KiB), filtered p95 ${http.filtered.p95} ms, open p95 ${http.open.p95} ms`,
            );
            rows.push(
              info(
                `${dialect}: seeded conversations / messages`,
                counted.messages,
                'messages',
                `${counted.conversations.toLocaleString('en-US')} conversations, seeded in ${seed.seedSeconds.toFixed(1)} s`,
              ),
              atMost(
                `${dialect}: initial data p95 (all ${counted.conversations.toLocaleString('en-US')})`,
                http.initial.p95,
                50,
                'ms',
                `p50 ${http.initial.p50} ms, ${Math.round(http.initialBytes / 1024).toLocaleString('en-US')} KiB`,
              ),
              atMost(
                `${dialect}: initial data p95 (job filter)`,
                http.filtered.p95,
                50,
                'ms',
                `p50 ${http.filtered.p50} ms, ~${http.filteredRows} conversations`,
              ),
              atMost(
                `${dialect}: open a conversation p95`,
                http.open.p95,
                10,
                'ms',
                `p50 ${http.open.p50} ms, 50 newest of 100 messages`,
              ),
              exactly(`${dialect}: non-200 answers`, http.non200, 0),
            );
            Object.assign(checks, {
              [`${dialect}Conversations`]: counted.conversations,
              [`${dialect}Messages`]: counted.messages,
              [`${dialect}InitialRuns`]: http.initial.count,
              [`${dialect}FilteredRuns`]: http.filtered.count,
              [`${dialect}OpenRuns`]: http.open.count,
              [`${dialect}Non200`]: http.non200,
            });
            if (http.errors.length > 0)
              notes.push(`${dialect} errors: ${http.errors.slice(0, 3).join('; ')}`);

            if (withBrowser && session) {
              if (!clientBuilt()) {
                rows.push(
                  skipped(
                    'Chromium: first conversation row',
                    'dist/web/index.html missing: run `npm run build`',
                    '≤ 1000 ms',
                  ),
                );
                checks.browser = 'skipped';
              } else {
                const browser = await browserRuns(server, session.cookie, config, log);
                const times = browser.loads
                  .map((load) => load.firstRowMs)
                  .filter((ms): ms is number => ms !== null);
                const failedLoads = browser.loads.filter((load) => load.firstRowMs === null);
                rows.push(
                  atMost(
                    'Chromium: /messages → first conversation row (median)',
                    times.length === browser.loads.length ? Math.round(median(times)) : null,
                    1000,
                    'ms',
                    failedLoads.length > 0
                      ? `no row: ${failedLoads[0]?.error ?? ''}`
                      : `${times.length} cold loads, max ${Math.round(Math.max(...times))} ms`,
                  ),
                );
                const scroll = browser.scroll;
                if (scroll) {
                  rows.push(
                    exactly(
                      'Chromium: frames > 50 ms while scrolling',
                      scroll.longFrames,
                      0,
                      '',
                      `${scroll.frames} frames, p95 ${scroll.p95.toFixed(1)} ms, max ${scroll.max.toFixed(1)} ms, ${Math.round(scroll.scrolledPx).toLocaleString('en-US')} px`,
                    ),
                    atMost(
                      'Chromium: rows in the DOM while scrolling',
                      scroll.maxRowsInDom,
                      200,
                      '',
                      `of ${counted.conversations.toLocaleString('en-US')} (virtualized)`,
                    ),
                  );
                }
                Object.assign(checks, {
                  browser: 'ran',
                  browserLoads: browser.loads.length,
                  browserRowsShown: Math.min(...browser.loads.map((load) => load.rowsInDom)),
                  scrollFrames: scroll?.frames ?? 0,
                  maxRowsInDom: scroll?.maxRowsInDom ?? 0,
                });
              }
            }
          } finally {
            await server.stop();
          }
        } finally {
          await bench.drop();
        }
      }
    } finally {
      await timer.stop();
    }
    return { rows, checks, notes };
  },
};
