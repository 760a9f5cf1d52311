import { z } from 'zod';
import { EDIT_WINDOW_SECONDS_DEFAULT } from '../../shared/message-changes-paths.js';
import { setting } from './setting.js';

export const serverSettings = {
  NODE_ENV: setting(z.string().default('development'), {
    description:
      '`production`: no demo data unless `DEMO_SEED=on` (`auto` never seeds in production).',
  }),
  PORT: setting(z.coerce.number().int().min(0).max(65535).default(3000), {
    description: 'The port the server listens on.',
  }),
  HOST: setting(z.string().default('127.0.0.1'), {
    description: 'The address the server listens on (`0.0.0.0`: every interface).',
  }),
  PUBLIC_URL: setting(z.string().url().optional(), {
    description:
      'The address users reach (links in e-mails, the live endpoint, `return_to`); `https:` makes cookies secure.',
    unset: '`http://HOST:PORT`',
  }),
  TRUST_PROXY: setting(z.string().optional(), {
    description:
      '`true` (every proxy) or the proxies’ addresses / CIDRs (`10.0.0.0/8,127.0.0.1`) whose `X-Forwarded-*` headers are believed.',
    unset: 'off',
  }),
  ALLOWED_ORIGINS: setting(z.string().optional(), {
    description:
      'Comma-separated origins, besides `PUBLIC_URL`’s, whose pages may open the live socket.',
    unset: 'only `PUBLIC_URL`’s',
  }),
  IMAGE_ORIGINS: setting(z.string().optional(), {
    description:
      'Comma-separated origins (`https://cdn.jobs.example`) the host’s photos and logos (`image_url`) may load from: the page’s CSP `img-src`.',
    unset: 'any `https:` address',
  }),
  EMBED_ORIGINS: setting(z.string().optional(), {
    description:
      'Comma-separated origins (`https://jobs.example`) whose pages may embed the messenger (`/messages…` in an iframe, `/embed.js`): exact origins, https (http only for `localhost` / `127.0.0.1`).',
    unset: "no embedding: `frame-ancestors 'self'`",
  }),
  EDIT_WINDOW_SECONDS: setting(
    z.coerce.number().int().min(0).max(31_536_000).default(EDIT_WINDOW_SECONDS_DEFAULT),
    { description: 'How long a sender may edit or delete a message, in seconds.' },
  ),
};
