import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { TrustProxy } from '../config.js';

type TrustFunction = (address: string, hop: number) => boolean;

/**
 * Fastify's reading of its `trustProxy` option (fastify/lib/request.js), so that a socket and an
 * HTTP request from the same client get the same address. A bare hop count trusts nobody, as in
 * Fastify 5: it cannot tell a proxy from a client that connects directly and writes the header.
 */
const trustFunction = (trust: TrustProxy): TrustFunction => {
  if (trust === true) return () => true;
  if (trust === false) return () => false;
  return proxyAddr.compile(trust);
};

/**
 * `request → client address` for one trust setting, compiled once (throws on a malformed proxy
 * address). The address is the socket's peer, or the `X-Forwarded-For` entry that the trusted
 * proxies vouch for (the nearest one they did not add themselves).
 */
export const clientAddressResolver = (trust: TrustProxy): ((req: IncomingMessage) => string) => {
  const trusted = trustFunction(trust);
  return (req) => proxyAddr.all(req, trusted).at(-1) ?? req.socket.remoteAddress ?? 'unknown';
};

/** Whether a request's direct peer is a proxy TRUST_PROXY trusts (so its headers may be believed). */
export const peerIsTrusted = (trust: TrustProxy): ((req: IncomingMessage) => boolean) => {
  const trusted = trustFunction(trust);
  return (req) => {
    const peer = req.socket.remoteAddress;
    return peer !== undefined && trusted(peer, 0);
  };
};

/** The client's address of one request (use `clientAddressResolver` where it runs per request). */
export const clientAddress = (req: IncomingMessage, trust: TrustProxy): string =>
  clientAddressResolver(trust)(req);
