import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { until } from '../../../test-support/wait.js';
import { loadConfig } from '../config.js';
import { configFromWorkerData, toWorkerData } from './background-protocol.js';
import { createBackgroundThread } from './background-work.js';

describe('the configuration as workerData', () => {
  it('survives a structured clone, URLs included', () => {
    const config = loadConfig({
      SMTP_URL: 'smtp://user:secret@mail.example:2525',
      WEBHOOK_URL: 'https://host.example/hooks',
      WEBHOOK_SECRET: `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
      PUBLIC_URL: 'https://jobs.example/messenger',
    });
    // (Node 24 refuses to clone a URL; Node 20 made it an empty object)
    expect(() => structuredClone(config)).toThrow(/clone/);
    const copy = configFromWorkerData(structuredClone(toWorkerData(config)));
    expect(copy).toEqual(config);
    expect(copy.publicUrl).toBeInstanceOf(URL);
    expect(copy.notifications.smtpUrl?.password).toBe('secret');
    expect(copy.webhook?.url.href).toBe('https://host.example/hooks');
  });
});

describe('the background thread', { timeout: 30_000 }, () => {
  it('is started again, after a growing pause, when it dies; a stop ends the restarts', async () => {
    const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const wentOfflineHere: number[] = [];
    const presenceFallback = {
      announce: async () => 0,
      pairVisibilityChanged: async () => undefined,
      wentOffline: async (userId: number) => {
        wentOfflineHere.push(userId);
      },
    };
    // a database the thread cannot open (its folder would be a file): it dies as it starts
    const file = join(mkdtempSync(join(tmpdir(), 'background-')), 'a-file');
    writeFileSync(file, '');
    const config = loadConfig({ DATABASE_URL: `sqlite:${file}/db.sqlite`, LOG_LEVEL: 'silent' });
    const background = createBackgroundThread({
      config,
      logger,
      presence: { onlineAmong: async () => new Set() },
      publisher: { publish: async () => undefined },
      presenceFallback,
      onOutboxOutcome: () => undefined,
      restartDelay: { baseMs: 50, capMs: 100 },
    });
    const restarts = () =>
      logger.error.mock.calls
        .filter(
          ([, message]) => message === 'background: the thread exited unasked; starting it again',
        )
        .map(([details]) => (details as { restartInMs: number }).restartInMs);
    background.start();
    await until(() => restarts().length >= 3, 'three restarts', 25_000);
    expect(restarts().slice(0, 3)).toEqual([50, 100, 100]);
    // a user who goes offline while the thread is down is not left online: done on this thread
    await background.presenceAnnouncements.wentOffline(7, new Date().toISOString());
    expect(wentOfflineHere).toEqual([7]);
    await background.stop();
    const after = restarts().length;
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(restarts().length).toBe(after);
    rmSync(dirname(file), { recursive: true, force: true });
  });
});
