import type { z } from 'zod';

/**
 * Plain sentences for what is wrong with the environment (`--check`, a start that cannot work) and
 * for variables that look like the server's but are not: made from the settings' zod schemas, so
 * a sentence says what the schema accepts. Never raw JSON, never a secret's value.
 */

interface CheckDef {
  check: string;
  value?: unknown;
  inclusive?: boolean;
  format?: string;
  minimum?: number;
  maximum?: number;
}

interface SchemaDef {
  type: string;
  innerType?: z.ZodType;
  checks?: { _zod: { def: CheckDef } }[];
  options?: z.ZodType[];
  entries?: Record<string, string>;
  values?: unknown[];
  defaultValue?: unknown;
}

const defOf = (schema: z.ZodType): SchemaDef => schema._zod.def;

/** The schema under `.default()` / `.optional()`. */
export const innermost = (schema: z.ZodType): z.ZodType => {
  let current = schema;
  for (;;) {
    const def = defOf(current);
    if ((def.type === 'default' || def.type === 'optional') && def.innerType)
      current = def.innerType;
    else return current;
  }
};

/** The zod default of a setting (undefined: none). */
export const defaultOf = (schema: z.ZodType): unknown => {
  let current = schema;
  for (;;) {
    const def = defOf(current);
    if (def.type === 'default') return def.defaultValue;
    if (def.type === 'optional' && def.innerType) current = def.innerType;
    else return undefined;
  }
};

const checksOf = (schema: z.ZodType): CheckDef[] =>
  (defOf(schema).checks ?? []).map((check) => check._zod.def);

const numberExpectation = (checks: CheckDef[]): string => {
  const whole = checks.some((c) => c.check === 'number_format' && /int/.test(c.format ?? ''));
  const noun = whole ? 'whole number' : 'number';
  const lower = checks.find((c) => c.check === 'greater_than');
  const upper = checks.find((c) => c.check === 'less_than');
  const low = lower?.value as number | undefined;
  const high = upper?.value as number | undefined;
  if (lower && !lower.inclusive && low === 0 && !upper) return `a ${noun} greater than 0`;
  if (lower?.inclusive && upper?.inclusive) return `a ${noun} from ${low} to ${high}`;
  if (lower?.inclusive && !upper) return `a ${noun} of ${low} or more`;
  if (lower && !upper) return `a ${noun} greater than ${low}`;
  if (upper && !lower) return `a ${noun} of at most ${high}`;
  if (lower && upper) return `a ${noun} above ${low} and up to ${high}`;
  return `a ${noun}`;
};

/**
 * What a setting accepts, in words ("a whole number from 0 to 65535", "one of on, off"), or
 * undefined for free text (whose own checks word their messages).
 */
export const expectationOf = (schema: z.ZodType): string | undefined => {
  const inner = innermost(schema);
  const def = defOf(inner);
  if (def.type === 'number') return numberExpectation(checksOf(inner));
  if (def.type === 'enum') return `one of ${Object.values(def.entries ?? {}).join(', ')}`;
  if (def.type === 'literal') return (def.values ?? []).map(String).join(' or ');
  if (def.type === 'union')
    return (def.options ?? [])
      .map((option) => expectationOf(option))
      .filter(Boolean)
      .join(', or ');
  if (def.type === 'string') {
    const checks = checksOf(inner);
    if (checks.some((c) => c.check === 'string_format' && c.format === 'url'))
      return 'an absolute URL (https://…)';
    const max = checks.find((c) => c.check === 'max_length')?.maximum;
    if (max !== undefined) return `text of at most ${max} characters`;
    if (checks.some((c) => c.check === 'min_length')) return 'not empty';
  }
  return undefined;
};

/** zod's own wording ("Invalid input…", "Too small…"), as opposed to a message of ours. */
const ZOD_WORDING = /^(Invalid|Too (small|big)|Expected)/;

/**
 * One sentence per bad variable, from zod's issues: "PORT must be a whole number from 0 to 65535
 * (got "abc")." A secret's value is not repeated.
 */
export const problemSentences = (
  issues: readonly z.core.$ZodIssue[],
  shape: Record<string, z.ZodType>,
  input: Record<string, string | undefined>,
): string[] => {
  const sentences = new Map<string, string>();
  for (const issue of issues) {
    const name = String(issue.path[0] ?? '');
    if (sentences.has(name)) continue; // one sentence per variable: its first problem
    const schema = shape[name];
    const raw = input[name];
    const secret = schema?.meta()?.secret === true;
    const got = raw === undefined || secret ? '' : ` (got ${JSON.stringify(raw)})`;
    const ours = !ZOD_WORDING.test(issue.message) ? issue.message : undefined;
    const expectation = schema ? expectationOf(schema) : undefined;
    const sentence = ours
      ? `${name} ${ours}${got}.`
      : `${name} must be ${expectation ?? 'a valid value'}${got}.`;
    sentences.set(name, sentence);
  }
  return [...sentences.values()];
};

/** Levenshtein distance (insertions, deletions, substitutions). */
export const editDistance = (a: string, b: string): number => {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
};

/**
 * How far a name may be from one of the server's to count as a misspelling of it: none below 8
 * characters (HOST and HOME, APP_KEY and API_KEY are too close to tell), one letter up to 11,
 * two beyond.
 */
const nearMissDistance = (name: string): number => (name.length < 8 ? 0 : name.length < 12 ? 1 : 2);

/** Common variables of other programs that happen to sit near one of the server's names. */
const OTHER_PROGRAMS = new Set(['MAILDIR']);

/**
 * Variables that look like the server's but are not: an unknown name under one of its own
 * prefixes (`INTEGRATION_KEY`), or a near-miss of one of its names (`SMTP_ULR`, `port`). Other
 * variables (PATH, HOME, NODE_OPTIONS, npm_*, CI, TEST_*…) are left alone.
 */
export const lookAlikeWarnings = (
  env: Record<string, string | undefined>,
  names: readonly string[],
  prefixes: readonly string[],
): string[] => {
  const known = new Set(names);
  const warnings: string[] = [];
  for (const variable of Object.keys(env).sort()) {
    const upper = variable.toUpperCase();
    if (known.has(variable) || env[variable] === undefined || OTHER_PROGRAMS.has(upper)) continue;
    const ranked = names
      .map((name) => ({ name, distance: editDistance(upper, name) }))
      .sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name));
    const closest = ranked[0];
    if (!closest) continue;
    const nearMiss =
      closest.distance <= Math.min(nearMissDistance(closest.name), nearMissDistance(upper));
    const prefix = prefixes.find((own) => upper.startsWith(own));
    if (!nearMiss && prefix === undefined) continue;
    // under a prefix: the closest of that prefix's settings
    const suggestion =
      nearMiss || prefix === undefined
        ? closest.name
        : (ranked.find((entry) => entry.name.startsWith(prefix))?.name ?? closest.name);
    warnings.push(`${variable} is not a setting of this server: did you mean ${suggestion}?`);
  }
  return warnings;
};
