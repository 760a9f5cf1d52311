import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { COMPANY, startHostSite, type HostSite } from '../../examples/host-site/board.js';
import { SESSION_COOKIE } from '../../src/server/plugins/auth.js';
import { launchChromium, THIRD_PARTY_COOKIES_BLOCKED } from '../../test-support/browser.js';
import { freePort } from '../../test-support/server-process.js';
import { clientBuilt, loadListPage, VISIBLE_ROW_CHECK, WEB_ROOT } from '../lib/browser.js';
import { createHistogram, recordMs, round, summarize } from '../lib/histogram.js';
import {
  atMost,
  errorLine,
  info,
  sizedScenario,
  skipped,
  type Checks,
  type ResultRow,
} from '../lib/types.js';

/** "5 kB gzip" of the contract: 5,120 bytes at gzip level 9. */
const EMBED_GZIP_LIMIT = 5_120;
const FIRST_ROW_TARGET_MS = 1_000;
const TIMEOUT_MS = 20_000;

const SIZES: Record<'tiny' | 'full', { runs: number }> = { tiny: { runs: 2 }, full: { runs: 10 } };

/**
 * Installed in every frame before its own scripts: in the messenger's frame, notes (as epoch
 * milliseconds, comparable across frames) the animation frame that paints the first visible
 * conversation row.
 */
const frameFirstRowProbe = (messengerOrigin: string) => `(() => {
  if (location.origin !== ${JSON.stringify(messengerOrigin)}) return;
  window.__benchFirstRowAt = null;
  ${VISIBLE_ROW_CHECK}
  const observer = new MutationObserver(() => {
    if (!visible()) return;
    observer.disconnect();
    requestAnimationFrame(() => { window.__benchFirstRowAt = performance.timeOrigin + performance.now(); });
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true });
})();`;

/** The first-row time any of the page's messenger frames noted, or null (not yet). */
const frameFirstRowAt = async (page: Page, messengerOrigin: string): Promise<number | null> => {
  for (const frame of page.frames()) {
    if (!frame.url().startsWith(messengerOrigin)) continue;
    const at = await frame
      .evaluate(
        () => (window as unknown as { __benchFirstRowAt?: number | null }).__benchFirstRowAt,
      )
      .catch(() => null);
    if (typeof at === 'number') return at;
  }
  return null;
};

interface EmbedLoad {
  /** `mount(…)` of the inbox on the host page → the frame paints its first row, ms. */
  mountToRowMs: number;
  /** The host page's navigation start → the same paint, ms (embed.js and the page included). */
  navigationToRowMs: number;
}

/** One load of the board's dashboard in `context`, timed from the inbox's mount. */
const loadDashboard = async (
  context: BrowserContext,
  board: HostSite,
  messengerOrigin: string,
): Promise<EmbedLoad> => {
  const page = await context.newPage();
  try {
    await page.goto(`${board.url}/?as=${COMPANY.externalId}`, {
      waitUntil: 'commit',
      timeout: TIMEOUT_MS,
    });
    const deadline = Date.now() + TIMEOUT_MS;
    for (;;) {
      const rowAt = await frameFirstRowAt(page, messengerOrigin);
      if (rowAt !== null) {
        const host = await page.evaluate(() => ({
          origin: performance.timeOrigin,
          mounts: (window as unknown as { mounts?: { frame: string; at: number }[] }).mounts ?? [],
        }));
        const mounted = host.mounts.find((mount) => mount.frame === 'inbox');
        if (!mounted) throw new Error('the board recorded no mount of its inbox');
        return { mountToRowMs: rowAt - mounted.at, navigationToRowMs: rowAt - host.origin };
      }
      if (Date.now() > deadline) throw new Error('no conversation row in the inbox frame');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  } finally {
    await page.close().catch(() => undefined);
  }
};

/**
 * A fresh browser context (cold cache, no cookies): the dashboard loaded once (cold), then again
 * in the same context (warm: cached scripts, the frame's partitioned session already there).
 */
const coldThenWarm = async (
  browser: Browser,
  board: HostSite,
  messengerOrigin: string,
): Promise<{ cold: EmbedLoad; warm: EmbedLoad }> => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    await context.addInitScript(frameFirstRowProbe(messengerOrigin));
    const cold = await loadDashboard(context, board, messengerOrigin);
    const warm = await loadDashboard(context, board, messengerOrigin);
    return { cold, warm };
  } finally {
    await context.close().catch(() => undefined);
  }
};

/** A session of the board's company opened through its own sign-in link (for the top-level baseline). */
const sessionCookieOf = async (board: HostSite): Promise<string> => {
  const response = await fetch(await board.signInUrl(COMPANY.externalId), { redirect: 'manual' });
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0] ?? '')
    .find((pair) => pair.startsWith(`${SESSION_COOKIE}=`));
  if (!cookie) throw new Error(`the sign-in link answered ${response.status} without a session`);
  return cookie.slice(SESSION_COOKIE.length + 1);
};

/**
 * The embeddable messenger: embed.js's size (raw and gzip -9) and, in Chromium with third-party
 * cookies blocked, the time from the host page's `mount` to the inbox frame's first conversation
 * row, with the board (examples/host-site) on http://localhost and the messenger on 127.0.0.1;
 * against the messenger's own /messages opened top-level in the same run.
 */
