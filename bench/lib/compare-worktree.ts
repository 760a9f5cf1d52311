/**
 * The other build of `npm run bench -- --compare <ref>`: the ref checked out in a temporary git
 * worktree, with this checkout's node_modules linked in (or `npm ci` when the lock files differ),
 * built, and removed again at the end.
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  unlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export interface RefCheckout {
  ref: string;
  /** The commit the ref named when the worktree was made. */
  commit: string;
  dir: string;
  /** How its dependencies came: this checkout's node_modules linked in, or `npm ci`. */
  dependencies: 'symlink' | 'npm ci';
}

const git = (cwd: string, args: string[]): string =>
  execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/** The commit `ref` names in the repository of `root`; throws a readable error when it names none. */
export const resolveCommit = (root: string, ref: string): string => {
  try {
    return git(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  } catch {
    throw new Error(`--compare: "${ref}" names no commit of this repository`);
  }
};

/** The checkout's commit, short, with "+ changes" when its work tree differs from it. */
export const describeCheckout = (root: string): string => {
  const commit = git(root, ['rev-parse', '--short', 'HEAD']);
  const changed = git(root, ['status', '--porcelain', '--untracked-files=no']) !== '';
  return changed ? `${commit} + uncommitted changes` : commit;
};

/**
 * What the bench runner of a checkout can do for a comparison; a reason when it cannot: no
 * runner at all, or one without a JSON file of its results (`--out`).
 */
export const runnerProblem = (dir: string): string | null => {
  const runner = join(dir, 'bench/run.ts');
  if (!existsSync(runner)) return 'it has no bench/run.ts';
  const text = readFileSync(runner, 'utf8');
  if (!/\bout:\s*\{\s*type:\s*'string'/.test(text))
    return 'its bench/run.ts writes no JSON file of its results (no --out option)';
  return null;
};

const run = (
  command: string,
  args: string[],
  cwd: string,
  log: (message: string) => void,
): void => {
  log(`${cwd}: ${command} ${args.join(' ')}`);
  execFileSync(command, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });
};

/** Removes the worktree (its node_modules link first, never what it points to). */
export const removeCheckout = (root: string, dir: string): void => {
  const modules = join(dir, 'node_modules');
  try {
    if (lstatSync(modules).isSymbolicLink()) unlinkSync(modules);
  } catch {
    // no node_modules
  }
  try {
    git(root, ['worktree', 'remove', '--force', dir]);
  } catch {
    rmSync(dir, { recursive: true, force: true });
    try {
      git(root, ['worktree', 'prune']);
    } catch {
      // nothing to prune
    }
  }
  rmSync(resolve(dir, '..'), { recursive: true, force: true });
};

/**
 * Checks `ref` out in a new temporary worktree, links or installs its dependencies and builds it.
 * `onCreated` gets the directory as soon as it exists (so that an interrupted build still removes
 * it). Throws when the ref's runner cannot take part in a comparison.
 */
export const prepareCheckout = (
  root: string,
  ref: string,
  log: (message: string) => void,
  onCreated: (dir: string) => void,
): RefCheckout => {
  const commit = resolveCommit(root, ref);
  const dir = join(mkdtempSync(join(tmpdir(), 'bench-compare-')), 'b');
  try {
    run('git', ['worktree', 'add', '--detach', dir, commit], root, log);
  } catch (error) {
    rmSync(resolve(dir, '..'), { recursive: true, force: true });
    throw error;
  }
  onCreated(dir);
  const problem = runnerProblem(dir);
  if (problem)
    throw new Error(
      `--compare: ${ref} (${commit.slice(0, 10)}) cannot be compared: ${problem}. ` +
        'Compare with a commit whose runner writes its results with --out.',
    );
  const locksEqual =
    readFileSync(join(root, 'package-lock.json'), 'utf8') ===
    readFileSync(join(dir, 'package-lock.json'), 'utf8');
  let dependencies: RefCheckout['dependencies'];
  if (locksEqual) {
    symlinkSync(realpathSync(join(root, 'node_modules')), join(dir, 'node_modules'), 'dir');
    dependencies = 'symlink';
    log(`B: package-lock.json as in this checkout: node_modules linked from this checkout`);
  } else {
    log(`B: package-lock.json differs from this checkout's: npm ci in ${dir}`);
    run('npm', ['ci', '--no-audit', '--no-fund'], dir, log);
    dependencies = 'npm ci';
  }
  run('npm', ['run', 'build'], dir, log);
  return { ref, commit, dir, dependencies };
};
