/**
 * Zod-free mirror of the contract's `paths` and limits (src/shared/api.ts).
 *
 * `src/shared/api.ts` builds its zod schemas at module load, so importing `paths` from it
 * would put zod (~27 KB gzipped) into the initial bundle. `contract.test.ts` asserts that
 * these values stay identical to the shared ones.
 */
export const apiPaths = {
  config: '/messenger/config',
  login: '/login',
  logout: '/logout',
  demoAccounts: '/api/demo-accounts',
  initialData: '/load/messengers/initial/data',
  getMessage: '/user/get/message',
  sendMessage: '/user/send/message',
  unseen: (messengerUserId: number) => `/user/send/message/unseen/${messengerUserId}`,
  archive: (messengerUserId: number) => `/user/messenger/${messengerUserId}/archive`,
  unarchive: (messengerUserId: number) => `/user/messenger/${messengerUserId}/unarchive`,
  broadcastingAuth: '/broadcasting/auth',
} as const;

export const MESSAGE_MAX_LENGTH = 5000;

/** Where the page lives, and where signed-out visitors are sent. */
export const pagePaths = {
  messages: '/messages',
  login: '/login',
} as const;
