import { Cluster, Redis, type RedisOptions } from 'ioredis';

/**
 * A Redis connection for short commands on a request's path (limits, presence): a command is never
 * retried and fails after 500 ms, so a slow or lost Redis delays a request by that much at most.
 * `queueWhileConnecting`: commands wait for the connection while it is being (re)made instead of
 * failing at once.
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
  });
  // A lost connection shows as failing commands, which their callers handle.
  redis.on('error', () => undefined);
  return redis;
};

/** A Redis Cluster address: `redis-cluster://host:port,host:port` (any of its nodes; the rest are found). */
export const clusterNodesOf = (url: string): { host: string; port: number }[] | undefined => {
  if (!url.startsWith('redis-cluster://')) return undefined;
  const nodes = url
    .slice('redis-cluster://'.length)
    .split('/')[0]!
    .split(',')
    .filter((node) => node.length > 0)
    .map((node) => {
      const at = node.lastIndexOf(':');
      const host = at < 0 ? node : node.slice(0, at);
      const port = at < 0 ? 6379 : Number(node.slice(at + 1));
      if (host.length === 0 || !Number.isInteger(port) || port <= 0 || port > 65_535)
        throw new TypeError(`Invalid Redis Cluster node: ${JSON.stringify(node)}`);
      return { host, port };
    });
  if (nodes.length === 0)
    throw new TypeError('A redis-cluster:// address needs at least one node.');
  return nodes;
};

/**
 * One connection (or, for `redis-cluster://…`, one cluster client) for pub/sub: with a cluster,
 * shard channels are subscribed on the node that owns their slot (`shardedSubscribers`).
 */
export const redisForPubSub = (
  url: string,
  options: RedisOptions & { enableOfflineQueue: boolean },
): Redis | Cluster => {
  const nodes = clusterNodesOf(url);
  if (!nodes) return new Redis(url, options);
  return new Cluster(nodes, {
    shardedSubscribers: true,
    enableOfflineQueue: options.enableOfflineQueue,
    redisOptions: options,
  });
};
