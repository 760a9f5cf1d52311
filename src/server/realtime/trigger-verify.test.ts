import PusherServer from 'pusher';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { md5Hex } from './signatures.js';
import { parseBatchBody, parseEventsBody } from './trigger-bodies.js';
import {
  REPLAY_MESSAGE,
  SeenSignatures,
  sharedSignatureMemory,
  signatureExpiresAtMs,
  type OnceStore,
} from './trigger-replays.js';
import {
  canonicalQueryString,
  parseQueryString,
  verifyTriggerSignature,
} from './trigger-verify.js';

const credentials = { key: 'the-key', secret: 'the-secret' };
const reference = new PusherServer({ appId: '42', ...credentials, host: '127.0.0.1' });
const path = '/apps/42/events';
const body = JSON.stringify({
  name: 'App\\Events\\ChatMessage',
  data: '{"chatMessage":{"id":1}}',
  channels: ['private-chat.1'],
});

/** A query string signed by the official library, optionally as if made `ageSeconds` ago. */
const signedQuery = (signedBody: string, ageSeconds = 0, signer = reference): string => {
  if (ageSeconds === 0)
    return signer.createSignedQueryString({ method: 'POST', path, body: signedBody });
  const spy = vi.spyOn(Date, 'now').mockReturnValue(Date.now() - ageSeconds * 1000);
  try {
    return signer.createSignedQueryString({ method: 'POST', path, body: signedBody });
  } finally {
    spy.mockRestore();
  }
};

const verify = (query: string, rawBody = body, requestPath = path) =>
  verifyTriggerSignature(
    { method: 'POST', path: requestPath, query, rawBody: Buffer.from(rawBody) },
    credentials,
  );

afterEach(() => vi.restoreAllMocks());

describe('trigger request verification', () => {
  it('accepts a request signed by the official pusher library', () => {
    const query = signedQuery(body);
    const params = new URLSearchParams(query);
    expect(verify(query)).toEqual({
      ok: true,
      value: {
        signature: params.get('auth_signature'),
        timestamp: Number(params.get('auth_timestamp')),
      },
    });
  });

  it('accepts timestamps up to 600 s old and refuses 601 s', () => {
    expect(verify(signedQuery(body, 590)).ok).toBe(true);
    expect(verify(signedQuery(body, 601))).toMatchObject({ ok: false, status: 401 });
    expect(verify(signedQuery(body, -601))).toMatchObject({ ok: false, status: 401 });
  });

  it('refuses a changed body (body_md5 mismatch)', () => {
    const query = signedQuery(body);
    expect(verify(query, body.replace('private-chat.1', 'private-chat.2'))).toMatchObject({
      ok: false,
      status: 401,
    });
  });

  it('refuses a changed body_md5 (signature mismatch)', () => {
    const other = body.replace('private-chat.1', 'private-chat.2');
    const query = signedQuery(body).replace(/body_md5=[0-9a-f]+/, `body_md5=${md5Hex(other)}`);
    expect(verify(query, other)).toMatchObject({
      ok: false,
      status: 401,
      message: 'Invalid signature.',
    });
  });

  it('refuses another path, key or secret', () => {
    const query = signedQuery(body);
    expect(verify(query, body, '/apps/42/batch_events')).toMatchObject({ ok: false, status: 401 });
    const otherKey = new PusherServer({
      appId: '42',
      key: 'other',
      secret: credentials.secret,
      host: '127.0.0.1',
    });
    expect(verify(signedQuery(body, 0, otherKey))).toMatchObject({
      ok: false,
      status: 401,
      message: 'Invalid key.',
    });
    const otherSecret = new PusherServer({
      appId: '42',
      key: credentials.key,
      secret: 'other',
      host: '127.0.0.1',
    });
    expect(verify(signedQuery(body, 0, otherSecret))).toMatchObject({
      ok: false,
      status: 401,
      message: 'Invalid signature.',
    });
  });

  it('refuses missing or repeated parameters and another auth_version', () => {
    const query = signedQuery(body);
    for (const name of [
      'auth_key',
      'auth_timestamp',
      'auth_version',
      'auth_signature',
      'body_md5',
    ]) {
      const stripped = query
        .split('&')
        .filter((part) => !part.startsWith(`${name}=`))
        .join('&');
      expect(verify(stripped), name).toMatchObject({ ok: false, status: 401 });
    }
    expect(verify(`${query}&auth_key=${credentials.key}`)).toMatchObject({
      ok: false,
      status: 401,
    });
    expect(verify(query.replace('auth_version=1.0', 'auth_version=2.0'))).toMatchObject({
      ok: false,
      status: 401,
    });
  });

  it('signs extra parameters too', () => {
    const query = signedQuery(body);
    expect(verify(`${query}&extra=1`)).toMatchObject({
      ok: false,
      status: 401,
      message: 'Invalid signature.',
    });
  });

  it('builds the canonical query string sorted by key without auth_signature', () => {
    const params = parseQueryString('b=2&auth_signature=x&a=1&C=3');
    expect(params).not.toBeNull();
    expect(canonicalQueryString(params!)).toBe('a=1&b=2&c=3');
    expect(parseQueryString('a=1&a=2')).toBeNull();
    expect(parseQueryString('a=%E0%A4%A')).toBeNull();
    expect(parseQueryString('a=x+y')?.get('a')).toBe('x+y');
  });
});

