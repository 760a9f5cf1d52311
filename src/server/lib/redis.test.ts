import { describe, expect, it } from 'vitest';
import { clusterNodesOf } from './redis.js';

describe('Redis addresses', () => {
  it('reads the nodes of a redis-cluster:// address, and leaves a single Redis alone', () => {
    expect(clusterNodesOf('redis://127.0.0.1:6379')).toBeUndefined();
    expect(clusterNodesOf('redis-cluster://10.0.0.1:7000,cache.internal')).toEqual([
      { host: '10.0.0.1', port: 7000 },
      { host: 'cache.internal', port: 6379 },
    ]);
    expect(() => clusterNodesOf('redis-cluster://')).toThrow(/at least one node/);
    expect(() => clusterNodesOf('redis-cluster://10.0.0.1:0')).toThrow(/Invalid/);
  });
});
