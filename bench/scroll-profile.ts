/**
 * `npx tsx bench/scroll-profile.ts [name=dir …] [--rounds 3] [--dialect sqlite|postgres] [--trace dir]`
 *
 * The data-scale scroll, taken apart: one company with 10,000 conversations, one server per client
 * build (`dir` holds a `dist/web`; default: this checkout), Chromium scrolling the conversation
 * list 150 px per frame for 3 s, the builds in turn, `--rounds` times. Per scroll: frames, long
 * animation frames, and the main thread's work per frame from the DevTools protocol's
 * `Performance.getMetrics` (task, script, layout, style), then the medians per build. Comparing a
 * build with its change against the build without it in the same run is what survives the noise
 * of a shared machine. `--trace dir` also writes a Chromium trace of each scroll (open it in
 * DevTools' Performance panel or ui.perfetto.dev).
 *
 * A build to compare with: `git stash; npx vite build --outDir /tmp/before/dist/web; git stash pop`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { DialectName } from '../src/server/db/database.js';
import { addSessionCookie, launchChromium } from '../test-support/browser.js';
import { seedScale } from '../test-support/seed-bulk.js';
import { createBenchDatabase, insertSession } from './lib/database.js';
import { lowerMedian } from './lib/histogram.js';
import { startBenchServer, type BenchServer } from './lib/server.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: 'string', default: '3' },
    dialect: { type: 'string', default: 'sqlite' },
    trace: { type: 'string' },
  },
});
const builds = (positionals.length > 0 ? positionals : [`this=${process.cwd()}`]).map((spec) => {
  const [name, dir] = spec.includes('=') ? spec.split('=', 2) : [spec, spec];
  return { name: name!, dir: resolve(dir!) };
});
const rounds = Number(values.rounds);
const dialect = values.dialect as DialectName;

const SCROLL = `(async () => {
  const scroller = document.querySelector('[data-testid="conversation-list"]');
  const began = performance.now();
  let frames = 0;
  await new Promise((done) => {
    const step = (now) => {
      frames += 1;
      scroller.scrollTop += 150;
      if (now - began < 3000) requestAnimationFrame(step);
      else done();
    };
    requestAnimationFrame(step);
  });
  const long = window.__loaf.filter((entry) => entry.start >= began);
  return {
    frames,
    longFrames: long.filter((entry) => entry.duration > 50).length,
    longest: Math.max(0, ...long.map((entry) => entry.duration)),
    scrolledPx: scroller.scrollTop,
  };
})()`;

const LOAF = `window.__loaf = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) window.__loaf.push({ start: entry.startTime, duration: entry.duration });
}).observe({ type: 'long-animation-frame', buffered: true });`;

type Figures = Record<string, number>;

const scrollOnce = async (
  browser: Awaited<ReturnType<typeof launchChromium>>,
  server: BenchServer,
  cookie: string,
  traceFile: string | undefined,
): Promise<Figures> => {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    bypassCSP: true,
  });
  try {
    await addSessionCookie(context, server.url, cookie);
    const page = await context.newPage();
    await page.addInitScript(LOAF);
    await page.goto(`${server.url}/messages?lang=en`);
    await page.waitForSelector('[data-testid="conversation-row"]');
    await page.waitForTimeout(800);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const metrics = async () =>
      Object.fromEntries(
        (await cdp.send('Performance.getMetrics')).metrics.map(({ name, value }) => [name, value]),
      );
    const events: unknown[] = [];
    let traced: Promise<unknown> | undefined;
    if (traceFile) {
      cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
      traced = new Promise((done) => cdp.once('Tracing.tracingComplete', done));
      await cdp.send('Tracing.start', {
        categories:
          'devtools.timeline,disabled-by-default-devtools.timeline,disabled-by-default-devtools.timeline.frame,toplevel,v8.execute,blink.user_timing,loading',
        transferMode: 'ReportEvents',
      });
    }
    const before = await metrics();
    const scroll = (await page.evaluate(SCROLL)) as Figures;
    const after = await metrics();
    if (traceFile) {
      await cdp.send('Tracing.end');
      await traced;
      writeFileSync(traceFile, JSON.stringify({ traceEvents: events }));
    }
    const perFrame = (name: string) => ((after[name]! - before[name]!) * 1000) / scroll.frames!;
    return {
      ...scroll,
      taskMsPerFrame: perFrame('TaskDuration'),
      scriptMsPerFrame: perFrame('ScriptDuration'),
      layoutMsPerFrame: perFrame('LayoutDuration'),
      styleMsPerFrame: perFrame('RecalcStyleDuration'),
    };
  } finally {
    await context.close();
  }
};

const line = (figures: Figures) =>
  Object.entries(figures)
    .map(([name, value]) => `${name} ${Math.round(value * 10) / 10}`)
    .join(', ');
const main = async () => {
  const bench = await createBenchDatabase(dialect, 'scrollprofile');
  const servers: { name: string; server: BenchServer }[] = [];
  const all: Record<string, Figures[]> = {};
  try {
    const seed = await seedScale(bench, {
      conversations: 10_000,
      messagesPerConversation: 20,
      jobs: 20,
    });
    const session = await insertSession(bench, seed.companyId);
    await bench.close();
    const home = process.cwd();
    for (const { name, dir } of builds) {
      // the server serves the client from ./dist/web
      process.chdir(dir);
      try {
        servers.push({ name, server: await startBenchServer({ databaseUrl: bench.url }) });
      } finally {
        process.chdir(home);
      }
    }
    if (values.trace) mkdirSync(values.trace, { recursive: true });
    const browser = await launchChromium();
    try {
      for (let round = 0; round < rounds; round += 1)
        for (const { name, server } of servers) {
          const traceFile = values.trace ? join(values.trace, `${name}-${round}.json`) : undefined;
          const figures = await scrollOnce(browser, server, session.cookie, traceFile);
          (all[name] ??= []).push(figures);
          console.log(`[${round + 1}/${rounds}] ${name}: ${line(figures)}`);
        }
    } finally {
      await browser.close();
    }
  } finally {
    for (const { server } of servers) await server.stop();
    await bench.drop();
  }
  for (const [name, list] of Object.entries(all))
    console.log(
      `median ${name}: ${line(Object.fromEntries(Object.keys(list[0]!).map((key) => [key, lowerMedian(list.map((figures) => figures[key]!))])))}`,
    );
};

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