export const embed = sizedScenario(SIZES, {
  name: 'embed',
  title: 'Embedded inbox: embed.js size, mount → first conversation row',
  run: async ({ config, scope, log }) => {
    const rows: ResultRow[] = [];
    const checks: Checks = {};
    const notes: string[] = [];
    const script = join(WEB_ROOT, 'embed.js');
    if (!existsSync(script) || !clientBuilt()) {
      checks.built = false;
      return {
        rows: [skipped('embed.js (gzip -9)', 'dist/web/embed.js missing: run `npm run build`')],
        checks,
        notes,
      };
    }
    const content = readFileSync(script);
    const gzipBytes = gzipSync(content, { level: 9 }).length;
    rows.push(
      atMost('embed.js (gzip -9)', gzipBytes, EMBED_GZIP_LIMIT, 'B'),
      info('embed.js (minified)', content.length, 'B'),
    );
    Object.assign(checks, { built: true, embedBytes: content.length, embedGzipBytes: gzipBytes });

    const integrationKey = randomBytes(32).toString('hex');
    const ssoSecret = randomBytes(32).toString('hex');
    const boardPort = await freePort();
    const bench = await scope.database('sqlite', 'embed');
    await bench.close();
    const server = await scope.server(bench, {
      env: {
        INTEGRATION_KEYS: integrationKey,
        SSO_SECRET: ssoSecret,
        EMBED_ORIGINS: `http://localhost:${boardPort}`,
      },
    });
    const board = await startHostSite({
      messengerUrl: server.url,
      integrationKey,
      ssoSecret,
      port: boardPort,
    });
    scope.defer(() => board.close());
    const browser = await launchChromium(THIRD_PARTY_COOKIES_BLOCKED);
    scope.defer(() => browser.close());

    const mountToRow = createHistogram();
    const warmMountToRow = createHistogram();
    const navigationToRow = createHistogram();
    const topLevel = createHistogram();
    let failures = 0;
    // one warm-up of each (the server's first page renders, Chromium's first frame process)
    await coldThenWarm(browser, board, server.url).catch(() => undefined);
    const cookie = await sessionCookieOf(board);
    await loadListPage(browser, server.url, cookie, { timeoutMs: TIMEOUT_MS });
    for (let run = 0; run < config.runs; run += 1) {
      try {
        const { cold, warm } = await coldThenWarm(browser, board, server.url);
        recordMs(mountToRow, cold.mountToRowMs);
        recordMs(navigationToRow, cold.navigationToRowMs);
        recordMs(warmMountToRow, warm.mountToRowMs);
        log(
          `  embed ${run + 1}: mount → first row ${Math.round(cold.mountToRowMs)} ms cold (navigation → row ${Math.round(cold.navigationToRowMs)} ms), ${Math.round(warm.mountToRowMs)} ms warm`,
        );
      } catch (error) {
        failures += 1;
        log(`  embed ${run + 1}: ${errorLine(error)}`);
      }
      const { load } = await loadListPage(browser, server.url, cookie, { timeoutMs: TIMEOUT_MS });
      if (load.firstRowMs !== null) recordMs(topLevel, load.firstRowMs);
      log(
        `  top-level ${run + 1}: navigation → first row ${load.firstRowMs === null ? `none (${load.error})` : `${Math.round(load.firstRowMs)} ms`}`,
      );
    }
    const embedded = summarize(mountToRow);
    const warm = summarize(warmMountToRow);
    const navigation = summarize(navigationToRow);
    const baseline = summarize(topLevel);
    const shown = embedded.count > 0;
    const figure = (summary: { count: number }, value: number) =>
      summary.count > 0 ? round(value) : null;
    rows.push(
      atMost(
        'mount → first row, cold p50',
        figure(embedded, embedded.p50),
        FIRST_ROW_TARGET_MS,
        'ms',
      ),
      atMost(
        'mount → first row, cold p95',
        figure(embedded, embedded.p95),
        FIRST_ROW_TARGET_MS,
        'ms',
        `${embedded.count} cold loads`,
      ),
      info('mount → first row, warm p50', figure(warm, warm.p50), 'ms'),
      info('mount → first row, warm p95', figure(warm, warm.p95), 'ms', 'the same browser again'),
      info(
        'board navigation → first row in the frame, cold p50',
        figure(navigation, navigation.p50),
        'ms',
      ),
      info('baseline: /messages top-level → first row p50', figure(baseline, baseline.p50), 'ms'),
      info('baseline: /messages top-level → first row p95', figure(baseline, baseline.p95), 'ms'),
      info(
        '  mount → row (cold) ÷ top-level (p50)',
        shown && baseline.count > 0 ? round(embedded.p50 / baseline.p50) : null,
        '×',
      ),
    );
    Object.assign(checks, {
      embedRuns: config.runs,
      embedRowsShown: embedded.count,
      warmRowsShown: warm.count,
      embedFailures: failures,
      baselineRowsShown: baseline.count,
    });
    notes.push(
      `Cold: a fresh browser context each (empty cache, no cookies); warm: the same context loading the dashboard again (cached scripts, the frame's partitioned session already set; the page still mounts with a new sign-in link). Third-party cookies blocked; the board on http://localhost:${boardPort}, the messenger on ${server.url}. Mount → row covers the sign-in link's redirect (/sso, which sets the partitioned session cookie) and the framed page's load; the baseline opens /messages top-level with a session cookie already set. embed.js: ${content.length} B minified, ${gzipBytes} B gzip -9 (the contract's limit ${EMBED_GZIP_LIMIT} B).`,
    );
    return { rows, checks, notes };
  },
});
