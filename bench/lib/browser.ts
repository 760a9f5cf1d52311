import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { addSessionCookie } from '../../test-support/browser.js';

export const WEB_ROOT = resolve(import.meta.dirname, '../../dist/web');

export const clientBuilt = (): boolean => existsSync(resolve(WEB_ROOT, 'index.html'));

const ROW = '[data-testid="conversation-row"]';
const LIST = '[data-testid="conversation-list"]';

/** Installed before the page's own scripts: notes the frame in which the first visible row appears. */
const FIRST_ROW_PROBE = `(() => {
  const state = { firstRowAt: null, firstRowFrameAt: null };
  window.__benchList = state;
  const visible = () => {
    const row = document.querySelector('${ROW}');
    if (!row) return false;
    const box = row.getBoundingClientRect();
    return box.width > 0 && box.height > 0;
  };
  const observer = new MutationObserver(() => {
    if (state.firstRowAt !== null || !visible()) return;
    state.firstRowAt = performance.now();
    observer.disconnect();
    requestAnimationFrame(() => { state.firstRowFrameAt = performance.now(); });
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true });
})();`;

export interface PageLoad {
  /** Navigation start → the frame that paints the first visible conversation row, ms. */
  firstRowMs: number | null;
  rowsInDom: number;
  error?: string;
}

export interface ScrollResult {
  frames: number;
  p50: number;
  p95: number;
  max: number;
  /** Frames longer than 50 ms. */
  longFrames: number;
  scrolledPx: number;
  scrollHeight: number;
  /** Most rows present in the DOM at once while scrolling (virtualization keeps this small). */
  maxRowsInDom: number;
}

/** Opens /messages with a session cookie in a fresh context (cold cache) and times the first row. */
export const loadListPage = async (
  browser: Browser,
  baseUrl: string,
  sessionCookie: string,
  options: { timeoutMs: number; scrollMs?: number },
): Promise<{ load: PageLoad; scroll?: ScrollResult }> => {
  // The page's CSP forbids string evaluation, which the probes below use.
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    bypassCSP: true,
  });
  try {
    await addSessionCookie(context, baseUrl, sessionCookie);
    const page = await context.newPage();
    await page.addInitScript(FIRST_ROW_PROBE);
    await page.goto(`${baseUrl}/messages?lang=en`, {
      waitUntil: 'commit',
      timeout: options.timeoutMs,
    });
    try {
      await page.waitForFunction(
        'window.__benchList && window.__benchList.firstRowFrameAt !== null',
        null,
        { timeout: options.timeoutMs, polling: 50 },
      );
    } catch (error) {
      return {
        load: {
          firstRowMs: null,
          rowsInDom: await page.locator(ROW).count(),
          error: error instanceof Error ? error.message.split('\n')[0] : String(error),
        },
      };
    }
    const firstRowMs = await page.evaluate('window.__benchList.firstRowFrameAt');
    const rowsInDom = await page.locator(ROW).count();
    const load: PageLoad = { firstRowMs: Number(firstRowMs), rowsInDom };
    if (!options.scrollMs) return { load };
    await page.waitForSelector(LIST, { state: 'visible', timeout: options.timeoutMs });
    const scroll = (await page.evaluate(
      `(async (durationMs) => {
        const list = document.querySelector('${LIST}');
        const scrollable = (el) => el && el.scrollHeight > el.clientHeight + 1 && /(auto|scroll)/.test(getComputedStyle(el).overflowY);
        let scroller = scrollable(list) ? list : null;
        if (!scroller) scroller = Array.from(list.querySelectorAll('*')).find(scrollable) || null;
        for (let el = list.parentElement; !scroller && el; el = el.parentElement) if (scrollable(el)) scroller = el;
        if (!scroller) scroller = document.scrollingElement;
        const start = scroller.scrollTop;
        const deltas = [];
        let maxRows = 0;
        await new Promise((done) => {
          let last = performance.now();
          const began = last;
          const step = (now) => {
            deltas.push(now - last);
            last = now;
            maxRows = Math.max(maxRows, document.querySelectorAll('${ROW}').length);
            scroller.scrollTop += 150;
            if (now - began < durationMs && scroller.scrollTop + scroller.clientHeight < scroller.scrollHeight - 1) requestAnimationFrame(step);
            else done();
          };
          requestAnimationFrame((now) => { last = now; requestAnimationFrame(step); });
        });
        const sorted = deltas.slice().sort((a, b) => a - b);
        const at = (p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] || 0;
        return {
          frames: deltas.length,
          p50: at(0.5),
          p95: at(0.95),
          max: sorted[sorted.length - 1] || 0,
          longFrames: deltas.filter((d) => d > 50).length,
          scrolledPx: scroller.scrollTop - start,
          scrollHeight: scroller.scrollHeight,
          maxRowsInDom: maxRows,
        };
      })(${options.scrollMs})`,
    )) as ScrollResult;
    return { load, scroll };
  } finally {
    await context.close();
  }
};
