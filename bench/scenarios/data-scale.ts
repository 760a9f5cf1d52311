import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import type { DialectName } from '../../src/server/db/database.js';
import { paths } from '../../src/shared/paths.js';
import { launchChromium } from '../../test-support/browser.js';
import {
  clientBuilt,
  loadListPage,
  measureMessageFlow,
  type MessageFlowResult,
  type PageLoad,
  type ScrollResult,
} from '../lib/browser.js';
import { SCALE_RARE_WORDS, seedScale, type ScaleSeed } from '../../test-support/seed-bulk.js';
import { messageSearchPaths } from '../../src/shared/message-search-paths.js';
import { countScale, insertSession } from '../lib/database.js';
import { lowerMedian, summarizeEncoded, type LatencySummary } from '../lib/histogram.js';
import { callQuery, type BenchServer } from '../lib/server.js';
import type { WorkerHandle } from '../lib/spawn.js';
import type {
  TimedRequest,
  TimedRunRequest,
  TimedRunResult,
} from '../lib/timed-requests-worker.js';
import {
  atMost,
  exactly,
  info,
  newReport,
  perDialect,
  sizedScenario,
  skipped,
  type Checks,
  type ResultRow,
} from '../lib/types.js';

const SIZES = {
  tiny: {
    conversations: 120,
    messages: 10,
    jobs: 5,
    initialRuns: 3,
    wholeRuns: 2,
    openRuns: 10,
    warmup: 1,
    pageLoads: 1,
    scrollMs: 300,
    flowMessages: 3,
    dialects: ['sqlite', 'postgres'] as DialectName[],
  },
  full: {
    conversations: 10_000,
    messages: 100,
    jobs: 20,
    initialRuns: 300,
    wholeRuns: 20,
    openRuns: 300,
    warmup: 5,
    pageLoads: 3,
    scrollMs: 3_000,
    flowMessages: 30,
    dialects: ['sqlite', 'postgres'] as DialectName[],
  },
};

/** How many conversations the page asks for at a time (its `limit`). */
const PAGE = 50;

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

interface Timed {
  summary: LatencySummary;
  bytes: number;
}

/**
 * The message search's kinds of query on the seeded words (test-support/seed-bulk.ts): a rare word
 * (a handful of messages, or one in 1,000), a common one (3 in 10), an Arabic one written with its
 * short vowels (2 in 10), a prefix (2 in 10), and the common word's second page.
 */
const MESSAGE_SEARCHES = {
  rare: (i: number) =>
    `q=${encodeURIComponent(i % 2 === 0 ? SCALE_RARE_WORDS.rare : SCALE_RARE_WORDS.uncommon)}`,
  common: () => 'q=interview',
  arabic: () => `q=${encodeURIComponent('المُقابَلة')}`,
  prefix: () => 'q=engin',
  'second page': () => 'q=interview',
} as const;
type MessageSearchKind = keyof typeof MESSAGE_SEARCHES;

interface HttpFigures {
  firstPage: Timed;
  laterPage: Timed;
  pages: number;
  search: Timed;
  filtered: Timed;
  whole: Timed;
  open: Timed;
  messageSearch: Record<MessageSearchKind, Timed & { results: number }>;
  non200: number;
  runs: Record<string, number>;
  errors: string[];
}

/** Walks the list page by page as the page would, and returns every cursor it was given. */
const collectCursors = async (url: string, headers: Record<string, string>): Promise<string[]> => {
  const cursors: string[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
    const response = await fetch(`${url}${paths.initialData}?${callQuery}&limit=${PAGE}${query}`, {
      headers,
    });
    if (response.status !== 200)
      throw new Error(`initial data page: ${response.status} ${await response.text()}`);
    const body = (await response.json()) as { next_cursor?: string | null };
    cursor = body.next_cursor ?? null;
    if (cursor !== null) cursors.push(cursor);
  } while (cursor !== null);
  return cursors;
};

