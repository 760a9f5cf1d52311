/**
 * The container (contract "Operating it", Container): `scripts/container-check.sh` builds the
 * Dockerfile with podman on a local stand-in for node:24-bookworm-slim (these machines cannot pull
 * it, and refuse `podman run`), starts the image's own command by chroot into the mounted image,
 * and checks `/healthz`, the image's HEALTHCHECK, its non-root user, the database under `/data`, an
 * online SQLite backup and a clean stop on SIGTERM (docs/deploy.md).
 *
 * It needs root, podman and debootstrap: without them it is skipped, except in CI (`.ci/run`
 * installs them), where it fails instead.
 */
import { spawn, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { settings } from '../test-support/settings.js';

const SCRIPT = resolve(import.meta.dirname, '../scripts/container-check.sh');
/** The script's own bound (CONTAINER_CHECK_TIMEOUT); a cold build takes 3 to 4 minutes here. */
const SCRIPT_TIMEOUT_SECONDS = 1200;

const hasCommand = (name: string) => spawnSync('sh', ['-c', `command -v ${name}`]).status === 0;
const missing = [
  ...(process.getuid?.() === 0 ? [] : ['root']),
  ...['podman', 'debootstrap', 'unshare', 'chroot'].filter((name) => !hasCommand(name)),
];

const runCheck = (env: Record<string, string>) =>
  new Promise<{ status: number | null; output: string }>((done) => {
    // niced: whatever else runs on the machine keeps its own timing (its own project, run last).
    const child = spawn('nice', ['-n', '10', SCRIPT], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (status) => done({ status, output }));
  });

describe('the container image', () => {
  test.skipIf(missing.length > 0 && !settings.ci)(
    'builds, and its server starts as a non-root user, answers /healthz and stops cleanly',
    async () => {
      if (missing.length > 0)
        throw new Error(`CI needs ${missing.join(', ')} (apt-get install podman debootstrap)`);
      const { status, output } = await runCheck({
        // A tag of this run's own: other worktrees on the machine build and mount theirs.
        IMAGE: `localhost/jobboard-messenger:check-${process.pid}`,
        REMOVE_IMAGE: '1',
        CONTAINER_CHECK_TIMEOUT: String(SCRIPT_TIMEOUT_SECONDS),
        CHECK_PATH: '/healthz',
      });
      expect(status, output.split('\n').slice(-40).join('\n')).toBe(0);
      expect(output).toMatch(/GET \/healthz → 200/);
      expect(output).toMatch(/HEALTHCHECK passed/);
      expect(output).toMatch(/SIGTERM: exited 0/);
    },
    (SCRIPT_TIMEOUT_SECONDS + 60) * 1000,
  );
});
