import { describe, expect, it } from 'vitest';
import { clusterAddressOf } from './redis-address.js';

describe('Redis addresses', () => {
  it('reads the nodes, credentials and TLS of a cluster address, and leaves a single Redis alone', () => {
    expect(clusterAddressOf('redis://127.0.0.1:6379')).toBeUndefined();
    expect(clusterAddressOf('redis-cluster://10.0.0.1:7000,cache.internal')).toEqual({
      nodes: [
        { host: '10.0.0.1', port: 7000 },
        { host: 'cache.internal', port: 6379 },
      ],
      tls: false,
    });
    expect(clusterAddressOf('rediss-cluster://app:p%40ss@10.0.0.1:7000,10.0.0.2:7000')).toEqual({
      nodes: [
        { host: '10.0.0.1', port: 7000 },
        { host: '10.0.0.2', port: 7000 },
      ],
      username: 'app',
      password: 'p@ss',
      tls: true,
    });
    expect(clusterAddressOf('redis-cluster://:secret@10.0.0.1:7000')?.password).toBe('secret');
    expect(() => clusterAddressOf('redis-cluster://')).toThrow(/at least one node/);
    expect(() => clusterAddressOf('redis-cluster://10.0.0.1:0')).toThrow(/Invalid/);
  });
});
