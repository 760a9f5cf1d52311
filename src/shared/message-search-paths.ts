/**
 * Searching messages: the path, free of zod so the client's first bundle can import it
 * (src/shared/message-search.ts re-exports it with the schemas; the limits are in search-text.ts).
 */
export const messageSearchPaths = {
  searchMessages: '/user/messages/search',
} as const;
