import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { paths } from '../../src/shared/paths.js';
import { nearestRank } from '../lib/histogram.js';
import { readCpuSeconds, readStatusBytes } from '../lib/proc.js';
import { callQuery } from '../lib/server.js';
import type { WorkerHandle } from '../lib/spawn.js';
import { atMost, exactly, info, newReport, sizedScenario } from '../lib/types.js';
import type { UploadRunRequest, UploadRunResult } from '../lib/upload-worker.js';

const MIB = 1024 * 1024;

const SIZES = {
  tiny: {
    pairs: 4,
    fileBytes: 256 * 1024,
    sequential: 3,
    concurrent: 6,
    concurrency: 3,
    rounds: 1,
  },
  full: {
    pairs: 20,
    // just under the 10 MiB limit (the multipart envelope has 64 KiB of its own room)
    fileBytes: 10 * MIB - 64 * 1024,
    sequential: 20,
    concurrent: 60,
    concurrency: 20,
    rounds: 5,
  },
};

/** The server's resident memory may grow by at most this while 20 uploads of ~10 MiB run at once. */
const FLAT_LIMIT_MIB = 64;

/** Uploads per user before the server's per-user rate (20 at once, then one every 2 s) refuses. */
const USER_BURST = 20;

interface Phase {
  result: UploadRunResult;
  /** The most resident memory seen: sampled every 20 ms, and VmHWM when it rose during the phase. */
  peakRssBytes: number;
  cpuSeconds: number;
}

/** Runs uploads while sampling a process's RSS every 20 ms; the peak, and its CPU time. */
const measured = async (
  loader: WorkerHandle,
  request: UploadRunRequest,
  pid: number,
): Promise<Phase> => {
  const hwmBefore = readStatusBytes(pid, 'VmHWM');
  const cpuBefore = readCpuSeconds(pid);
  let peakRssBytes = readStatusBytes(pid, 'VmRSS');
  const sampler = setInterval(() => {
    try {
      peakRssBytes = Math.max(peakRssBytes, readStatusBytes(pid, 'VmRSS'));
    } catch {
      // the process ended
    }
  }, 20);
  try {
    const result = await loader.call<UploadRunResult>('run', request);
    // the high-water mark catches a peak between two samples, if it is new since the phase began
    const hwmAfter = readStatusBytes(pid, 'VmHWM');
    if (hwmAfter > hwmBefore) peakRssBytes = Math.max(peakRssBytes, hwmAfter);
    return { result, peakRssBytes, cpuSeconds: readCpuSeconds(pid) - cpuBefore };
  } finally {
    clearInterval(sampler);
  }
};

const mibPerSecond = (phase: Phase, fileBytes: number): number =>
  ((phase.result.statuses['201'] ?? 0) * (fileBytes / MIB)) / phase.result.seconds;

const failures = (result: UploadRunResult): number =>
  Object.entries(result.statuses)
    .filter(([status]) => status !== '201')
    .reduce((sum, [, count]) => sum + count, 0);

const round = (value: number, digits = 1): number => Number(value.toFixed(digits));

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

/** Empties a directory, keeping it. */
const empty = (dir: string): void => {
  for (const entry of readdirSync(dir)) rmSync(join(dir, entry), { recursive: true, force: true });
};

interface Side {
  sequential: Phase[];
  concurrent: Phase[];
}

/** The two phases of a round: uploads one at a time, then `concurrency` at once. */
const phaseKinds = (config: {
  sequential: number;
  concurrent: number;
  concurrency: number;
}): [kind: keyof Side, count: number, atOnce: number][] => [
  ['sequential', config.sequential, 1],
  ['concurrent', config.concurrent, config.concurrency],
];

/**
 * Upload throughput: `POST /user/attachments` with files just under 10 MiB, one at a
 * time and 20 at once, against a bare node:http server that streams the body to a file; and the
 * server's memory while the 20 run (it must stay flat: uploads are streamed to disk, never held).
 * Both servers run side by side and their phases alternate, round after round, so that the other
 * work of the machine weighs on both alike.
 */
