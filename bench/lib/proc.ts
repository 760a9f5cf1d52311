/** CPU and memory counters of processes and of the machine, read from /proc. */
import { readdirSync, readFileSync } from 'node:fs';
import type { DialectName } from '../../src/server/db/database.js';

/** Jiffies per second in /proc (`stat` files). */
export const CLOCK_TICKS = 100;

/** A `kB` field of /proc/<pid>/status (VmRSS: resident now, VmHWM: its peak), in bytes. */
export const readStatusBytes = (pid: number, field: 'VmRSS' | 'VmHWM'): number => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
};

/** A /proc/<pid>/stat line: the command name, and the fields after it (which may hold spaces). */
const parseStat = (stat: string) => {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return {
    command: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
    parent: Number(fields[1]),
    // utime and stime are the 12th and 13th fields after the command name
    cpuSeconds: (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS,
  };
};

export const readCpuSeconds = (pid: number): number =>
  parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8')).cpuSeconds;

/** Every process's pid and stat (processes that end meanwhile are left out). */
const eachProcess = (visit: (pid: number, stat: ReturnType<typeof parseStat>) => void): void => {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      visit(Number(entry), parseStat(readFileSync(`/proc/${entry}/stat`, 'utf8')));
    } catch {
      // the process ended meanwhile
    }
  }
};

/** `pid` and every process below it (a clustered server's workers), `pid` first. */
export const processTree = (pid: number): number[] => {
  const parents = new Map<number, number>();
  eachProcess((member, stat) => parents.set(member, stat.parent));
  const tree = [pid];
  for (let i = 0; i < tree.length; i += 1)
    for (const [child, parent] of parents) if (parent === tree[i]) tree.push(child);
  return tree;
};

/** CPU time used so far by every process with this command name (e.g. all `postgres` processes). */
export const readCommandCpuSeconds = (command: string): number => {
  let total = 0;
  eachProcess((_pid, stat) => {
    if (stat.command === command) total += stat.cpuSeconds;
  });
  return total;
};

/** CPU time used so far by the database's own processes: PostgreSQL's; 0 for SQLite (in the server). */
export const readDatabaseCpuSeconds = (dialect: DialectName): number =>
  dialect === 'postgres' ? readCommandCpuSeconds('postgres') : 0;

/**
 * CPU seconds used so far by each PostgreSQL process working for `database`: its backends (their
 * title names the database) and the server's own background processes (WAL writer, checkpointer…),
 * not the backends of other databases (other work on the same PostgreSQL).
 */
export const readPostgresCpu = (database: string): Map<number, number> => {
  const cpu = new Map<number, number>();
  eachProcess((pid, stat) => {
    if (stat.command !== 'postgres') return;
    const title = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
    // a client backend's title: "postgres: user database host(port) state"
    const backend = title.includes('(');
    if (backend && !title.includes(` ${database} `)) return;
    cpu.set(pid, stat.cpuSeconds);
  });
  return cpu;
};

/** CPU used between two readings (a process that ended in between is left out, never negative). */
export const cpuBetween = (before: Map<number, number>, after: Map<number, number>): number => {
  let total = 0;
  for (const [pid, seconds] of after) total += seconds - (before.get(pid) ?? 0);
  return total;
};

/** The machine's CPU time so far, busy and in all (jiffies of /proc/stat's `cpu` line). */
export interface MachineCpu {
  busy: number;
  total: number;
}

export const readMachineCpu = (): MachineCpu => {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  // cpu  user nice system idle iowait irq softirq steal guest guest_nice (guest time is in user)
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line
    .trim()
    .split(/\s+/)
    .slice(1, 9)
    .map(Number) as [number, number, number, number, number, number, number, number];
  const busy = user + nice + system + irq + softirq + steal;
  return { busy, total: busy + idle + iowait };
};

/** The share of the machine's CPU time that was busy between two readings (0–1). */
export const machineBusy = (before: MachineCpu, after: MachineCpu): number => {
  const total = after.total - before.total;
  return total > 0 ? (after.busy - before.busy) / total : 0;
};
