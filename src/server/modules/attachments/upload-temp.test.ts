import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createUploadDir, removeAbandonedUploads } from './upload-temp.js';

describe('the upload directories left by a killed process', () => {
  const roots: string[] = [];
  afterEach(() =>
    roots.splice(0).forEach((root) => rmSync(root, { recursive: true, force: true })),
  );
  const newRoot = () => {
    const root = mkdtempSync(join(tmpdir(), 'upload-temp-test-'));
    roots.push(root);
    return root;
  };

  it('deletes those of this machine’s dead processes, old ones of other machines, and nothing else', async () => {
    const root = newRoot();
    const live = await createUploadDir(root);
    writeFileSync(join(live, 'upload'), 'in flight');
    // a process of this machine that has ended (its pid in the name)
    const deadPid = spawnSync(process.execPath, ['-e', '0']).pid;
    const own = live.slice(root.length + 1).replace(/-\d+-[A-Za-z0-9]{6}$/, '');
    mkdirSync(join(root, `${own}-${deadPid}-abcdef`));
    // another machine's: young (kept) and a day old (deleted)
    mkdirSync(join(root, `otherhost-123-young1`));
    const old = join(root, `otherhost-124-old111`);
    mkdirSync(old);
    const dayAgo = (Date.now() - 25 * 3600 * 1000) / 1000;
    utimesSync(old, dayAgo, dayAgo);
    // not an upload directory at all: never touched
    mkdirSync(join(root, 'ab'));
    writeFileSync(join(root, 'notes.txt'), 'keep');

    expect(await removeAbandonedUploads(root)).toBe(2);
    expect(readdirSync(root).sort()).toEqual(
      ['ab', 'notes.txt', 'otherhost-123-young1', live.slice(root.length + 1)].sort(),
    );
  });

  it('is quiet when the directory does not exist yet', async () => {
    expect(await removeAbandonedUploads(join(newRoot(), 'missing'))).toBe(0);
  });
});
