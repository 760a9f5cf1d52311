import type { MessengerConfig } from '../../shared/messenger-config.js';
import type { ApiClient } from './api-client.js';
import { apiPaths } from './contract.js';

/**
 * `GET /messenger/config` (public): the application key and the broadcaster settings.
 * Checked cheaply here; the broadcaster part is used by the lazily loaded live client.
 */
export const getMessengerConfig = async (client: ApiClient): Promise<MessengerConfig> => {
  const config = await client.get<MessengerConfig>(apiPaths.config);
  if (!config || typeof config.key !== 'string' || typeof config.broadcaster?.key !== 'string') {
    throw new Error('Invalid messenger configuration');
  }
  return config;
};
