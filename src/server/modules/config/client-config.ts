import type { MessengerConfig } from '../../../shared/messenger-config.js';
import { paths } from '../../../shared/paths.js';
import type { Config } from '../../config.js';

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
