import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';

export interface SecurityHeadersOptions {
  connectSources: string[];
  /** Image sources besides this origin: the host's photos and logos (IMAGE_ORIGINS). */
  imageSources: string[];
  /** Served over https (PUBLIC_URL): every response carries Strict-Transport-Security. */
  https: boolean;
}

/**
 * The origin of `BRAND_LOGO_URL` when it is on another site (an `https:` address), so the CSP lets
 * the logo load; none for a same-origin path (`'self'` covers it).
 */
const logoSources = (logoUrl: string | undefined): string[] => {
  if (!logoUrl || !URL.canParse(logoUrl)) return [];
  return [new URL(logoUrl).origin];
};

/**
 * The page may load images from the configured hosts and the logo's, and connect to the hosted
 * Pusher, if any.
 */
export const securityHeadersFromConfig = (config: Config): SecurityHeadersOptions => {
  const external = config.pusher.external;
  return {
    https: config.publicUrl.protocol === 'https:',
    imageSources: [...new Set([...config.imageSources, ...logoSources(config.brand.logoUrl)])],
    connectSources: external
      ? [
          `wss://*.pusher.com`,
          ...(external.host ? [`wss://${external.host}`, `ws://${external.host}`] : []),
        ]
      : [],
  };
};

const HSTS = 'max-age=31536000; includeSubDomains';

declare module 'fastify' {
  interface FastifyReply {
    /**
     * Who may frame this response (CSP `frame-ancestors` sources, e.g. `["'self'",
     * "https://jobs.example"]`); null: only this origin (`'self'`, with `X-Frame-Options:
     * SAMEORIGIN`). Set by the framed pages (`/messages…`, ADR 022); another origin in the list
     * drops `X-Frame-Options`, which cannot name it.
     */
    frameAncestors: string[] | null;
  }
}

/** `X-Frame-Options` agreeing with `frame-ancestors`, or none when it cannot say the same thing. */
const frameOptionsFor = (ancestors: readonly string[]): string | undefined => {
  if (ancestors.length === 1 && ancestors[0] === "'none'") return 'DENY';
  if (ancestors.length === 1 && ancestors[0] === "'self'") return 'SAMEORIGIN';
  return undefined;
};

/**
 * CSP without inline scripts, no framing by other origins (but by the framed pages' own list), no
 * MIME sniffing, a strict referrer policy; HSTS under https; and no caching of anything answered to a signed-in user (a shared
 * cache or the browser's back button must not hand one user's data to the next).
 */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance, options: SecurityHeadersOptions) => {
    const policyFor = (frameAncestors: readonly string[]) =>
      [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        ["img-src 'self' data: blob:", ...options.imageSources].join(' '),
        "media-src 'self' data:",
        "font-src 'self'",
        `connect-src 'self' ${options.connectSources.join(' ')}`.trim(),
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        `frame-ancestors ${frameAncestors.join(' ')}`,
      ].join('; ');
    const csp = policyFor(["'self'"]);
    app.decorateReply('frameAncestors', null);
    app.addHook('onSend', async (request, reply, payload) => {
      if (options.https) void reply.header('strict-transport-security', HSTS);
      if (request.viewer && !reply.hasHeader('cache-control'))
        void reply.header('cache-control', 'no-store');
      // a route may set a stricter policy of its own (downloads: `sandbox`)
      const ancestors = reply.frameAncestors ?? ["'self'"];
      if (!reply.hasHeader('content-security-policy'))
        void reply.header(
          'content-security-policy',
          reply.frameAncestors ? policyFor(ancestors) : csp,
        );
      const frameOptions = frameOptionsFor(ancestors);
      if (frameOptions) void reply.header('x-frame-options', frameOptions);
      void reply.headers({
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'strict-origin-when-cross-origin',
        'cross-origin-opener-policy': 'same-origin',
        'permissions-policy': 'camera=(), microphone=(), geolocation=()',
      });
      return payload;
    });
  },
);
