import { pathTemplate } from './paths.js';

/**
 * Working faster (saved replies, searching messages, editing and deleting): the paths, limits and
 * the filling of saved replies, free of zod so the client's first bundle can import them
 * (src/shared/working-faster.ts re-exports them with the schemas).
 */
export const workingFasterPaths = {
  templates: '/user/templates',
  template: pathTemplate('/user/templates/:id'),
  searchMessages: '/user/messages/search',
  /** `PATCH` edits the text, `DELETE` deletes the message (its sender only, within the edit window). */
  message: pathTemplate('/user/messages/:id'),
} as const;

export const TEMPLATE_NAME_MAX_LENGTH = 80;
export const TEMPLATE_BODY_MAX_LENGTH = 5000;
/** Saved replies one user may keep (the 101st answers 422). */
export const TEMPLATES_PER_USER = 100;
/** `EDIT_WINDOW_SECONDS`' default: how long a sender may edit or delete a message. */
export const EDIT_WINDOW_SECONDS_DEFAULT = 900;
/** What the sender is told when the edit window has passed, or the message is already deleted (422 on `message`). */
export const EDIT_WINDOW_PASSED_MESSAGE = 'This message can no longer be changed.';

/** The variables a saved reply may hold, as `{{name}}`. */
export const TEMPLATE_VARIABLES = [
  'candidate.first_name',
  'candidate.name',
  'company.name',
  'job.title',
  'me.name',
] as const;
export type TemplateVariable = (typeof TEMPLATE_VARIABLES)[number];
export type TemplateValues = Partial<Record<TemplateVariable, string | null>>;

const VARIABLE = /\{\{\s*([a-z_]+\.[a-z_]+)\s*\}\}/g;
const isTemplateVariable = (name: string): name is TemplateVariable =>
  (TEMPLATE_VARIABLES as readonly string[]).includes(name);

/** A name's first word ("Sara Ali" → "Sara"); empty for an empty name. */
export const firstName = (name: string): string => name.trim().split(/\s+/u)[0] ?? '';

/**
 * A saved reply's body with its variables filled: a known variable whose value is missing becomes
 * empty text; anything else in braces stays as written.
 */
export const fillTemplate = (body: string, values: TemplateValues): string =>
  body.replace(VARIABLE, (whole, name: string) =>
    isTemplateVariable(name) ? (values[name] ?? '') : whole,
  );
