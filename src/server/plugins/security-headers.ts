import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export interface SecurityHeadersOptions {
  connectSources: string[];
  /** Image sources besides this origin: the host's photos and logos (IMAGE_ORIGINS). */
  imageSources: string[];
  /** Served over https (PUBLIC_URL): every response carries Strict-Transport-Security. */
  https: boolean;
}

const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * CSP without inline scripts, no framing by other origins, no MIME sniffing, a strict referrer
 * policy; HSTS under https; and no caching of anything answered to a signed-in user (a shared
 * cache or the browser's back button must not hand one user's data to the next).
 */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance, options: SecurityHeadersOptions) => {
    const csp = [
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
      "frame-ancestors 'self'",
    ].join('; ');
    app.addHook('onSend', async (request, reply, payload) => {
      if (options.https) void reply.header('strict-transport-security', HSTS);
      if (request.viewer && !reply.hasHeader('cache-control'))
        void reply.header('cache-control', 'no-store');
      // a route may set a stricter policy of its own (downloads: `sandbox`)
      if (!reply.hasHeader('content-security-policy'))
        void reply.header('content-security-policy', csp);
      void reply.headers({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'SAMEORIGIN',
        'referrer-policy': 'strict-origin-when-cross-origin',
        'cross-origin-opener-policy': 'same-origin',
        'permissions-policy': 'camera=(), microphone=(), geolocation=()',
      });
      return payload;
    });
  },
);
