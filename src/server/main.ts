import cluster from 'node:cluster';
import { ConfigError, loadConfig, unknownSettingWarnings, type Config } from './config.js';
import { helpText } from './config/config-reference.js';

/**
 * `npm start` / `node dist/server/main.js`: one process serving (WEB_CONCURRENCY=1), or a primary
 * and that many workers sharing the port (docs/operations.md). `--help` prints the settings and
 * `--check` checks the environment; neither opens a database, Redis or a socket.
 */
const USAGE = 'node dist/server/main.js --help lists the options and settings.';

/** The configuration, or the reasons there is none (plain sentences; other errors are thrown). */
const readConfig = ():
  { config: Config; problems?: undefined } | { problems: readonly string[] } => {
  try {
    return { config: loadConfig() };
  } catch (error) {
    if (error instanceof ConfigError) return { problems: error.problems };
    throw error;
  }
};

const warningLines = () => unknownSettingWarnings().map((warning) => `Warning: ${warning}`);

const check = async () => {
  const read = readConfig();
  if (read.problems) {
    console.error(
      [
        `The configuration is not valid:`,
        ...read.problems.map((p) => `  ${p}`),
        ...warningLines(),
      ].join('\n'),
    );
    process.exitCode = 1;
    return;
  }
  const { featureLines } = await import('./process/startup-banner.js');
  console.log(
    ['The configuration is valid.', ...featureLines(read.config), ...warningLines()].join('\n'),
  );
};

const serve = async () => {
  const worker = !cluster.isPrimary;
  const read = readConfig();
  if (read.problems) {
    // a setting that cannot work: say which, in words, without a stack trace (and the look-alikes,
    // which may be why)
    console.error(
      [
        `The messenger cannot start:`,
        ...read.problems.map((p) => `  ${p}`),
        ...(worker ? [] : warningLines()),
      ].join('\n'),
    );
    process.exit(1);
  }
  const { config } = read;
  // the primary (or the only process) logs them once, as warnings of the server's JSON log
  if (!worker) {
    const warnings = unknownSettingWarnings();
    if (warnings.length > 0) {
      const { pino } = await import('pino');
      const log = pino({ level: config.logLevel });
      for (const warning of warnings) log.warn({ setting: warning.split(' ')[0] }, warning);
    }
  }
  if (config.webConcurrency === 1) {
    const { serveInstance } = await import('./process/serve-instance.js');
    await serveInstance(config, { role: 'single' });
  } else if (!worker) {
    const { runClusterPrimary } = await import('./process/cluster-primary.js');
    await runClusterPrimary(config);
  } else {
    const { serveInstance } = await import('./process/serve-instance.js');
    await serveInstance(config, { role: 'worker' });
  }
};

const main = async () => {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(helpText());
    return;
  }
  const unknown = args.find((arg) => arg !== '--check');
  if (unknown !== undefined) {
    console.error(`Unknown option ${JSON.stringify(unknown)}: ${USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (args.includes('--check')) await check();
  else await serve();
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
