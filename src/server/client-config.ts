import type { MessengerConfig } from '../shared/messenger-config.js';
import { paths } from '../shared/paths.js';
import type { Config } from './config.js';
import type { SecurityHeadersOptions } from './plugins/security-headers.js';

/** What clients need to connect; built from PUBLIC_URL only, never from the request's Host. */
export const clientConfig = (config: Config): MessengerConfig => {
  const external = config.pusher.external;
  const publicUrl = config.publicUrl;
  const secure = publicUrl.protocol === 'https:';
  const port = Number(publicUrl.port || (secure ? 443 : 80));
  return {
    key: config.appKey,
    locales: ['en', 'ar'],
    fallbackLocale: 'en',
    broadcaster: {
      key: config.pusher.key,
      cluster: external?.cluster ?? 'mt1',
      ...(external ? {} : { wsHost: publicUrl.hostname, wsPort: port, wssPort: port }),
      forceTLS: external ? external.scheme === 'https' : secure,
      authEndpoint: paths.broadcastingAuth,
      userAuthEndpoint: paths.broadcastingUserAuth,
    },
    edit_window_seconds: Math.floor(config.editWindowMs / 1000),
    site_name: config.brand.siteName,
    brand_logo_url: config.brand.logoUrl ?? null,
    brand_color: config.brand.color,
  };
};

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
export const securityHeadersOptions = (config: Config): SecurityHeadersOptions => {
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
