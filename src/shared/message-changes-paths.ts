import { pathTemplate } from './paths.js';

/**
 * Editing and deleting a message: the path, the edit window and its refusal, free of zod so the
 * client's first bundle can import them (src/shared/message-changes.ts re-exports them with the
 * schemas).
 */
export const messageChangesPaths = {
  /** `PATCH` edits the text, `DELETE` deletes the message (its sender only, within the edit window). */
  message: pathTemplate('/user/messages/:id'),
} as const;

/** `EDIT_WINDOW_SECONDS`' default: how long a sender may edit or delete a message. */
export const EDIT_WINDOW_SECONDS_DEFAULT = 900;
/** What the sender is told when the edit window has passed, or the message is already deleted (422 on `message`). */
export const EDIT_WINDOW_PASSED_MESSAGE = 'This message can no longer be changed.';
