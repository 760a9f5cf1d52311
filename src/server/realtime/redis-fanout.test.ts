import { describe, expect, it } from 'vitest';
import { redisVersionOf } from './redis-fanout.js';

describe('the Redis version check of per-user routing', () => {
  it('reads redis_version from INFO server', () => {
    const info = '# Server\r\nredis_version:6.2.14\r\nredis_git_sha1:00000000\r\n';
    expect(redisVersionOf(info)).toEqual({ text: '6.2.14', major: 6 });
    expect(redisVersionOf('# Server\r\nredis_version:7.0.15\r\n')?.major).toBe(7);
    expect(redisVersionOf('# Server\r\n')).toBeUndefined();
  });
});
