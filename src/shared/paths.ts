/**
 * The contract's HTTP paths and limits, free of zod so the client's first bundle can import them
 * without the schemas (src/shared/api.ts re-exports them).
 */
export const MESSAGE_MAX_LENGTH = 5000;
export const PAGE_LIMIT_DEFAULT = 50;
export const PAGE_LIMIT_MAX = 100;
export const BODY_LIMIT_BYTES = 64 * 1024;

export const paths = {
  config: '/messenger/config',
  login: '/login',
  logout: '/logout',
  tokens: '/api/tokens',
  token: (tokenId: number) => `/api/tokens/${tokenId}`,
  demoAccounts: '/api/demo-accounts',
  initialData: '/load/messengers/initial/data',
  getMessage: '/user/get/message',
  sendMessage: '/user/send/message',
  unseen: (messengerUserId: number) => `/user/send/message/unseen/${messengerUserId}`,
  archive: (messengerUserId: number) => `/user/messenger/${messengerUserId}/archive`,
  unarchive: (messengerUserId: number) => `/user/messenger/${messengerUserId}/unarchive`,
  typing: (messengerUserId: number) => `/user/messenger/${messengerUserId}/typing`,
  settings: '/user/settings',
  attachments: '/user/attachments',
  attachment: (id: number) => `/user/attachments/${id}`,
  attachmentThumbnail: (id: number) => `/user/attachments/${id}/thumbnail`,
  broadcastingAuth: '/broadcasting/auth',
  broadcastingUserAuth: '/broadcasting/user-auth',
  /** With a hosted Pusher: its webhooks (`channel_occupied`, `channel_vacated`) feed presence. */
  pusherWebhook: '/pusher/webhook',
  sso: '/sso',
  unsubscribe: '/unsubscribe',
  /** Undoes an unsubscribe (POST, the same signed token). */
  resubscribe: '/unsubscribe/undo',
} as const;

/**
 * `value` when it is a path on this site ("/…": not "//…", no backslash, no control character, so
 * no browser reads it as another origin), else null. Where `next` may send someone after sign-in.
 */
export const sameOriginPath = (value: string | null | undefined): string | null => {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.includes('\\'))
    return null;
  if ([...value].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f))
    return null;
  return value;
};
