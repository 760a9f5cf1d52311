import { Cluster, Redis, type RedisOptions } from 'ioredis';
import { clusterAddressOf } from './redis-address.js';

/**
 * A Redis connection for short commands on a request's path (limits, presence): a command is never
 * retried and fails after 500 ms, so a slow or lost Redis delays a request by that much at most.
 * `queueWhileConnecting`: commands wait for the connection while it is being (re)made instead of
 * failing at once. `enableAutoPipelining`: the commands of one turn of the event loop (a send's
 * two limits, its presence read, its publishes, and those of the other requests of that turn) go out
 * in one write: each write is a system call that cost more than the command itself on the benchmark
 * machine (issue 42's profile of two workers).
 */
export const redisForCommands = (
  url: string,
  name: string,
  { queueWhileConnecting }: { queueWhileConnecting: boolean },
): Redis => {
  const redis = new Redis(url, {
    connectionName: name.slice(0, 100),
    enableOfflineQueue: queueWhileConnecting,
    maxRetriesPerRequest: 0,
    commandTimeout: 500,
    enableAutoPipelining: true,
  });
  // A lost connection shows as failing commands, which their callers handle.
  redis.on('error', () => undefined);
  return redis;
};

/**
 * One connection (or, for a cluster address, one cluster client) for pub/sub: with a cluster,
 * shard channels are subscribed on the node that owns their slot (`shardedSubscribers`).
 */
export const redisForPubSub = (
  url: string,
  options: RedisOptions & { enableOfflineQueue: boolean },
): Redis | Cluster => {
  const cluster = clusterAddressOf(url);
  if (!cluster) return new Redis(url, options);
  return new Cluster(cluster.nodes, {
    shardedSubscribers: true,
    enableOfflineQueue: options.enableOfflineQueue,
    redisOptions: {
      ...options,
      ...(cluster.username === undefined ? {} : { username: cluster.username }),
      ...(cluster.password === undefined ? {} : { password: cluster.password }),
      ...(cluster.tls ? { tls: {} } : {}),
    },
  });
};
