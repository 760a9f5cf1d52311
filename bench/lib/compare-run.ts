/**
 * `npm run bench -- --compare <ref> [scenarios] [--rounds N]`: the scenarios run on this checkout
 * (A) and on the ref (B, built in a temporary worktree) alternately, A B A B …, each run its own
 * build's runner (`npx tsx bench/run.ts … --no-docs --out <file>`); then one side-by-side table.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { compareRuns, comparisonTables } from './compare.js';
import {
  describeCheckout,
  prepareCheckout,
  removeCheckout,
  type RefCheckout,
} from './compare-worktree.js';
import type { RunReport } from './run-report.js';

export interface CompareOptions {
  /** This checkout (A). */
  root: string;
  /** The git ref of B. */
  ref: string;
  rounds: number;
  scenarios: string[];
  /** Passed to every run as well (`--size`, `--workers`). */
  runArgs: string[];
  log: (message: string) => void;
}

/** One run of one build: when, how long, the machine's load around it, how it ended. */
export interface RunRecord {
  build: 'A' | 'B';
  round: number;
  startedAt: string;
  seconds: number;
  loadBefore: string;
  loadAfter: string;
  exitCode: number;
}

const load = (): string =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

/** The running bench process of the moment: ended (its whole process group) on Ctrl-C. */
let current: ChildProcess | undefined;

const stopCurrent = (): void => {
  if (current?.pid === undefined || current.exitCode !== null) return;
  try {
    process.kill(-current.pid, 'SIGTERM');
  } catch {
    // already gone
  }
};

/** Prints a child's lines after `prefix`. */
const relay = (stream: NodeJS.ReadableStream, prefix: string): void => {
  createInterface({ input: stream }).on('line', (line) => console.log(`${prefix} ${line}`));
};

/** Runs one build's bench in `dir`; its report from the JSON file it wrote. */
const benchRun = async (
  build: 'A' | 'B',
  round: number,
  dir: string,
  options: CompareOptions,
  out: string,
): Promise<{ report: RunReport; record: RunRecord }> => {
  const args = ['tsx', 'bench/run.ts', ...options.scenarios, '--no-docs', '--out', out];
  args.push(...options.runArgs);
  const loadBefore = load();
  const startedAt = new Date();
  options.log(`${build}${round}: npx ${args.join(' ')} (in ${dir}); load average ${loadBefore}`);
  const child = spawn('npx', args, { cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  current = child;
  relay(child.stdout, `[${build}${round}]`);
  relay(child.stderr, `[${build}${round}]`);
  const exitCode = await new Promise<number>((done) => {
    child.on('error', () => done(127));
    child.on('close', (code, signal) => done(code ?? (signal ? 128 : 1)));
  });
  current = undefined;
  const record: RunRecord = {
    build,
    round,
    startedAt: startedAt.toISOString(),
    seconds: Math.round((Date.now() - startedAt.getTime()) / 1000),
    loadBefore,
    loadAfter: load(),
    exitCode,
  };
  if (!existsSync(out))
    throw new Error(
      `${build}${round}: bench/run.ts in ${dir} exited ${exitCode} without writing ${out}` +
        (exitCode === 2
          ? ' (it refused the arguments: a runner without one of these scenarios or options?)'
          : ''),
    );
  const report = JSON.parse(readFileSync(out, 'utf8')) as Partial<RunReport>;
  if (!Array.isArray(report.results))
    throw new Error(`${build}${round}: ${out} is not a results file of bench/run.ts (no results)`);
  return { report: report as RunReport, record };
};

const runsTable = (records: RunRecord[]): string =>
  [
    '| run | started (UTC) | min | load average before (1/5/15) | after | exit |',
    '|---|---|---|---|---|---|',
    ...records.map(
      (record) =>
        `| ${record.build}${record.round} | ${record.startedAt.slice(11, 19)} | ` +
        `${(record.seconds / 60).toFixed(1)} | ${record.loadBefore} | ${record.loadAfter} | ${record.exitCode} |`,
    ),
  ].join('\n');

const LEGEND = [
  'A rounds / B rounds: the figure in each round, in order (– where a round did not measure it).',
  'B ÷ A: of the medians. Spread: max ÷ min of one build’s repeats.',
  '"within noise": the ranges (min–max) of the repeats of A and of B overlap; else B is higher or lower.',
  'The figure least moved by other work on the machine is the server CPU per request; tail latencies move most.',
];

/** Builds the ref, runs the rounds, prints the tables; the exit code (1 when a run failed). */
export const runComparison = async (options: CompareOptions): Promise<number> => {
  const { root, ref, rounds, log } = options;
  const work = mkdtempSync(join(tmpdir(), 'bench-compare-runs-'));
  let checkoutDir: string | undefined;
  const cleanUp = () => {
    stopCurrent();
    if (checkoutDir) {
      log(`removing the worktree of ${ref}: ${checkoutDir}`);
      removeCheckout(root, checkoutDir);
      checkoutDir = undefined;
    }
    rmSync(work, { recursive: true, force: true });
  };
  const onSignal = (signal: NodeJS.Signals) => {
    log(`${signal}: stopping`);
    cleanUp();
    process.exit(130);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const checkoutA = describeCheckout(root);
    log(`A: this checkout (${checkoutA}): npm run build`);
    execFileSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
    const checkout: RefCheckout = prepareCheckout(root, ref, log, (dir) => (checkoutDir = dir));
    const runs: { A: RunReport[]; B: RunReport[] } = { A: [], B: [] };
    const records: RunRecord[] = [];
    for (let round = 1; round <= rounds; round++) {
      for (const [build, dir] of [
        ['A', root],
        ['B', checkout.dir],
      ] as const) {
        const { report, record } = await benchRun(
          build,
          round,
          dir,
          options,
          join(work, `${build}${round}.json`),
        );
        runs[build].push(report);
        records.push(record);
      }
    }
    const compared = compareRuns(runs.A, runs.B);
    const text = [
      `## bench --compare: A = this checkout (${checkoutA}), B = ${ref} (${checkout.commit.slice(0, 10)})`,
      '',
      `Scenarios: ${options.scenarios.join(', ') || 'all'}${options.runArgs.length > 0 ? ` (${options.runArgs.join(' ')})` : ''}; ` +
        `${rounds} round${rounds === 1 ? '' : 's'}, in the order ${records.map((r) => r.build).join(' ')}; ` +
        `B's node_modules: ${checkout.dependencies === 'symlink' ? "this checkout's, linked (same package-lock.json)" : 'npm ci (its package-lock.json differs)'}.`,
      '',
      runsTable(records),
      '',
      comparisonTables(compared),
      '',
      ...LEGEND.map((line) => `- ${line}`),
    ].join('\n');
    console.log(`\n${text}\n`);
    const saved = resolve(root, 'bench/results/compare.json');
    mkdirSync(resolve(saved, '..'), { recursive: true });
    writeFileSync(
      saved,
      `${JSON.stringify({ a: checkoutA, b: { ref, commit: checkout.commit }, records, compared, runs }, null, 2)}\n`,
    );
    log(`the comparison and every run's results: ${saved}`);
    return records.some((record) => record.exitCode !== 0) ? 1 : 0;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    cleanUp();
  }
};
