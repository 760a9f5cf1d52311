/**
 * The live channel: an embedded Pusher Channels (protocol 7) server and the broadcaster the app
 * publishes through. See docs/realtime.md.
 */
export type {
  Broadcaster,
  ExternalPusherOptions,
  Realtime,
  RealtimeLogger,
  RealtimeOptions,
} from './types.js';
export { createRealtime } from './create-realtime.js';
export { CloseCode, isValidChannelName, isValidSocketId } from './protocol.js';