/** Search texts as people type them: a name (a handful of rows), a common prefix (many), a job, nothing. */
const searchText = (i: number, conversations: number, jobs: number): string => {
  switch (i % 4) {
    case 0:
      return `Candidate ${(i * 7_919) % conversations}`;
    case 1:
      return `candidate ${(i % 9) + 1}`;
    case 2:
      return `job ${(i % jobs) + 1}`;
    default:
      return `nobody ${i}`;
  }
};

const timedRuns = async (
  timer: WorkerHandle,
  server: BenchServer,
  seed: ScaleSeed,
  config: (typeof SIZES)['full'],
): Promise<HttpFigures> => {
  const headers = { authorization: `Bearer ${seed.companyToken}`, accept: 'application/json' };
  const list = `${paths.initialData}?${callQuery}`;
  const times = config.initialRuns + config.warmup;
  const run = async (requests: TimedRequest[]) => {
    const result = await timer.call<TimedRunResult>(
      'run',
      { url: server.url, headers, requests, warmup: config.warmup } satisfies TimedRunRequest,
      300_000,
    );
    return result;
  };
  const get = (path: string): TimedRequest => ({ method: 'GET', path });

  const firstPage = await run(Array.from({ length: times }, () => get(`${list}&limit=${PAGE}`)));
  const cursors = await collectCursors(server.url, headers);
  const cursorOrder = shuffled(Math.max(cursors.length, 1));
  const laterPage = await run(
    Array.from({ length: times }, (_, i) => {
      const cursor = cursors[cursorOrder[i % cursorOrder.length]!] ?? '';
      return get(`${list}&limit=${PAGE}&cursor=${encodeURIComponent(cursor)}`);
    }),
  );
  const search = await run(
    Array.from({ length: times }, (_, i) =>
      get(
        `${list}&limit=${PAGE}&search=${encodeURIComponent(searchText(i, seed.conversations, seed.jobIds.length))}`,
      ),
    ),
  );
  const filtered = await run(
    Array.from({ length: times }, (_, i) =>
      get(`${list}&limit=${PAGE}&job_id=${seed.jobIds[i % seed.jobIds.length]}`),
    ),
  );
  const whole = await run(
    Array.from({ length: config.wholeRuns + config.warmup }, () => get(list)),
  );
  const order = shuffled(seed.conversations);
  const open = await run(
    Array.from({ length: config.openRuns + config.warmup }, (_, i): TimedRequest => {
      const index = order[i % order.length]!;
      return {
        method: 'POST',
        path: `${paths.getMessage}?${callQuery}`,
        body: { receiver_id: seed.candidateIds[index], job_id: seed.jobOfConversation[index] },
      };
    }),
  );
  const messageSearchUrl = `${messageSearchPaths.searchMessages}?${callQuery}`;
  const firstSearchPage = (await (
    await fetch(`${server.url}${messageSearchUrl}&${MESSAGE_SEARCHES.common()}`, { headers })
  ).json()) as { next_cursor: string | null };
  const searchKinds = Object.keys(MESSAGE_SEARCHES) as MessageSearchKind[];
  const messageSearchRuns: Record<string, TimedRunResult> = {};
  const searchResults: Record<string, number> = {};
  for (const kind of searchKinds) {
    const query = (i: number) =>
      `${messageSearchUrl}&${MESSAGE_SEARCHES[kind](i)}${
        kind === 'second page'
          ? `&cursor=${encodeURIComponent(firstSearchPage.next_cursor ?? '')}`
          : ''
      }`;
    const answer = (await (await fetch(`${server.url}${query(0)}`, { headers })).json()) as {
      results?: unknown[];
    };
    searchResults[kind] = answer.results?.length ?? 0;
    messageSearchRuns[kind] = await run(Array.from({ length: times }, (_, i) => get(query(i))));
  }
  const all = {
    firstPage,
    laterPage,
    search,
    filtered,
    whole,
    open,
    ...Object.fromEntries(
      Object.entries(messageSearchRuns).map(([kind, result]) => [`messageSearch.${kind}`, result]),
    ),
  };
  const non200 = Object.values(all).reduce(
    (sum, result) =>
      sum +
      Object.entries(result.statuses)
        .filter(([code]) => code !== '200')
        .reduce((s, [, n]) => s + n, 0),
    0,
  );
  const timed = (result: TimedRunResult): Timed => ({
    summary: summarizeEncoded(result.histogram),
    bytes: result.bytes.mean,
  });
  return {
    firstPage: timed(firstPage),
    laterPage: timed(laterPage),
    pages: cursors.length + 1,
    search: timed(search),
    filtered: timed(filtered),
    whole: timed(whole),
    open: timed(open),
    messageSearch: Object.fromEntries(
      searchKinds.map((kind) => [
        kind,
        { ...timed(messageSearchRuns[kind]!), results: searchResults[kind] ?? 0 },
      ]),
    ) as HttpFigures['messageSearch'],
    non200,
    runs: Object.fromEntries(
      Object.entries(all).map(([name, result]) => [name, summarizeEncoded(result.histogram).count]),
    ),
    errors: Object.values(all).flatMap((result) => result.errors),
  };
};

