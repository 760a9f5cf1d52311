import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { paths } from '../../src/shared/paths.js';
import { createBenchDatabase, seedPairs } from '../lib/database.js';
import { callQuery, readRssBytes, startBenchServer } from '../lib/server.js';
import { spawnWorker, type WorkerHandle } from '../lib/spawn.js';
import {
  atMost,
  bySize,
  exactly,
  info,
  type Checks,
  type ResultRow,
  type Scenario,
} from '../lib/types.js';
import type { UploadRunRequest, UploadRunResult } from '../lib/upload-worker.js';

const MIB = 1024 * 1024;

const SIZES = {
  // a file just under the 10 MiB limit (the multipart envelope is counted too)
  tiny: { pairs: 4, fileBytes: 256 * 1024, sequential: 3, concurrent: 6, concurrency: 3 },
  full: {
    pairs: 20,
    fileBytes: 10 * MIB - 64 * 1024,
    sequential: 20,
    concurrent: 60,
    concurrency: 20,
  },
};

/** The server's resident memory may grow by at most this while 20 uploads of ~10 MiB run at once. */
const FLAT_LIMIT_MIB = 64;

interface Phase {
  result: UploadRunResult;
  peakRssBytes: number;
}

/** Runs uploads while sampling the server's RSS every 20 ms; the peak seen. */
const measured = async (
  loader: WorkerHandle,
  request: UploadRunRequest,
  serverPid: number,
): Promise<Phase> => {
  let peakRssBytes = readRssBytes(serverPid);
  const sampler = setInterval(() => {
    try {
      peakRssBytes = Math.max(peakRssBytes, readRssBytes(serverPid));
    } catch {
      // the process ended
    }
  }, 20);
  try {
    const result = await loader.call<UploadRunResult>('run', request);
    return { result, peakRssBytes };
  } finally {
    clearInterval(sampler);
  }
};

const mibPerSecond = (phase: Phase, fileBytes: number): number =>
  (phase.result.times.length * fileBytes) / MIB / phase.result.seconds;

const failures = (result: UploadRunResult): number =>
  Object.entries(result.statuses)
    .filter(([status]) => status !== '201')
    .reduce((sum, [, count]) => sum + count, 0);

const round = (value: number, digits = 1): number => Number(value.toFixed(digits));

/** The `p`-th percentile of some times (nearest rank). */
const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};

/**
 * Upload throughput (issue 16): `POST /user/attachments` with files just under 10 MiB, one at a
 * time and 20 at once, against a bare node:http server that streams the body to a file; and the
 * server's memory while the 20 run (it must stay flat: uploads are streamed to disk, never held).
 */
