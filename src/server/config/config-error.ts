/**
 * The environment is wrong: every problem found, one plain sentence each (never zod's JSON), as
 * `--check` and a start that cannot work print them.
 */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
    this.name = 'ConfigError';
  }
}
