#!/usr/bin/env node
// Fails when relative imports form a cycle (in src/, test-support/, e2e/, faults/, bench/).
// A plain reader of import specifiers: `x.js` is the TypeScript file `x.ts` / `x.tsx` beside it.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const roots = ['src', 'test-support', 'e2e', 'faults', 'bench'].map((dir) => join(root, dir));
const SOURCE = /\.(ts|tsx|mts)$/;
const SPECIFIER =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

const files = [];
const walk = (dir) => {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry === 'results') continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) walk(path);
    else if (SOURCE.test(entry)) files.push(path);
  }
};
roots.forEach(walk);

const resolveImport = (from, specifier) => {
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(js|jsx|mjs)$/, '');
  for (const candidate of [`${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, join(base, 'index.ts')])
    if (existsSync(candidate)) return candidate;
  return null;
};

const graph = new Map();
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const targets = new Set();
  for (const match of text.matchAll(SPECIFIER)) {
    const target = resolveImport(file, match[1] ?? match[2]);
    if (target) targets.add(target);
  }
  graph.set(file, [...targets]);
}

// Depth-first search; a back edge to a file on the current path is a cycle.
const state = new Map(); // 1 = on the path, 2 = done
const cycles = [];
const path = [];
const visit = (file) => {
  state.set(file, 1);
  path.push(file);
  for (const next of graph.get(file) ?? []) {
    if (state.get(next) === 1) cycles.push([...path.slice(path.indexOf(next)), next]);
    else if (!state.has(next)) visit(next);
  }
  path.pop();
  state.set(file, 2);
};
for (const file of graph.keys()) if (!state.has(file)) visit(file);

if (cycles.length > 0) {
  for (const cycle of cycles)
    console.error(`import cycle: ${cycle.map((file) => relative(root, file)).join(' → ')}`);
  process.exit(1);
}
console.log(`no import cycles (${graph.size} files)`);
