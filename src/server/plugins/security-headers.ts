import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** CSP without inline scripts, no framing by other origins, no MIME sniffing, a strict referrer policy. */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance, options: { connectSources: string[] }) => {
    const csp = [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self' data: blob:",
      "media-src 'self' data:",
      "font-src 'self'",
      `connect-src 'self' ${options.connectSources.join(' ')}`.trim(),
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "frame-ancestors 'self'",
    ].join('; ');
    app.addHook('onSend', async (_request, reply, payload) => {
      void reply.headers({
        'content-security-policy': csp,
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
