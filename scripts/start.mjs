// `npm start` on a fresh clone: install what is missing, build, then migrate, seed and serve.
import { execSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

// The Node it needs (package.json's engines): the major of .node-version, the version CI pins.
const pinned = readFileSync('.node-version', 'utf8').trim().replace(/^v/, '');
const needed = Number(pinned.split('.')[0]);
if (Number(process.versions.node.split('.')[0]) < needed) {
  console.error(
    [
      `The messenger needs Node ${needed} or later; this is Node ${process.version} (${process.execPath}).`,
      `Install Node ${needed} (https://nodejs.org/en/download, or your system's packages) and run npm start again.`,
      `Or fetch Node ${pinned} from the npm registry, the way CI does, and put it first on PATH:`,
      `  scripts/install-node.sh    # as root: into /opt/node-${pinned}`,
      `  export PATH=/opt/node-${pinned}/bin:$PATH`,
      `  npm start`,
      `(Without root: NODE_INSTALL_ROOT=$HOME/.local scripts/install-node.sh, then $HOME/.local/node-${pinned}/bin.)`,
    ].join('\n'),
  );
  process.exit(1);
}

// Native modules (better-sqlite3, compiled where no prebuilt binary can be downloaded) are built
// against this Node's own headers when it has them beside it (official builds do), whatever
// nodedir an npmrc names.
const nodeDir = dirname(dirname(process.execPath));
const env = existsSync(join(nodeDir, 'include/node/node.h'))
  ? { ...process.env, npm_config_nodedir: nodeDir }
  : process.env;
const run = (command) => execSync(command, { stdio: 'inherit', env });

if (!existsSync('node_modules/.package-lock.json')) {
  console.log('Installing dependencies…');
  run('npm ci --no-audit --no-fund');
} else {
  // Installed under another Node (e.g. before moving to Node 24): its compiled addon cannot load.
  try {
    const Database = createRequire(import.meta.url)('better-sqlite3');
    new Database(':memory:').close();
  } catch (error) {
    if (!/NODE_MODULE_VERSION|ERR_DLOPEN_FAILED|Could not locate the bindings/.test(String(error)))
      throw error;
    console.log(`Rebuilding better-sqlite3 for Node ${process.version}…`);
    run('npm rebuild better-sqlite3');
  }
}
console.log('Building…');
run('npm run build --silent');

const server = spawn(process.execPath, ['dist/server/main.js'], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