export const uploads: Scenario = {
  name: 'uploads',
  title: 'Uploads of ~10 MiB files: throughput, and memory while 20 run at once',
  run: async ({ size, log, profileDir }) => {
    const config = bySize(size, SIZES);
    const bench = await createBenchDatabase('sqlite', 'uploads');
    const storage = mkdtempSync(join(tmpdir(), 'bench-uploads-'));
    const loader = await spawnWorker('upload-worker.ts', { deadlineMs: 600_000 });
    const rows: ResultRow[] = [];
    const checks: Checks = {};
    const notes: string[] = [];
    try {
      const pairs = await seedPairs(bench, config.pairs);
      await bench.close();
      // one user per upload in turn: 2 × pairs users, each within the per-user upload rate
      const users = pairs.flatMap((pair) => [pair.candidate, pair.company]);
      const headersByUser = users.map((user) => ({ authorization: `Bearer ${user.token}` }));
      const base = {
        path: `${paths.attachments}?${callQuery}`,
        headersByUser,
        fileBytes: config.fileBytes,
      };

      log(`messenger (SQLite, file storage): ${config.sequential} uploads one at a time`);
      const server = await startBenchServer({
        databaseUrl: bench.url,
        profileDir,
        env: { STORAGE_URL: `file:${storage}` },
      });
      const pid = server.child.pid ?? 0;
      let ours: { sequential: Phase; concurrent: Phase; restRssBytes: number };
      try {
        // warm up (JIT, the first storage folders), then the server at rest
        await loader.call('run', { ...base, url: server.url, count: 2, concurrency: 1 });
        await new Promise((resolve) => setTimeout(resolve, 500));
        const restRssBytes = readRssBytes(pid);
        const sequential = await measured(
          loader,
          { ...base, url: server.url, count: config.sequential, concurrency: 1 },
          pid,
        );
        log(`messenger: ${config.concurrent} uploads, ${config.concurrency} at once`);
        const concurrent = await measured(
          loader,
          {
            ...base,
            // the next users in turn: none over their upload rate
            headersByUser: [...headersByUser.slice(1), headersByUser[0]!],
            url: server.url,
            count: config.concurrent,
            concurrency: config.concurrency,
          },
          pid,
        );
        ours = { sequential, concurrent, restRssBytes };
      } finally {
        await server.stop();
      }

      log('bare node:http streaming the body to a file');
      const rawProcess = await spawnWorker('raw-upload-server.ts', { deadlineMs: 600_000 });
      let raw: { sequential: Phase; concurrent: Phase };
      try {
        const { port } = await rawProcess.call<{ port: number }>('listen');
        const url = `http://127.0.0.1:${port}`;
        await loader.call('run', { ...base, path: '/upload', url, count: 2, concurrency: 1 });
        raw = {
          sequential: await measured(
            loader,
            { ...base, path: '/upload', url, count: config.sequential, concurrency: 1 },
            rawProcess.pid,
          ),
          concurrent: await measured(
            loader,
            {
              ...base,
              path: '/upload',
              url,
              count: config.concurrent,
              concurrency: config.concurrency,
            },
            rawProcess.pid,
          ),
        };
      } finally {
        await rawProcess.stop();
      }

      const mib = round(config.fileBytes / MIB, 2);
      const ourSequential = mibPerSecond(ours.sequential, config.fileBytes);
      const rawSequential = mibPerSecond(raw.sequential, config.fileBytes);
      const ourConcurrent = mibPerSecond(ours.concurrent, config.fileBytes);
      const rawConcurrent = mibPerSecond(raw.concurrent, config.fileBytes);
      const peakRssBytes = Math.max(ours.sequential.peakRssBytes, ours.concurrent.peakRssBytes);
      const growthMib = (peakRssBytes - ours.restRssBytes) / MIB;
      const p99 = (phase: Phase) => round(percentile(phase.result.times, 99), 0);
      rows.push(
        info(
          `upload throughput, one at a time (${mib} MiB files)`,
          round(ourSequential),
          'MiB/s',
          `bare node:http to a file: ${round(rawSequential)} MiB/s`,
        ),
        info('  ÷ bare node:http', round(ourSequential / rawSequential, 2), '×'),
        info(
          `upload throughput, ${config.concurrency} at once`,
          round(ourConcurrent),
          'MiB/s',
          `bare node:http: ${round(rawConcurrent)} MiB/s`,
        ),
        info('  ÷ bare node:http', round(ourConcurrent / rawConcurrent, 2), '×'),
        info(
          `one upload, p99 (one at a time / ${config.concurrency} at once)`,
          p99(ours.sequential),
          'ms',
          `${config.concurrency} at once: ${p99(ours.concurrent)} ms`,
        ),
        info('server RSS at rest (after 2 warm-up uploads)', round(ours.restRssBytes / MIB), 'MiB'),
        atMost(
          `server RSS growth over ${config.sequential + config.concurrent} uploads (${config.concurrency} at once)`,
          round(growthMib),
          FLAT_LIMIT_MIB,
          'MiB',
          `peak ${round(peakRssBytes / MIB)} MiB; ${config.concurrency} files at once: ${round((config.concurrency * config.fileBytes) / MIB)} MiB`,
        ),
        exactly(
          'failed uploads',
          failures(ours.sequential.result) + failures(ours.concurrent.result),
          0,
        ),
      );
      checks.uploads = ours.sequential.result.times.length + ours.concurrent.result.times.length;
      checks.failed = failures(ours.sequential.result) + failures(ours.concurrent.result);
      checks.rawFailed = failures(raw.sequential.result) + failures(raw.concurrent.result);
      const errors = [...ours.sequential.result.errors, ...ours.concurrent.result.errors];
      if (errors.length > 0) notes.push(`upload errors: ${errors.join('; ')}`);
      notes.push(
        'Each upload is multipart (one `file` field, a PDF by its bytes), from a separate load-generator process, one user per upload in turn (per-user upload rate); the server streams it to a temporary file, judges its kind from the first bytes, and stores it (local directory). RSS sampled every 20 ms from /proc.',
      );
    } finally {
      await loader.stop();
      await bench.drop();
      rmSync(storage, { recursive: true, force: true });
    }
    return { rows, checks, notes };
  },
};
