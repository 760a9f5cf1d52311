// Runs shell commands side by side (e.g. two `vitest run` invocations), each output line prefixed
// with its command's label; exits non-zero when any of them failed, after all of them ended (so every
// failure is reported). Usage: node test-support/run-together.mjs <label>=<command> ...
//
// Why: CI time. The static checks (lint, format check, typecheck) only read the sources and each
// keeps one core busy, so they need not wait for one another. And a few slow tests mostly wait (the
// 3-minute disconnects of the fault suite): vitest runs the files of projects that disable file
// parallelism strictly one after another, so those waits run in a vitest process of their own
// instead of holding up the other fault files.
import { spawn } from 'node:child_process';

const jobs = process.argv.slice(2).map((argument) => {
  const split = argument.indexOf('=');
  if (split <= 0) throw new Error(`expected <label>=<command>, got ${argument}`);
  return { label: argument.slice(0, split), command: argument.slice(split + 1) };
});
if (jobs.length === 0) throw new Error('usage: run-together.mjs <label>=<command> ...');

const width = Math.max(...jobs.map((job) => job.label.length));

/** Writes whole lines with the prefix; keeps a partial last line until the rest arrives. */
const prefixer = (prefix, out) => {
  let pending = '';
  return {
    write: (chunk) => {
      const lines = (pending + chunk.toString()).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) out.write(`${prefix}${line}\n`);
    },
    flush: () => {
      if (pending) out.write(`${prefix}${pending}\n`);
      pending = '';
    },
  };
};

const children = [];
// An interrupted run stops its commands too (CI cancelling, Ctrl+C).
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
  });

const results = await Promise.all(
  jobs.map(
    ({ label, command }) =>
      new Promise((resolve) => {
        const prefix = `[${label.padEnd(width)}] `;
        const stdout = prefixer(prefix, process.stdout);
        const stderr = prefixer(prefix, process.stderr);
        const started = Date.now();
        const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
        children.push(child);
        child.stdout.on('data', stdout.write);
        child.stderr.on('data', stderr.write);
        child.on('error', (error) => {
          stderr.write(`${error.message}\n`);
        });
        child.on('close', (code, signal) => {
          stdout.flush();
          stderr.flush();
          const seconds = ((Date.now() - started) / 1000).toFixed(1);
          const outcome = code === 0 ? 'passed' : `failed (${signal ?? `exit ${code}`})`;
          process.stdout.write(`${prefix}${command}: ${outcome} after ${seconds} s\n`);
          resolve(code === 0);
        });
      }),
  ),
);

process.exitCode = results.every(Boolean) ? 0 : 1;