export const uploads = sizedScenario(SIZES, {
  name: 'uploads',
  title: 'Uploads of ~10 MiB files: throughput, and memory while 20 run at once',
  run: async ({ config, log, scope }) => {
    const { bench, pairs } = await scope.seededPairs('sqlite', 'uploads', config.pairs);
    // the server's storage and upload temp directory, removed at the end
    const root = mkdtempSync(join(tmpdir(), 'bench-uploads-'));
    scope.defer(() => rmSync(root, { recursive: true, force: true }));
    const storage = join(root, 'storage');
    const uploadTmp = join(root, 'tmp');
    mkdirSync(storage);
    mkdirSync(uploadTmp);
    const loader = await scope.worker('upload-worker.ts');
    const report = newReport();
    const users = pairs.flatMap((pair) => [pair.candidate, pair.company]);
    const headersByUser = users.map((user) => ({ authorization: `Bearer ${user.token}` }));
    const perUser = Math.ceil(
      (2 + config.rounds * (config.sequential + config.concurrent)) / users.length,
    );
    if (perUser > USER_BURST)
      throw new Error(`${perUser} uploads per user would pass the per-user upload rate`);
    // one user per upload in turn, carrying on from run to run: none goes over its upload rate
    let nextUser = 0;
    const ourRequest = (count: number, concurrency: number, url: string): UploadRunRequest => {
      const offset = nextUser % headersByUser.length;
      nextUser += count;
      return {
        url,
        path: `${paths.attachments}?${callQuery}`,
        headersByUser: [...headersByUser.slice(offset), ...headersByUser.slice(0, offset)],
        fileBytes: config.fileBytes,
        count,
        concurrency,
      };
    };
    const rawRequest = (count: number, concurrency: number, url: string): UploadRunRequest => ({
      url,
      path: '/upload',
      headersByUser: [{}],
      fileBytes: config.fileBytes,
      count,
      concurrency,
    });

    log('messenger (SQLite, file storage) and the bare node:http server, side by side');
    const ours: Side = { sequential: [], concurrent: [] };
    const raw: Side = { sequential: [], concurrent: [] };
    const { restRssBytes, rawRestRssBytes } = await scope.phase(async (servers) => {
      const server = await servers.server(bench, {
        env: { STORAGE_URL: `file:${storage}`, UPLOAD_TMP_DIR: uploadTmp },
      });
      const pid = server.child.pid ?? 0;
      const { worker: rawProcess, port } = await servers.listening('raw-upload-server.ts');
      const rawUrl = `http://127.0.0.1:${port}`;
      // warm up (JIT, the first storage folders), then both at rest
      await loader.call('run', ourRequest(2, 1, server.url));
      await loader.call('run', rawRequest(2, 1, rawUrl));
      empty(storage);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const rest = {
        restRssBytes: readStatusBytes(pid, 'VmRSS'),
        rawRestRssBytes: readStatusBytes(rawProcess.pid, 'VmRSS'),
      };
      for (let index = 0; index < config.rounds; index += 1) {
        log(
          `round ${index + 1}/${config.rounds}: ${config.sequential} uploads one at a time, then ${config.concurrent} with ${config.concurrency} at once, each to both`,
        );
        for (const [kind, count, atOnce] of phaseKinds(config)) {
          ours[kind].push(await measured(loader, ourRequest(count, atOnce, server.url), pid));
          empty(storage);
          raw[kind].push(await measured(loader, rawRequest(count, atOnce, rawUrl), rawProcess.pid));
        }
      }
      return rest;
    });
    // every upload's temporary directory went when its request ended
    const leftInTmp = readdirSync(uploadTmp).length;

    const mib = round(config.fileBytes / MIB, 2);
    const throughput = (phases: Phase[]) =>
      median(phases.map((phase) => mibPerSecond(phase, config.fileBytes)));
    const perRound = (phases: Phase[]) =>
      phases.map((phase) => round(mibPerSecond(phase, config.fileBytes), 0)).join(', ');
    const cpuMsPerMib = (phases: Phase[]) => {
      const seconds = phases.reduce((sum, phase) => sum + phase.cpuSeconds, 0);
      const files = phases.reduce((sum, phase) => sum + phase.result.times.length, 0);
      return files > 0 ? (seconds * 1000) / ((files * config.fileBytes) / MIB) : 0;
    };
    const peak = (phases: Phase[]) => Math.max(...phases.map((phase) => phase.peakRssBytes));
    const concurrentPeak = peak(ours.concurrent);
    const overallPeak = Math.max(concurrentPeak, peak(ours.sequential));
    const growthMib = (overallPeak - restRssBytes) / MIB;
    const rawGrowthMib = (peak([...raw.sequential, ...raw.concurrent]) - rawRestRssBytes) / MIB;
    const p99 = (phases: Phase[]) =>
      round(
        nearestRank(
          phases.flatMap((phase) => phase.result.times),
          99,
        ),
        0,
      );
    const all = [...ours.sequential, ...ours.concurrent];
    const rawCpu = cpuMsPerMib([...raw.sequential, ...raw.concurrent]);
    const failed = all.reduce((sum, phase) => sum + failures(phase.result), 0);
    const rawFailed = [...raw.sequential, ...raw.concurrent].reduce(
      (sum, phase) => sum + failures(phase.result),
      0,
    );
    const userNote = `${users.length} users in turn, at most ${perUser} uploads each, within the per-user rate of ${USER_BURST} at once`;
    const rounds =
      config.rounds > 1 ? `median of ${config.rounds} rounds` : `${config.rounds} round`;
    report.rows.push(
      ...phaseKinds(config).flatMap(([kind, count]) => {
        const [ourThroughput, rawThroughput] = [throughput(ours[kind]), throughput(raw[kind])];
        const sequential = kind === 'sequential';
        const how = sequential ? 'one at a time' : `${config.concurrency} at once`;
        return [
          info(
            `upload throughput, ${how}${sequential ? ` (${mib} MiB files)` : ''}`,
            round(ourThroughput),
            'MiB/s',
            `${rounds} of ${count} (${perRound(ours[kind])})${sequential ? `; ${userNote}` : ''}`,
          ),
          info(
            `  bare node:http streaming to a file, ${how}`,
            round(rawThroughput),
            'MiB/s',
            `rounds: ${perRound(raw[kind])}`,
          ),
          info('  ÷ bare node:http', round(ourThroughput / rawThroughput, 2), '×'),
        ];
      }),
      info(
        'one upload, p99, one at a time',
        p99(ours.sequential),
        'ms',
        `${config.concurrency} at once: ${p99(ours.concurrent)} ms; bare: ${p99(raw.sequential)} / ${p99(raw.concurrent)} ms`,
      ),
      info(
        'server CPU per MiB uploaded',
        round(cpuMsPerMib(all), 2),
        'ms',
        `bare node:http: ${round(rawCpu, 2)} ms (ours ÷ bare ${round(cpuMsPerMib(all) / rawCpu, 2)}×; the figure least moved by the machine's other work)`,
      ),
      info('server RSS at rest (after 2 warm-up uploads)', round(restRssBytes / MIB), 'MiB'),
      info(
        `server peak RSS, ${config.concurrency} uploads at once`,
        round(concurrentPeak / MIB),
        'MiB',
        `${config.concurrency} files in flight: ${round((config.concurrency * config.fileBytes) / MIB)} MiB together`,
      ),
      atMost(
        `server RSS increase over rest, ${config.rounds * (config.sequential + config.concurrent)} uploads (${config.concurrency} at once)`,
        round(growthMib),
        FLAT_LIMIT_MIB,
        'MiB',
        `peak ${round(overallPeak / MIB)} MiB; the bare server grew ${round(rawGrowthMib)} MiB`,
      ),
      exactly('failed uploads', failed, 0),
    );
    report.checks.uploads = all.reduce((sum, phase) => sum + phase.result.times.length, 0);
    report.checks.failed = failed;
    report.checks.rawFailed = rawFailed;
    report.checks.leftInTmp = leftInTmp;
    const errors = all.flatMap((phase) => phase.result.errors);
    if (errors.length > 0) report.notes.push(`upload errors: ${errors.slice(0, 5).join('; ')}`);
    if (leftInTmp > 0) report.notes.push(`${leftInTmp} upload temp directories were left behind`);
    report.notes.push(
      `Each upload is multipart (one \`file\` field, a PDF by its bytes: \`%PDF-1.4\` then random filler), streamed from one Buffer by a separate load-generator process, with a Bearer token of one user per upload in turn (${userNote}). The server streams it to a temporary file (UPLOAD_TMP_DIR), judges its kind from the first bytes, moves it into its storage directory (STORAGE_URL=file:…, emptied between phases) and records it (SQLite). The bare baseline streams the body (no multipart parsing, no auth) into a file and deletes it. Both servers run side by side; each round runs ours, then the bare one, one at a time, then the same with ${config.concurrency} at once. Throughput = stored bytes ÷ the phase's wall time. RSS sampled every 20 ms from /proc/<pid>/status (VmRSS, and VmHWM when it rose during a phase); rest = after 2 warm-up uploads and 0.5 s idle.`,
    );
    return report;
  },
});
