import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from './server-process.js';
import { until } from './wait.js';

/** Debian's redis-server, the one CI starts: a local cluster is made of it. */
export const REDIS_SERVER = '/usr/bin/redis-server';
const REDIS_CLI = '/usr/bin/redis-cli';

export interface LocalRedisCluster {
  /** `redis-cluster://127.0.0.1:p1,127.0.0.1:p2,…` */
  url: string;
  ports: number[];
  stop(): Promise<void>;
}

const portFree = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/** A port whose cluster bus port (port + 10,000) is free too. */
const clusterPort = async (): Promise<number> => {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const port = await freePort();
    if (port < 55_000 && (await portFree(port + 10_000))) return port;
  }
  throw new Error('no free port pair for a Redis Cluster node');
};

/**
 * A Redis Cluster of `masters` nodes on 127.0.0.1 (no replicas, nothing saved), in a temporary
 * folder; `stop()` ends the processes and removes the folder.
 */
export const startRedisCluster = async (masters = 3): Promise<LocalRedisCluster> => {
  const dir = mkdtempSync(join(tmpdir(), 'redis-cluster-'));
  const processes: ChildProcess[] = [];
  const ports: number[] = [];
  const stop = async () => {
    await Promise.all(
      processes.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGKILL');
          }),
      ),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let index = 0; index < masters; index += 1) {
      const port = await clusterPort();
      ports.push(port);
      const child = spawn(
        REDIS_SERVER,
        [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          join(dir, `nodes-${port}.conf`),
          '--cluster-node-timeout',
          '2000',
          '--dir',
          dir,
          '--save',
          '',
          '--appendonly',
          'no',
        ],
        { stdio: 'ignore' },
      );
      processes.push(child);
    }
    for (const port of ports) {
      await until(
        async () => {
          const probe = new Redis(port, '127.0.0.1', {
            lazyConnect: true,
            maxRetriesPerRequest: 0,
          });
          try {
            await probe.connect();
            return (await probe.ping()) === 'PONG';
          } catch {
            return false;
          } finally {
            probe.disconnect();
          }
        },
        `Redis Cluster node on ${port} answers`,
        10_000,
      );
    }
    const created = spawnSync(
      REDIS_CLI,
      [
        '--cluster',
        'create',
        ...ports.map((port) => `127.0.0.1:${port}`),
        '--cluster-replicas',
        '0',
        '--cluster-yes',
      ],
      { encoding: 'utf8', timeout: 20_000 },
    );
    if (created.status !== 0)
      throw new Error(`redis-cli --cluster create failed: ${created.stdout}${created.stderr}`);
    const admin = new Redis(ports[0]!, '127.0.0.1', { maxRetriesPerRequest: 0 });
    try {
      await until(
        async () => String(await admin.cluster('INFO')).includes('cluster_state:ok'),
        'the Redis Cluster is ok',
        15_000,
      );
    } finally {
      admin.disconnect();
    }
    return {
      url: `redis-cluster://${ports.map((port) => `127.0.0.1:${port}`).join(',')}`,
      ports,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
};
