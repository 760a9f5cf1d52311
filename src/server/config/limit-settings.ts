import { setting, positiveInt, positiveNumber } from './setting.js';

export const limitSettings = {
  SEND_RATE_BURST: setting(positiveInt(30), {
    description: 'Messages a user may send at once (token bucket, per user).',
  }),
  SEND_RATE_PER_SECOND: setting(positiveNumber(2), {
    description: 'Messages a user may send per second after the burst.',
  }),
  SEND_RATE_CONVERSATION_BURST: setting(positiveInt(20), {
    description: 'Messages a user may send into one conversation at once.',
  }),
  SEND_RATE_CONVERSATION_PER_SECOND: setting(positiveNumber(1), {
    description: 'Messages a user may send into one conversation per second after the burst.',
  }),
  HOST_SEND_RATE_PER_SECOND: setting(positiveNumber(50), {
    description: 'Messages the host may send through the integration API, per key and second.',
  }),
  LOGIN_FAILURES_PER_ACCOUNT: setting(positiveInt(5), {
    description:
      'Failed sign-ins per account (from any address) before it is locked for a while (30 s, doubling up to 15 min).',
  }),
  LOGIN_FAILURES_PER_ADDRESS: setting(positiveInt(50), {
    description:
      'Failed sign-ins per client address in 15 minutes before further failures get 429.',
  }),
  TOKEN_TTL_DAYS: setting(positiveNumber(90), {
    description: 'Days a personal access token stays valid.',
  }),
  TOKENS_PER_USER: setting(positiveInt(20), {
    description: 'Live personal access tokens one user may hold (then 422: revoke one).',
  }),
  WS_MAX_CONNECTIONS: setting(positiveInt(50_000), {
    description: 'Open live sockets per instance (with workers, for all of them).',
  }),
  WS_MAX_CONNECTIONS_PER_ADDRESS: setting(positiveInt(200), {
    description: 'Open live sockets from one client address.',
  }),
  WS_AUTH_TIMEOUT: setting(positiveNumber(30), {
    description: 'Seconds a socket may stay without an authorized subscription.',
  }),
  WS_FRAME_RATE_BURST: setting(positiveInt(30), {
    description: 'Incoming frames a socket may send at once.',
  }),
  WS_FRAME_RATE_PER_SECOND: setting(positiveNumber(10), {
    description: 'Incoming frames a socket may send per second after the burst.',
  }),
};
