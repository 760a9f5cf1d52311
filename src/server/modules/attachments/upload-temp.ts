import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Where an upload is streamed before it is judged and stored: one directory per upload under
 * `root`, named after the process (`<pid>-…`). A process killed mid-upload (`kill -9`) leaves its
 * directory behind; `removeAbandonedUploads` (run by every instance's attachment sweep, and at
 * start) deletes those of processes that no longer run, and anything older than a day whatever it
 * is (a reused pid, another machine sharing the directory).
 */
export const createUploadDir = async (root: string): Promise<string> => {
  await mkdir(root, { recursive: true });
  return mkdtemp(join(root, `${process.pid}-`));
};

const ABANDONED_AFTER_MS = 24 * 3600 * 1000;

const isRunning = (pid: number): boolean => {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Deletes the upload directories left by processes that died; how many went. */
export const removeAbandonedUploads = async (root: string, now = Date.now()): Promise<number> => {
  let entries: string[];
  try {
    entries = await readdir(root);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let removed = 0;
  for (const entry of entries) {
    const pid = Number(entry.split('-', 1)[0]);
    const path = join(root, entry);
    const abandoned =
      !Number.isInteger(pid) || pid <= 0 || !isRunning(pid)
        ? true
        : now - (await stat(path).catch(() => ({ mtimeMs: now }))).mtimeMs > ABANDONED_AFTER_MS;
    if (!abandoned) continue;
    await rm(path, { recursive: true, force: true });
    removed += 1;
  }
  return removed;
};
