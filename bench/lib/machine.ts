import { execFileSync } from 'node:child_process';
import { availableParallelism, cpus, totalmem } from 'node:os';
import Database from 'better-sqlite3';
import pg from 'pg';
import { settings } from '../../test-support/settings.js';

export interface MachineInfo {
  nproc: number;
  ramGiB: number;
  cpuModel: string;
  node: string;
  os: string;
  sqlite: string;
  postgres: string;
}

const nproc = (): number => {
  try {
    return Number(execFileSync('nproc', { encoding: 'utf8' }).trim()) || availableParallelism();
  } catch {
    return availableParallelism();
  }
};

const osName = (): string => {
  try {
    const text = execFileSync('cat', ['/etc/os-release'], { encoding: 'utf8' });
    return /^PRETTY_NAME="?([^"\n]*)"?/m.exec(text)?.[1] ?? process.platform;
  } catch {
    return process.platform;
  }
};

export const machineInfo = async (): Promise<MachineInfo> => {
  const memory = new Database(':memory:');
  const sqlite = (memory.prepare('select sqlite_version() as v').get() as { v: string }).v;
  memory.close();
  let postgres = 'unreachable';
  const client = new pg.Client({ connectionString: settings.postgresUrl });
  try {
    await client.connect();
    const { rows } = await client.query<{ server_version: string }>('show server_version');
    postgres = rows[0]?.server_version ?? 'unknown';
  } catch {
    // reported as unreachable
  } finally {
    await client.end().catch(() => undefined);
  }
  return {
    nproc: nproc(),
    ramGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    node: process.version,
    os: osName(),
    sqlite,
    postgres,
  };
};

export const describeMachine = (machine: MachineInfo): string =>
  `nproc ${machine.nproc}, ${machine.ramGiB} GiB RAM, ${machine.cpuModel}, Node ${machine.node}, ` +
  `${machine.os}, SQLite ${machine.sqlite}, PostgreSQL ${machine.postgres}`;
