import PusherServer from 'pusher';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { md5Hex } from './signatures.js';
import {
  canonicalQueryString,
  parseBatchBody,
  parseEventsBody,
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
    expect(verify(signedQuery(body))).toEqual({ ok: true, value: undefined });
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
