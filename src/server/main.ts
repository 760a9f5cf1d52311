import cluster from 'node:cluster';
import { runClusterPrimary } from './cluster-primary.js';
import { loadConfig, type Config } from './config.js';
import { serveInstance } from './serve-instance.js';

/**
 * `npm start` / `node dist/server/main.js`: one process serving (WEB_CONCURRENCY=1), or a primary
 * and that many workers sharing the port (docs/operations.md).
 */
const main = async () => {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    // a setting that cannot work: say which, without a stack trace
    console.error(`The messenger cannot start: ${(error as Error).message}`);
    process.exit(1);
  }
  if (config.webConcurrency === 1) await serveInstance(config, { role: 'single' });
  else if (cluster.isPrimary) await runClusterPrimary(config);
  else await serveInstance(config, { role: 'worker' });
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