describe('trigger bodies', () => {
  const buf = (value: unknown) =>
    Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));

  it('decodes an event for channels or a channel, with an optional socket_id', () => {
    expect(
      parseEventsBody(buf({ name: 'e', data: 'd', channels: ['a', 'b', 'a'], socket_id: '1.2' })),
    ).toEqual({
      ok: true,
      value: { channels: ['a', 'b'], name: 'e', data: 'd', socketId: '1.2' },
    });
    expect(parseEventsBody(buf({ name: 'e', data: 'd', channel: 'a' }))).toEqual({
      ok: true,
      value: { channels: ['a'], name: 'e', data: 'd' },
    });
  });

  it('refuses malformed events with 400', () => {
    const bad = [
      'not json',
      '[]',
      { name: 'e', data: 'd' },
      { name: 'e', data: 'd', channels: [] },
      { name: 'e', data: 'd', channels: Array.from({ length: 101 }, (_, i) => `c${i}`) },
      { name: 'e', data: 'd', channels: ['bad name'] },
      { name: 'e', data: 'd', channel: 'a', channels: ['b'] },
      { name: 'e', data: { not: 'a string' }, channel: 'a' },
      { name: '', data: 'd', channel: 'a' },
      { name: 'pusher:x', data: 'd', channel: 'a' },
      { name: 'e', data: 'd', channel: 'a', socket_id: 'nope' },
    ];
    for (const body of bad)
      expect(parseEventsBody(buf(body)), JSON.stringify(body)).toMatchObject({
        ok: false,
        status: 400,
      });
  });

  it('refuses data over 10 KB with 413 (bytes, not characters)', () => {
    expect(parseEventsBody(buf({ name: 'e', data: 'x'.repeat(10_240), channel: 'a' })).ok).toBe(
      true,
    );
    expect(
      parseEventsBody(buf({ name: 'e', data: 'x'.repeat(10_241), channel: 'a' })),
    ).toMatchObject({ ok: false, status: 413 });
    expect(
      parseEventsBody(buf({ name: 'e', data: 'é'.repeat(5_121), channel: 'a' })),
    ).toMatchObject({ ok: false, status: 413 });
  });

  it('decodes batches of 1–10 events', () => {
    const event = { name: 'e', data: 'd', channel: 'a' };
    expect(parseBatchBody(buf({ batch: [event, { ...event, socket_id: '3.4' }] }))).toEqual({
      ok: true,
      value: [
        { channels: ['a'], name: 'e', data: 'd' },
        { channels: ['a'], name: 'e', data: 'd', socketId: '3.4' },
      ],
    });
    expect(parseBatchBody(buf({ batch: [] }))).toMatchObject({ ok: false, status: 400 });
    expect(parseBatchBody(buf({ batch: Array.from({ length: 11 }, () => event) }))).toMatchObject({
      ok: false,
      status: 400,
    });
    expect(parseBatchBody(buf({ batch: [{ ...event, data: 'x'.repeat(10_241) }] }))).toMatchObject({
      ok: false,
      status: 413,
    });
  });
});

