/**
 * `npm run bench [-- <scenario> …] [--size tiny|full] [--workers N[,M…]] [--out <file>] [--profile <dir>] [--no-docs]`
 * `npm run bench -- --compare <git-ref> [<scenario> …] [--rounds N] [--size …] [--workers …]`
 *
 * Runs the scenarios against the real (built) server, prints one table, writes
 * bench/results/latest.json (tiny runs: latest-tiny.json) and, after a full run of every scenario,
 * replaces the results block of docs/performance.md. `--workers` gives the server's worker processes
 * (`WEB_CONCURRENCY`) for the scenarios that take them (capacity, send-throughput): by default 1 and 2
 * when no scenario is named, else 1. `--compare` runs the scenarios on this checkout (A) and on the
 * ref (B, built in a temporary worktree) alternately, N rounds (default 2: A B A B), and prints their
 * figures side by side (bench/lib/compare-run.ts).
 */
import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { format, resolveConfig } from 'prettier';
import { dropStaleBenchDatabases } from './lib/database.js';
import { runComparison } from './lib/compare-run.js';
import { describeMachine, machineInfo } from './lib/machine.js';
import type { RunReport } from './lib/run-report.js';
import { runScenario } from './lib/runner.js';
import { markdownTable } from './lib/table.js';
import { parseWorkerCounts, type ScenarioResult, type Size } from './lib/types.js';
import { SCENARIOS, scenarioNames } from './scenarios/index.js';

const ROOT = resolve(import.meta.dirname, '..');
const DOCS = resolve(ROOT, 'docs/performance.md');
const START_MARK = '<!-- bench:results:start -->';
const END_MARK = '<!-- bench:results:end -->';

const usage =
  `usage: npm run bench -- [${scenarioNames().join('|')} …] [--size tiny|full] [--workers N[,M…]] [--out file] [--profile dir] [--no-docs]\n` +
  `       npm run bench -- --compare <git-ref> [scenario …] [--rounds N] [--size tiny|full] [--workers N[,M…]]`;

const ensureBuilt = (log: (message: string) => void): void => {
  if (!existsSync(resolve(ROOT, 'dist/server/main.js'))) {
    log('dist/server/main.js is missing: npm run build:server');
    execSync('npm run build:server', { cwd: ROOT, stdio: 'inherit' });
  }
  if (!existsSync(resolve(ROOT, 'dist/web/index.html'))) {
    log('dist/web/index.html is missing: npm run build:web');
    try {
      execSync('npm run build:web', { cwd: ROOT, stdio: 'inherit' });
    } catch {
      log('the client did not build: the browser and page-weight figures will be skipped');
    }
  }
};

const docsBlock = (report: RunReport): string => {
  const lines = [
    START_MARK,
    `Last full run: ${report.startedAt} (${(report.durationSeconds / 60).toFixed(1)} min, \`npm run bench\`).`,
    '',
    `Machine: ${describeMachine(report.machine)}.`,
    '',
    markdownTable(report.results),
    '',
    '<details><summary>Notes of this run</summary>',
    '',
    ...report.results.flatMap((result) =>
      result.notes.map((note) => `- **${result.name}**: ${note}`),
    ),
    '',
    '</details>',
    END_MARK,
  ];
  return lines.join('\n');
};

/** Replaces the results block of docs/performance.md, formatted as `npm run format` would. */
const updateDocs = async (report: RunReport): Promise<boolean> => {
  if (!existsSync(DOCS)) return false;
  const text = readFileSync(DOCS, 'utf8');
  const start = text.indexOf(START_MARK);
  const end = text.indexOf(END_MARK);
  if (start === -1 || end === -1 || end < start) return false;
  const updated = `${text.slice(0, start)}${docsBlock(report)}${text.slice(end + END_MARK.length)}`;
  const options = (await resolveConfig(DOCS)) ?? {};
  writeFileSync(DOCS, await format(updated, { ...options, filepath: DOCS }));
  return true;
};

const main = async (): Promise<number> => {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      size: { type: 'string', default: 'full' },
      out: { type: 'string' },
      profile: { type: 'string' },
      workers: { type: 'string', multiple: true },
      'no-docs': { type: 'boolean', default: false },
      compare: { type: 'string' },
      rounds: { type: 'string', default: '2' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(usage);
    return 0;
  }
  const size = values.size as Size;
  if (size !== 'tiny' && size !== 'full') {
    console.error(usage);
    return 2;
  }
  const unknown = positionals.filter((name) => !scenarioNames().includes(name));
  if (unknown.length > 0) {
    console.error(`unknown scenario(s): ${unknown.join(', ')}\n${usage}`);
    return 2;
  }
  const selected =
    positionals.length > 0
      ? SCENARIOS.filter((scenario) => positionals.includes(scenario.name))
      : SCENARIOS;
  const workers = parseWorkerCounts(values.workers, positionals.length === 0);
  if (!workers) {
    console.error(`--workers takes whole numbers from 1 to 64 (e.g. 1,2)\n${usage}`);
    return 2;
  }
  const log = (message: string) =>
    console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);
  if (values.compare !== undefined) {
    const rounds = Number(values.rounds);
    if (!Number.isInteger(rounds) || rounds < 1 || rounds > 20 || !values.compare) {
      console.error(`--compare takes a git ref, --rounds a whole number from 1 to 20\n${usage}`);
      return 2;
    }
    if (values.out || values.profile) {
      console.error(
        `--compare writes bench/results/compare.json; --out and --profile do not apply`,
      );
      return 2;
    }
    return runComparison({
      root: ROOT,
      ref: values.compare,
      rounds,
      scenarios: positionals,
      runArgs: [
        ...(values.size === 'full' ? [] : ['--size', size]),
        ...(values.workers ?? []).flatMap((value) => ['--workers', value]),
      ],
      log,
    });
  }

  ensureBuilt(log);
  const stale = await dropStaleBenchDatabases().catch(() => 0);
  if (stale > 0) log(`dropped ${stale} database(s) left by earlier runs`);
  const machine = await machineInfo();
  log(describeMachine(machine));

  const startedAt = new Date();
  const started = performance.now();
  const profileDir = values.profile ? resolve(values.profile) : undefined;
  const results: ScenarioResult[] = [];
  for (const scenario of selected)
    results.push(await runScenario(scenario, { size, log, profileDir, workers }));

  const report: RunReport = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    durationSeconds: Math.round((performance.now() - started) / 1000),
    size,
    scenarios: selected.map((scenario) => scenario.name),
    workers,
    machine,
    results,
  };
  const out = resolve(
    values.out ??
      resolve(ROOT, 'bench/results', size === 'full' ? 'latest.json' : 'latest-tiny.json'),
  );
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);

  console.log(`\n${markdownTable(results)}\n`);
  for (const result of results)
    for (const note of result.notes) console.log(`- ${result.name}: ${note}`);
  console.log(`\n${describeMachine(machine)}`);
  console.log(`finished in ${(report.durationSeconds / 60).toFixed(1)} min; results in ${out}`);
  const everything = selected.length === SCENARIOS.length && size === 'full';
  if (everything && !values['no-docs'] && (await updateDocs(report)))
    console.log(`updated the results in ${DOCS}`);
  if (profileDir) console.log(`CPU profiles of the servers in ${profileDir}`);
  const crashed = results.filter((result) => result.error);
  if (crashed.length > 0)
    console.log(`failed (crashed): ${crashed.map((result) => result.name).join(', ')}`);
  return crashed.length > 0 ? 1 : 0;
};

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
