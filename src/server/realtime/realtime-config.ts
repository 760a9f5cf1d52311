import type { Config } from '../config.js';
import type { RealtimeOptions } from './types.js';

/** The live endpoint's options as the configuration sets them (`secret`: the broadcaster's). */
export const realtimeOptions = (
  config: Config,
  secret: string,
  logger: RealtimeOptions['logger'],
): RealtimeOptions => ({
  appId: config.pusher.appId,
  key: config.pusher.key,
  secret,
  allowedOrigins: config.allowedOrigins,
  activityTimeoutSeconds: config.pusher.activityTimeoutSeconds,
  pongTimeoutSeconds: config.pusher.pongTimeoutSeconds,
  maxConnections: config.websocket.maxConnections,
  maxConnectionsPerAddress: config.websocket.maxConnectionsPerAddress,
  trustProxy: config.trustProxy,
  authTimeoutSeconds: config.websocket.authTimeoutSeconds,
  frameRate: config.websocket.frameRate,
  ...(config.realtimeRedisUrl
    ? { redisUrl: config.realtimeRedisUrl, routing: config.realtimeRouting }
    : {}),
  ...(config.pusher.external ? { external: config.pusher.external } : {}),
  logger,
});
