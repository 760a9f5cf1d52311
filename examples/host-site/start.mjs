// `npm run example:host-site`: the messenger on http://127.0.0.1:<P1> and the example job board on
// http://localhost:<P2> (another site, so the messenger's frames are third-party), together.
// Builds first when dist/ is missing; the messenger runs on a throw-away SQLite database, no demo data.
import { execSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MESSENGER_PORT = Number(process.env.MESSENGER_PORT ?? 3100);
const BOARD_PORT = Number(process.env.PORT ?? 4100);
const messengerUrl = `http://127.0.0.1:${MESSENGER_PORT}`;
const boardUrl = `http://localhost:${BOARD_PORT}`;
const integrationKey = randomBytes(32).toString('hex');
const ssoSecret = randomBytes(32).toString('hex');
const work = mkdtempSync(join(tmpdir(), 'host-site-'));

if (!existsSync('dist/server/main.js') || !existsSync('dist/web/embed.js')) {
  console.log('Building…');
  execSync('npm run build --silent', { stdio: 'inherit' });
}

const children = [];
const running = () =>
  children.filter((child) => child.exitCode === null && child.signalCode === null);
let stopping = false;
/** Ends both (a Ctrl-C has already reached them: they get a moment to stop on their own). */
const stop = async (code = 0, graceMs = 0) => {
  if (stopping) return;
  stopping = true;
  const deadline = Date.now() + graceMs;
  while (running().length > 0 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 100));
  for (const child of running()) child.kill('SIGTERM');
  await Promise.all(
    running().map((child) => new Promise((resolve) => child.once('exit', resolve))),
  );
  rmSync(work, { recursive: true, force: true });
  process.exit(code);
};
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void stop(0, 3_000));

const messenger = spawn(process.execPath, ['dist/server/main.js'], {
  env: {
    ...process.env,
    PORT: String(MESSENGER_PORT),
    HOST: '127.0.0.1',
    PUBLIC_URL: messengerUrl,
    DATABASE_URL: `sqlite:${join(work, 'messenger.db')}`,
    STORAGE_URL: `file:${join(work, 'uploads')}`,
    MAIL_DIR: join(work, 'mail'),
    DEMO_SEED: 'off',
    EMBED_ORIGINS: boardUrl,
    INTEGRATION_KEYS: integrationKey,
    SSO_SECRET: ssoSecret,
    SITE_NAME: 'Harbour Jobs',
    // no load balancer drains it: stop at once on Ctrl-C
    SHUTDOWN_DELAY_SECONDS: '0',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
children.push(messenger);
messenger.on('exit', (code) => {
  if (stopping) return;
  console.error(`the messenger stopped (${code})`);
  void stop(code ?? 1);
});

for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${messengerUrl}/readyz`)).ok) break;
  } catch {
    // not listening yet
  }
  if (i > 150) {
    console.error('the messenger did not start');
    await stop(1);
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
}

const board = spawn(process.execPath, ['--import', 'tsx', 'examples/host-site/main.ts'], {
  env: {
    ...process.env,
    MESSENGER_URL: messengerUrl,
    INTEGRATION_KEY: integrationKey,
    SSO_SECRET: ssoSecret,
    PORT: String(BOARD_PORT),
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
children.push(board);
board.on('exit', (code) => {
  if (stopping) return;
  console.error(`the board stopped (${code})`);
  void stop(code ?? 1);
});
board.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  if (String(chunk).includes('is running at'))
    console.log(
      [
        '',
        `  messenger:  ${messengerUrl}   (EMBED_ORIGINS=${boardUrl})`,
        `  job board:  ${boardUrl}/           the inbox in the dashboard, the badge in the header`,
        `              ${boardUrl}/jobs/job-1001   "Message the candidate" on a job page`,
        `              ${boardUrl}/react       the React component`,
        `  signed in on the board as Nile Recruiting; ?as=sara-haddad or ?as=omar-khalil switches`,
        '',
      ].join('\n'),
    );
});
