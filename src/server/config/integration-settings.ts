import { z } from 'zod';
import { setting } from './setting.js';

export const integrationSettings = {
  INTEGRATION_KEYS: setting(z.string().optional(), {
    description:
      'Comma-separated secrets (at least 32 bytes each, `openssl rand -hex 32`) of the server-to-server API under `/api/v1` (`Authorization: Bearer …`).',
    unset: 'off: `/api/v1` answers 404',
    secret: true,
  }),
  SSO_SECRET: setting(z.string().optional(), {
    description:
      'The shared secret (at least 32 bytes) of sign-in links from the host site (`/sso`).',
    unset: 'off: `/sso` answers 404',
    secret: true,
  }),
  LOGIN_URL: setting(z.string().optional(), {
    description:
      'The host’s sign-in page (absolute http(s)): a visitor without a session is sent there, with `return_to`.',
    unset: 'the messenger’s own `/login`',
  }),
};
