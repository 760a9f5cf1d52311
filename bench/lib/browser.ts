import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { addSessionCookie } from '../../test-support/browser.js';

export const WEB_ROOT = resolve(import.meta.dirname, '../../dist/web');

export const clientBuilt = (): boolean => existsSync(resolve(WEB_ROOT, 'index.html'));

const ROW = '[data-testid="conversation-row"]';
const LIST = '[data-testid="conversation-list"]';

/** Page-side code (for the probes): `visible()`, whether a conversation row is drawn. */
export const VISIBLE_ROW_CHECK = `const visible = () => {
    const row = document.querySelector('${ROW}');
    if (!row) return false;
    const box = row.getBoundingClientRect();
    return box.width > 0 && box.height > 0;
  };`;

/** Installed before the page's own scripts: notes the frame in which the first visible row appears. */
const FIRST_ROW_PROBE = `(() => {
  const state = { firstRowAt: null, firstRowFrameAt: null };
  window.__benchList = state;
  ${VISIBLE_ROW_CHECK}
  // Long animation frames (> 50 ms of main-thread work between two paints), as Chromium reports them.
  state.longFrames = [];
  state.loafSupported = PerformanceObserver.supportedEntryTypes.includes('long-animation-frame');
  if (state.loafSupported)
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) state.longFrames.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'long-animation-frame', buffered: true });
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
  /** requestAnimationFrame intervals longer than 50 ms (headless Chromium's compositor skips vsyncs too). */
  longFrames: number;
  /** Long animation frames (main-thread work > 50 ms before a paint, PerformanceObserver); null: not supported. */
  longAnimationFrames: number | null;
  /** The longest of them, ms. */
  longestAnimationFrame: number;
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
        const scrollStartedAt = performance.now();
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
          // frames that began once the scroll had (the first data's render before it is reported late)
          longAnimationFrames: window.__benchList.loafSupported ? window.__benchList.longFrames.filter((f) => f.start >= scrollStartedAt).length : null,
          longestAnimationFrame: Math.max(0, ...window.__benchList.longFrames.filter((f) => f.start >= scrollStartedAt).map((f) => f.duration)),
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

export interface MessageFlowResult {
  /** Messages sent into the open conversation and shown by the page. */
  shown: number;
  /** Everything the page moved while they flowed (HTTP both ways, live frames both ways), bytes. */
  bytes: number;
  httpBytes: number;
  liveBytes: number;
  httpRequests: number;
  /** Initial-data (list) calls made while the messages flowed: the list is kept by events, so 0. */
  listRequests: number;
  error?: string;
}

const headerBytes = (headers: Record<string, unknown> | undefined): number =>
  Object.entries(headers ?? {}).reduce(
    (sum, [name, value]) => sum + name.length + String(value).length + 4,
    0,
  );

/**
 * Opens /messages, opens the newest conversation and waits for the live subscription; then, while
 * `send(i)` posts `messages` messages into that conversation (from the other side) one after the
 * other, counts through Chrome's DevTools protocol every byte the page moves: HTTP requests and
 * answers (headers included) and live frames in both directions.
 */
export const measureMessageFlow = async (
  browser: Browser,
  baseUrl: string,
  sessionCookie: string,
  options: {
    messages: number;
    timeoutMs: number;
    listPath: string;
    send: (index: number) => Promise<string>;
  },
): Promise<MessageFlowResult> => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const result: MessageFlowResult = {
    shown: 0,
    bytes: 0,
    httpBytes: 0,
    liveBytes: 0,
    httpRequests: 0,
    listRequests: 0,
  };
  try {
    await addSessionCookie(context, baseUrl, sessionCookie);
    const page = await context.newPage();
    let subscribed = false;
    page.on('websocket', (socket) =>
      socket.on('framereceived', ({ payload }) => {
        if (String(payload).includes('subscription_succeeded')) subscribed = true;
      }),
    );
    const cdp = await context.newCDPSession(page);
    let counting = false;
    const counted = new Set<string>();
    const inFlight = new Set<string>();
    let lastActivity = Date.now();
    const done = (event: { requestId: string }) => {
      inFlight.delete(event.requestId);
      lastActivity = Date.now();
    };
    cdp.on('Network.loadingFailed', done);
    cdp.on('Network.requestWillBeSent', (event) => {
      inFlight.add(event.requestId);
      lastActivity = Date.now();
      if (!counting) return;
      counted.add(event.requestId);
      result.httpRequests += 1;
      result.httpBytes +=
        event.request.method.length +
        event.request.url.length +
        headerBytes(event.request.headers) +
        (event.request.postData?.length ?? 0);
      if (new URL(event.request.url).pathname === options.listPath) result.listRequests += 1;
    });
    cdp.on('Network.loadingFinished', (event) => {
      done(event);
      if (counted.has(event.requestId)) result.httpBytes += event.encodedDataLength;
    });
    /** No HTTP request in flight for `quietMs`. */
    const settled = async (quietMs: number) => {
      const deadline = Date.now() + options.timeoutMs;
      while (inFlight.size > 0 || Date.now() - lastActivity < quietMs) {
        if (Date.now() > deadline) throw new Error('the page did not settle');
        await page.waitForTimeout(50);
      }
    };
    const frame = (event: { response: { payloadData: string } }) => {
      if (counting) result.liveBytes += Buffer.byteLength(event.response.payloadData) + 2;
    };
    cdp.on('Network.webSocketFrameReceived', frame);
    cdp.on('Network.webSocketFrameSent', frame);
    await cdp.send('Network.enable');

    await page.goto(`${baseUrl}/messages?lang=en`, { timeout: options.timeoutMs });
    const firstRow = page.locator(ROW).first();
    await firstRow.waitFor({ state: 'visible', timeout: options.timeoutMs });
    await firstRow.click();
    await page
      .locator('#messageChatBox [data-testid="chat-message"]')
      .first()
      .waitFor({ state: 'visible', timeout: options.timeoutMs });
    const deadline = Date.now() + options.timeoutMs;
    while (!subscribed && Date.now() < deadline) await page.waitForTimeout(50);
    if (!subscribed) throw new Error('no live subscription');
    // what opening the conversation asked for (history, marking seen) has settled
    await settled(500);

    counting = true;
    for (let i = 0; i < options.messages; i += 1) {
      const text = await options.send(i);
      await page
        .locator('#messageChatBox [data-testid="chat-message"]', { hasText: text })
        .waitFor({ state: 'visible', timeout: options.timeoutMs });
      result.shown += 1;
    }
    // what the last message made the page do (marking it seen) is part of its cost
    await settled(1_000);
    counting = false;
    result.bytes = result.httpBytes + result.liveBytes;
    return result;
  } catch (error) {
    return {
      ...result,
      error: error instanceof Error ? error.message.split('\n')[0] : String(error),
    };
  } finally {
    await context.close();
  }
};
