/**
 * Summarizes V8 CPU profiles (`.cpuprofile`, as written with `npm run bench -- --profile <dir>`):
 * self time by function and by package, and inclusive time of named functions.
 * `tsx bench/lib/profile-summary.ts <file|dir> [top] [name,name,…]`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
}

export interface ProfileSummary {
  totalMs: number;
  /** Inclusive time of functions named in `focus` (outermost frame of each name only). */
  inclusive: { name: string; ms: number; share: number }[];
  byFunction: { name: string; ms: number; share: number }[];
  byPackage: { name: string; ms: number; share: number }[];
}

const packageOf = (url: string): string => {
  if (!url) return '(native/v8)';
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1]!;
  if (url.startsWith('node:')) return url;
  const dist = /\/dist\/(.+)$/.exec(url);
  if (dist) return `app: ${dist[1]!.split('/').slice(0, -1).join('/') || '.'}`;
  return url;
};

const inclusiveTimes = (
  profile: CpuProfile,
  focus: string[],
  msPerSample: number,
  totalSamples: number,
) => {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const childIds = new Set(profile.nodes.flatMap((node) => node.children ?? []));
  const totals = new Map<string, number>();
  const walk = (id: number, open: Set<string>): number => {
    const node = byId.get(id);
    if (!node) return 0;
    const name = node.callFrame.functionName;
    const counts = focus.includes(name) && !open.has(name);
    const inner = counts ? new Set([...open, name]) : open;
    let hits = node.hitCount ?? 0;
    for (const child of node.children ?? []) hits += walk(child, inner);
    if (counts) totals.set(name, (totals.get(name) ?? 0) + hits);
    return hits;
  };
  for (const node of profile.nodes) if (!childIds.has(node.id)) walk(node.id, new Set());
  return focus.map((name) => ({
    name,
    ms: Math.round((totals.get(name) ?? 0) * msPerSample),
    share: Math.round(((totals.get(name) ?? 0) / totalSamples) * 1000) / 10,
  }));
};

export const summarizeProfile = (
  profile: CpuProfile,
  top = 25,
  focus: string[] = [],
): ProfileSummary => {
  const totalSamples = profile.nodes.reduce((sum, node) => sum + (node.hitCount ?? 0), 0) || 1;
  const totalMs = (profile.endTime - profile.startTime) / 1000;
  const msPerSample = totalMs / totalSamples;
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    if (hits === 0) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const short = url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/dist\//, 'dist/');
    const key = `${functionName || '(anonymous)'} ${short}:${lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + hits);
    const pkg =
      functionName === '(garbage collector)'
        ? '(gc)'
        : functionName === '(idle)'
          ? '(idle)'
          : packageOf(url);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + hits);
  }
  const rank = (map: Map<string, number>) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, hits]) => ({
        name,
        ms: Math.round(hits * msPerSample),
        share: Math.round((hits / totalSamples) * 1000) / 10,
      }));
  return {
    totalMs: Math.round(totalMs),
    inclusive: inclusiveTimes(profile, focus, msPerSample, totalSamples),
    byFunction: rank(byFunction),
    byPackage: rank(byPackage),
  };
};

const main = () => {
  const target = process.argv[2];
  const top = Number(process.argv[3] ?? 25);
  const focus = (process.argv[4] ?? '').split(',').filter(Boolean);
  if (!target) {
    console.error('usage: tsx bench/lib/profile-summary.ts <file.cpuprofile|dir> [top]');
    process.exit(2);
  }
  const files = statSync(target).isDirectory()
    ? readdirSync(target)
        .filter((file) => file.endsWith('.cpuprofile'))
        .map((file) => join(target, file))
    : [target];
  for (const file of files) {
    const summary = summarizeProfile(
      JSON.parse(readFileSync(file, 'utf8')) as CpuProfile,
      top,
      focus,
    );
    console.log(`\n${file}: ${summary.totalMs} ms`);
    if (focus.length > 0) console.log('  inclusive:');
    for (const row of summary.inclusive)
      console.log(`    ${String(row.share).padStart(5)}%  ${row.ms} ms  ${row.name}`);
    console.log('  by package:');
    for (const row of summary.byPackage)
      console.log(`    ${String(row.share).padStart(5)}%  ${row.ms} ms  ${row.name}`);
    console.log('  by function (self):');
    for (const row of summary.byFunction)
      console.log(`    ${String(row.share).padStart(5)}%  ${row.ms} ms  ${row.name}`);
  }
};

if (process.argv[1] && import.meta.filename === process.argv[1]) main();
