import type { Config } from './config.js';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './db/seed.js';

/** Prints where the messenger answers and, on a demo, the accounts to sign in with. */
export const announceRunning = (config: Config, demo: boolean, workers = 1) => {
  const address = `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`;
  const served = workers > 1 ? ` (${workers} workers)` : '';
  const lines = [`Messenger is running at ${address}/messages${served}`];
  if (demo) {
    lines.push(`Demo accounts (password "${DEMO_PASSWORD}"):`);
    for (const account of DEMO_ACCOUNTS)
      lines.push(`  ${account.email.padEnd(24)} ${account.role.padEnd(10)} ${account.name}`);
  }
  console.log(lines.join('\n'));
};
