import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';

/**
 * Where an upload is streamed before it is judged and stored: one directory per upload under
 * `root`, named after the machine and the process (`<host>-<pid>-…`). A process killed mid-upload
 * (`kill -9`) leaves its directory behind; `removeAbandonedUploads` (run by every instance's
 * attachment sweep, and at start) deletes those of this machine's processes that no longer run,
 * and those of other machines (a shared directory) only once older than a day. Anything else in
 * the directory is never touched (but the directory should be the messenger's own).
 */
const OWN_PREFIX = `${hostname().replace(/[^A-Za-z0-9.]/g, '_')}-`;
const UPLOAD_DIR = /^([A-Za-z0-9._]+)-(\d+)-[A-Za-z0-9]{6}$/;

export const createUploadDir = async (root: string): Promise<string> => {
  await mkdir(root, { recursive: true });
  return mkdtemp(join(root, `${OWN_PREFIX}${process.pid}-`));
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
    const match = UPLOAD_DIR.exec(entry);
    if (!match) continue;
    const path = join(root, entry);
    const here = `${match[1]}-` === OWN_PREFIX;
    const abandoned =
      (here && !isRunning(Number(match[2]))) ||
      now - (await stat(path).catch(() => ({ mtimeMs: now }))).mtimeMs > ABANDONED_AFTER_MS;
    if (!abandoned) continue;
    await rm(path, { recursive: true, force: true });
    removed += 1;
  }
  return removed;
};
