import { availableParallelism } from 'node:os';
import { loadConfig } from './config.js';

describe('configuration', () => {
  it('reads TRUST_PROXY as off, on, or a list of proxies, and refuses a hop count', () => {
    expect(loadConfig({ TRUST_PROXY: '' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: '1' })).toThrow(/hop count/);
  });

  it('reads WEB_CONCURRENCY as a number or auto, and needs Redis above 1', () => {
    const redis = { REDIS_URL: 'redis://127.0.0.1:6379' };
    expect(loadConfig({ WEB_CONCURRENCY: undefined }).webConcurrency).toBe(1);
    expect(loadConfig({ ...redis, WEB_CONCURRENCY: '2' }).webConcurrency).toBe(2);
    expect(loadConfig({ ...redis, WEB_CONCURRENCY: 'auto' }).webConcurrency).toBe(
      availableParallelism(),
    );
    expect(() => loadConfig({ WEB_CONCURRENCY: '2', REDIS_URL: '' })).toThrow(/needs REDIS_URL/);
    expect(() =>
      loadConfig({ ...redis, WEB_CONCURRENCY: '2', DATABASE_URL: 'sqlite::memory:' }),
    ).toThrow(/workers share/);
    expect(() => loadConfig({ ...redis, WEB_CONCURRENCY: '0' })).toThrow();
    expect(() => loadConfig({ ...redis, WEB_CONCURRENCY: 'many' })).toThrow();
  });

  it('routes live events per user by default, through REDIS_URL unless REALTIME_REDIS_URL names a cluster', () => {
    const redis = { REDIS_URL: 'redis://127.0.0.1:6379' };
    expect(loadConfig({ ...redis, REALTIME_ROUTING: undefined }).realtimeRouting).toBe('per-user');
    expect(loadConfig({ ...redis, REALTIME_ROUTING: 'broadcast' }).realtimeRouting).toBe(
      'broadcast',
    );
    expect(() => loadConfig({ ...redis, REALTIME_ROUTING: 'sideways' })).toThrow();
    expect(loadConfig({ ...redis, REALTIME_REDIS_URL: undefined }).realtimeRedisUrl).toBe(
      redis.REDIS_URL,
    );
    const clustered = 'redis-cluster://10.0.0.1:7000,10.0.0.2:7000';
    expect(loadConfig({ ...redis, REALTIME_REDIS_URL: clustered }).realtimeRedisUrl).toBe(
      clustered,
    );
    expect(() => loadConfig({ REDIS_URL: clustered })).toThrow(/REALTIME_REDIS_URL/);
    expect(() => loadConfig({ ...redis, REALTIME_REDIS_URL: 'redis-cluster://' })).toThrow(
      /at least one node/,
    );
    expect(() => loadConfig({ REDIS_URL: '', REALTIME_REDIS_URL: clustered })).toThrow(
      /needs REDIS_URL/,
    );
  });

  it('builds the public address from HOST and PORT unless PUBLIC_URL says otherwise', () => {
    expect(
      loadConfig({ HOST: '127.0.0.1', PORT: '4000', PUBLIC_URL: undefined }).publicUrl.href,
    ).toBe('http://127.0.0.1:4000/');
    const behindTls = loadConfig({ PUBLIC_URL: 'https://chat.example.com' });
    expect(behindTls.publicUrl.origin).toBe('https://chat.example.com');
    expect(behindTls.secureCookies).toBe(true);
  });
});

describe('IMAGE_ORIGINS (where the host’s photos may load from)', () => {
  it('is any https address by default, or the origins listed', () => {
    expect(loadConfig({ IMAGE_ORIGINS: '' }).imageSources).toEqual(['https:']);
    expect(
      loadConfig({ IMAGE_ORIGINS: 'https://cdn.example.com,http://127.0.0.1:8080' }).imageSources,
    ).toEqual(['https://cdn.example.com', 'http://127.0.0.1:8080']);
  });

  it.each([
    '*',
    'cdn.example.com',
    'https://cdn.example.com/photos',
    "https://cdn.example.com; script-src 'unsafe-inline'",
    "'unsafe-inline'",
    'data:',
    'javascript:alert(1)',
  ])('refuses %j, which is not an origin, at start', (value) => {
    expect(() => loadConfig({ IMAGE_ORIGINS: value })).toThrow(/IMAGE_ORIGINS/);
  });
});

describe('EMBED_ORIGINS (whose pages may embed the messenger)', () => {
  it('is empty when unset, or the exact origins listed', () => {
    expect(loadConfig({ EMBED_ORIGINS: undefined }).embedOrigins).toEqual([]);
    expect(loadConfig({ EMBED_ORIGINS: '' }).embedOrigins).toEqual([]);
    expect(
      loadConfig({
        EMBED_ORIGINS: 'https://jobs.example, https://jobs.example:8443/,http://localhost:5173',
      }).embedOrigins,
    ).toEqual(['https://jobs.example', 'https://jobs.example:8443', 'http://localhost:5173']);
    expect(loadConfig({ EMBED_ORIGINS: 'http://127.0.0.1:4000' }).embedOrigins).toEqual([
      'http://127.0.0.1:4000',
    ]);
  });

  it.each([
    '*',
    'jobs.example',
    'https://jobs.example/board',
    'https://jobs.example?x=1',
    'https://*.jobs.example',
    "https://jobs.example; script-src 'unsafe-inline'",
    "'self'",
    'javascript:alert(1)',
  ])('refuses %j, which is not an origin, naming the setting', (value) => {
    expect(() => loadConfig({ EMBED_ORIGINS: value })).toThrow(
      /EMBED_ORIGINS: .* is not an origin/,
    );
  });

  it('refuses plain http except for localhost and 127.0.0.1', () => {
    expect(() => loadConfig({ EMBED_ORIGINS: 'http://jobs.example' })).toThrow(
      /EMBED_ORIGINS: "http:\/\/jobs.example" must use https/,
    );
  });

  it('needs PUBLIC_URL to be https, or a loopback address, for the frame’s Secure cookie', () => {
    const embed = { EMBED_ORIGINS: 'https://jobs.example' };
    expect(() => loadConfig({ ...embed, PUBLIC_URL: 'http://chat.example.com' })).toThrow(
      /EMBED_ORIGINS needs PUBLIC_URL to be https/,
    );
    expect(loadConfig({ ...embed, PUBLIC_URL: 'https://chat.example.com' }).embedOrigins).toEqual([
      'https://jobs.example',
    ]);
    expect(loadConfig({ ...embed, PUBLIC_URL: 'http://127.0.0.1:3000' }).embedOrigins).toHaveLength(
      1,
    );
  });
});
