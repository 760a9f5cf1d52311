import type { IncomingMessage } from 'node:http';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { TrustProxy } from '../config.js';
import { clientAddress, clientAddressResolver } from './client-address.js';

const request = (peer: string, forwardedFor?: string): IncomingMessage =>
  ({
    socket: { remoteAddress: peer },
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
  }) as unknown as IncomingMessage;

describe('clientAddress', () => {
  it('is the socket peer when no proxy is trusted, whatever the header says', () => {
    expect(clientAddress(request('203.0.113.7'), false)).toBe('203.0.113.7');
    expect(clientAddress(request('203.0.113.7', '1.1.1.1'), false)).toBe('203.0.113.7');
    expect(clientAddress(request('203.0.113.7', '1.1.1.1'), [])).toBe('203.0.113.7');
  });

  it('trusts every hop with true: the first address of the header', () => {
    expect(clientAddress(request('10.0.0.1', '1.1.1.1, 2.2.2.2'), true)).toBe('1.1.1.1');
    expect(clientAddress(request('10.0.0.1'), true)).toBe('10.0.0.1');
  });

  it('with listed proxies, takes the nearest address they did not add', () => {
    const forwarded = request('10.0.0.1', '1.1.1.1, 2.2.2.2');
    expect(clientAddress(forwarded, ['10.0.0.1'])).toBe('2.2.2.2');
    expect(clientAddress(forwarded, ['10.0.0.0/8'])).toBe('2.2.2.2');
    expect(clientAddress(forwarded, ['10.0.0.1', '2.2.2.2'])).toBe('1.1.1.1');
    // A peer that is not a listed proxy wrote the header itself: it is ignored.
    expect(clientAddress(request('203.0.113.7', '1.1.1.1'), ['10.0.0.1'])).toBe('203.0.113.7');
  });

  it('refuses a malformed proxy address when compiled', () => {
    expect(() => clientAddressResolver(['not-an-address'])).toThrow();
  });

  it('agrees with Fastify’s request.ip for the same trustProxy', async () => {
    const settings: TrustProxy[] = [false, true, ['127.0.0.1'], ['10.0.0.0/8', '127.0.0.1']];
    const headers = [undefined, '1.1.1.1', '1.1.1.1, 10.0.0.2', 'garbage, 10.0.0.3', ' , 2.2.2.2'];
    for (const trust of settings) {
      const app = Fastify({ trustProxy: trust });
      app.get('/', async (req) => ({ fastify: req.ip, ours: clientAddress(req.raw, trust) }));
      for (const forwardedFor of headers) {
        const response = await app.inject({
          url: '/',
          remoteAddress: '127.0.0.1',
          headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
        });
        const { fastify, ours } = response.json<{ fastify: string; ours: string }>();
        expect(ours, `${JSON.stringify(trust)} / ${forwardedFor}`).toBe(fastify);
      }
      await app.close();
    }
  });
});