interface BrowserFigures {
  loads: PageLoad[];
  scroll: ScrollResult | undefined;
  flow: MessageFlowResult;
}

/** Posts a message as the candidate of the newest conversation to the company, as an API client would. */
const candidateSender =
  (server: BenchServer, seed: ScaleSeed, dialect: DialectName) =>
  async (index: number): Promise<string> => {
    const newest = seed.conversations - 1;
    const text = `Flow ${dialect} ${index}: are there any updates on my application?`;
    const response = await fetch(`${server.url}${paths.sendMessage}?${callQuery}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${seed.candidateTokens[0]}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: JSON.stringify({
        receiver_id: seed.companyId,
        messenger_user: newest + 1,
        job_id: seed.jobOfConversation[newest],
        message: text,
        client_id: randomUUID(),
      }),
    });
    if (response.status !== 201 && response.status !== 200)
      throw new Error(`send: ${response.status} ${await response.text()}`);
    return text;
  };

const browserRuns = async (
  server: BenchServer,
  seed: ScaleSeed,
  dialect: DialectName,
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
    const flow = await measureMessageFlow(browser, server.url, cookie, {
      messages: config.flowMessages,
      timeoutMs: 20_000,
      listPath: paths.initialData,
      send: candidateSender(server, seed, dialect),
    });
    log(
      `  message flow: ${flow.shown} shown, ${flow.bytes} bytes (${flow.httpRequests} requests, ${flow.liveBytes} live bytes), ${flow.listRequests} list calls${flow.error ? `, error: ${flow.error}` : ''}`,
    );
    return { loads, scroll, flow };
  } finally {
    await browser?.close();
  }
};

const browserRows = (
  dialect: DialectName,
  browser: BrowserFigures,
  conversations: number,
  checks: Checks,
): ResultRow[] => {
  const rows: ResultRow[] = [];
  const times = browser.loads
    .map((load) => load.firstRowMs)
    .filter((ms): ms is number => ms !== null);
  const failedLoads = browser.loads.filter((load) => load.firstRowMs === null);
  rows.push(
    atMost(
      `${dialect}: Chromium /messages → first conversation row (median)`,
      times.length === browser.loads.length ? Math.round(lowerMedian(times)) : null,
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
      scroll.longAnimationFrames === null
        ? skipped(
            `${dialect}: Chromium frames > 50 ms while scrolling`,
            'this Chromium does not report long animation frames',
            '= 0',
          )
        : exactly(
            `${dialect}: Chromium frames > 50 ms while scrolling`,
            scroll.longAnimationFrames,
            0,
            '',
            `long animation frames (main-thread work between paints); longest ${Math.round(scroll.longestAnimationFrame)} ms; ${Math.round(scroll.scrolledPx).toLocaleString('en-US')} px, pages loading on the way`,
          ),
      info(
        `${dialect}: Chromium requestAnimationFrame intervals > 50 ms while scrolling`,
        scroll.longFrames,
        '',
        `${scroll.frames} frames, p50 ${scroll.p50.toFixed(1)} ms, p95 ${scroll.p95.toFixed(1)} ms, max ${scroll.max.toFixed(1)} ms (headless software compositing skips vsyncs: 33.3 and 50.0 ms are 2 and 3 vsyncs)`,
      ),
      atMost(
        `${dialect}: Chromium rows in the DOM while scrolling`,
        scroll.maxRowsInDom,
        200,
        '',
        `of ${conversations.toLocaleString('en-US')} (virtualized)`,
      ),
    );
  }
  const flow = browser.flow;
  const perMessage = flow.shown > 0 && !flow.error ? Math.round(flow.bytes / flow.shown) : null;
  rows.push(
    atMost(
      `${dialect}: Chromium bytes per message flowing into the open conversation`,
      perMessage,
      5_000,
      'B',
      flow.error
        ? `failed: ${flow.error}`
        : `${flow.shown} messages: ${flow.httpRequests} HTTP requests (${flow.httpBytes.toLocaleString('en-US')} B), live ${flow.liveBytes.toLocaleString('en-US')} B`,
    ),
    exactly(`${dialect}: Chromium list calls while messages flow`, flow.listRequests, 0),
  );
  Object.assign(checks, {
    [`${dialect}BrowserLoads`]: browser.loads.length,
    [`${dialect}BrowserRowsShown`]: Math.min(...browser.loads.map((load) => load.rowsInDom)),
    [`${dialect}ScrollFrames`]: scroll?.frames ?? 0,
    [`${dialect}MaxRowsInDom`]: scroll?.maxRowsInDom ?? 0,
    [`${dialect}FlowShown`]: flow.shown,
    [`${dialect}FlowError`]: flow.error ?? null,
    [`${dialect}FlowListRequests`]: flow.listRequests,
  });
  return rows;
};

/**
 * One company with 10,000 conversations and 1,000,000 messages, on SQLite and PostgreSQL: the list's
 * first page, later pages (cursors), searches, job filters and the whole list (no `limit`: every conversation in one answer, as a client that does not page gets it), and
 * opening conversations, timed one request at a time; then the /messages page in Chromium (first
 * row, a scripted scroll with frame times, bytes moved per message flowing into the open
 * conversation).
 */
export const dataScale = sizedScenario(SIZES, {
  name: 'data-scale',
  title: 'A company with 10,000 conversations and 1,000,000 messages',
  run: async ({ config, log, scope }) => {
    const notes = [
      `Requests are sent one at a time by a separate process (Bearer token of the company), ${config.warmup} warm-up requests first. Message search (GET /user/messages/search, 20 a page): a rare word (alternately one in about 100,000 messages and one in 1,000), a common word (3 in 10 messages), an Arabic word typed with its short vowels (2 in 10), a prefix ("engin", 2 in 10) and the common word's second page. "Later page" asks for pages at cursors collected by walking the whole list, in shuffled order; searches mix a name (a handful of rows), a common prefix (thousands), a job title and text matching nothing; "open" posts /user/get/message for different conversations in a fixed shuffled order (each marks that conversation's unread messages seen).`,
      `Bytes per message: the page holds the newest conversation open while its candidate posts ${config.flowMessages} messages one after the other (each waited for on screen); Chrome's DevTools protocol counts every HTTP request and answer (headers included) and every live frame in both directions, divided by the messages.`,
    ];
    const timer = await scope.worker('timed-requests-worker.ts', 900_000);
    return perDialect(scope, config.dialects, notes, async (dialect, dialectScope) => {
      const report = newReport();
      const bench = await dialectScope.database(dialect, `scale${dialect}`);
      log(
        `${dialect}: seeding ${config.conversations} conversations × ${config.messages} messages`,
      );
      const seed = await seedScale(bench, {
        conversations: config.conversations,
        messagesPerConversation: config.messages,
        jobs: config.jobs,
        candidateTokens: 1,
      });
      const counted = await countScale(bench);
      const session = await insertSession(bench, seed.companyId);
      await bench.close();
      log(`  seeded in ${seed.seedSeconds.toFixed(1)} s`);
      const server = await dialectScope.server(bench);
      const http = await timedRuns(timer, server, seed, config);
      const total = counted.conversations.toLocaleString('en-US');
      const kib = (bytes: number) => `${Math.round(bytes / 1024).toLocaleString('en-US')} KiB`;
      log(
        `  message search p95: ${Object.entries(http.messageSearch)
          .map(([kind, figures]) => `${kind} ${figures.summary.p95} ms (${figures.results})`)
          .join(', ')}`,
      );
      log(
        `  first page p95 ${http.firstPage.summary.p95} ms, later page p95 ${http.laterPage.summary.p95} ms, search p95 ${http.search.summary.p95} ms, job filter p95 ${http.filtered.summary.p95} ms, whole list p95 ${http.whole.summary.p95} ms (${kib(http.whole.bytes)}), open p95 ${http.open.summary.p95} ms`,
      );
      report.rows.push(
        info(
          `${dialect}: seeded conversations / messages`,
          counted.messages,
          'messages',
          `${total} conversations, seeded in ${seed.seedSeconds.toFixed(1)} s`,
        ),
        atMost(
          `${dialect}: list first page p95 (limit=${PAGE} of ${total})`,
          http.firstPage.summary.p95,
          10,
          'ms',
          `p50 ${http.firstPage.summary.p50} ms, ${kib(http.firstPage.bytes)}`,
        ),
        atMost(
          `${dialect}: list later page p95 (cursor)`,
          http.laterPage.summary.p95,
          10,
          'ms',
          `p50 ${http.laterPage.summary.p50} ms, pages all over the ${http.pages} of the list`,
        ),
        atMost(
          `${dialect}: list search p95 (limit=${PAGE})`,
          http.search.summary.p95,
          30,
          'ms',
          `p50 ${http.search.summary.p50} ms`,
        ),
        atMost(
          `${dialect}: list job filter p95 (limit=${PAGE})`,
          http.filtered.summary.p95,
          10,
          'ms',
          `p50 ${http.filtered.summary.p50} ms, ~${Math.round(seed.conversations / seed.jobIds.length)} conversations per job`,
        ),
        info(
          `${dialect}: whole list p95 (no limit, Part 1)`,
          http.whole.summary.p95,
          'ms',
          `p50 ${http.whole.summary.p50} ms, ${kib(http.whole.bytes)}; the page never asks for it`,
        ),
        atMost(
          `${dialect}: open a conversation p95`,
          http.open.summary.p95,
          10,
          'ms',
          `p50 ${http.open.summary.p50} ms, 50 newest of ${config.messages} messages`,
        ),
        ...Object.entries(http.messageSearch).map(([kind, figures]) =>
          atMost(
            `${dialect}: message search p95, ${kind}`,
            figures.summary.p95,
            30,
            'ms',
            `p50 ${figures.summary.p50} ms, ${figures.results} results a page, over ${counted.messages.toLocaleString('en-US')} messages`,
          ),
        ),
        exactly(`${dialect}: non-200 answers`, http.non200, 0),
      );
      Object.assign(report.checks, {
        [`${dialect}Conversations`]: counted.conversations,
        [`${dialect}Messages`]: counted.messages,
        [`${dialect}Pages`]: http.pages,
        [`${dialect}Non200`]: http.non200,
        ...Object.fromEntries(
          Object.entries(http.runs).map(([name, count]) => [`${dialect}Runs.${name}`, count]),
        ),
      });
      if (http.errors.length > 0)
        report.notes.push(`${dialect} errors: ${http.errors.slice(0, 3).join('; ')}`);

      if (!clientBuilt()) {
        report.rows.push(
          skipped(
            `${dialect}: Chromium`,
            'dist/web/index.html missing: run `npm run build`',
            '≤ 1000 ms',
          ),
        );
        report.checks.browser = 'skipped';
      } else {
        const browser = await browserRuns(server, seed, dialect, session.cookie, config, log);
        report.rows.push(...browserRows(dialect, browser, counted.conversations, report.checks));
        report.checks.browser = 'ran';
      }
      return report;
    });
  },
});