describe('replayed trigger requests', () => {
  const T = 1_800_000_000; // a timestamp, in seconds
  const at = (seconds: number) => (T + seconds) * 1000;

  it('remembers a signature until its timestamp leaves the 600 s window', () => {
    expect(signatureExpiresAtMs(T)).toBe(at(601));
    const seen = new SeenSignatures();
    expect(seen.claimNow('a', signatureExpiresAtMs(T), at(0))).toBe('fresh');
    expect(seen.claimNow('a', signatureExpiresAtMs(T), at(1))).toBe('replay');
    expect(seen.claimNow('a', signatureExpiresAtMs(T), at(600))).toBe('replay');
    expect(seen.claimNow('b', signatureExpiresAtMs(T), at(600))).toBe('fresh');
    // By then verification refuses the timestamp anyway; the entry may go.
    expect(seen.claimNow('a', signatureExpiresAtMs(T + 700), at(601))).toBe('fresh');
  });

  it('prunes expired signatures, so memory follows the requests of the last 600 s', () => {
    let now = at(0);
    const seen = new SeenSignatures({ now: () => now });
    for (let i = 0; i < 1000; i++) seen.claimNow(`old-${i}`, signatureExpiresAtMs(T));
    expect(seen.size).toBe(1000);
    now = at(700);
    seen.claimNow('new', signatureExpiresAtMs(T + 700));
    expect(seen.size).toBe(1);
  });

  it('is capped: at the cap it refuses new signatures (429 with Retry-After) rather than forget old ones', () => {
    let now = at(0);
    const seen = new SeenSignatures({ maxEntries: 3, now: () => now });
    expect(seen.claimNow('a', signatureExpiresAtMs(T))).toBe('fresh');
    now = at(10);
    expect(seen.claimNow('b', signatureExpiresAtMs(T + 10))).toBe('fresh');
    expect(seen.claimNow('c', signatureExpiresAtMs(T + 10))).toBe('fresh');
    expect(seen.claimNow('d', signatureExpiresAtMs(T + 10))).toEqual({
      full: true,
      retryAfterSeconds: 591,
    });
    expect(seen.claimNow('a', signatureExpiresAtMs(T))).toBe('replay');
    expect(seen.size).toBe(3);
    now = at(602);
    expect(seen.claimNow('d', signatureExpiresAtMs(T + 602))).toBe('fresh');
    expect(seen.size).toBe(3);
  });

  it('forgets a released signature (its request was not carried out)', async () => {
    const seen = new SeenSignatures();
    expect(await seen.claim('a', Date.now() + 60_000)).toBe('fresh');
    await seen.release('a');
    expect(await seen.claim('a', Date.now() + 60_000)).toBe('fresh');
    expect(await seen.claim('a', Date.now() + 60_000)).toBe('replay');
  });

  it('shares the memory through a SET NX store, so another instance refuses a replay', async () => {
    const keys = new Map<string, number>();
    const store: OnceStore = {
      setOnce: async (key, ttlMs) => {
        if (keys.has(key)) return false;
        keys.set(key, ttlMs);
        return true;
      },
      forget: async (key) => {
        keys.delete(key);
      },
    };
    const instanceA = sharedSignatureMemory(new SeenSignatures(), store, 'p:');
    const instanceB = sharedSignatureMemory(new SeenSignatures(), store, 'p:');
    const expiresAt = Date.now() + 600_000;
    expect(await instanceA.claim('sig', expiresAt)).toBe('fresh');
    expect(keys.get('p:sig')).toBeGreaterThan(599_000);
    expect(await instanceB.claim('sig', expiresAt)).toBe('replay');
    expect(await instanceA.claim('sig', expiresAt)).toBe('replay');
    await instanceA.release('sig');
    expect(keys.has('p:sig')).toBe(false);
    expect(await instanceB.claim('sig', expiresAt)).toBe('fresh');
  });

  it('fails the claim when the shared store is unreachable, and lets the same request through later', async () => {
    let down = true;
    const store: OnceStore = {
      setOnce: async () => {
        if (down) throw new Error('Redis is unreachable');
        return true;
      },
      forget: async () => undefined,
    };
    const memory = sharedSignatureMemory(new SeenSignatures(), store, 'p:');
    await expect(memory.claim('sig', Date.now() + 60_000)).rejects.toThrow(/unreachable/);
    down = false;
    expect(await memory.claim('sig', Date.now() + 60_000)).toBe('fresh');
  });

  it('says what is wrong', () => {
    expect(REPLAY_MESSAGE).toMatch(/replay/i);
  });
});
