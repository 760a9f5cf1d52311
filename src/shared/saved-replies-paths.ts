import { pathTemplate } from './paths.js';

/**
 * Saved replies: the paths, limits and the filling of variables, free of zod so the client's first
 * bundle can import them (src/shared/saved-replies.ts re-exports them with the schemas).
 */
export const savedRepliesPaths = {
  templates: '/user/templates',
  template: pathTemplate('/user/templates/:id'),
} as const;

export const TEMPLATE_NAME_MAX_LENGTH = 80;
export const TEMPLATE_BODY_MAX_LENGTH = 5000;
/** Saved replies one user may keep (the 101st answers 422). */
export const TEMPLATES_PER_USER = 100;
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
