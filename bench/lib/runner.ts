import { loadavg } from 'node:os';
import { withScope } from './scope.js';
import type { Scenario, ScenarioContext, ScenarioResult } from './types.js';

const load = (): string =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

/**
 * Runs one scenario; a failure becomes a result with `error` (and whatever rows it had): a scenario
 * that throws, or one that reports an `error` of its own (a part of it crashed, its rows kept).
 */
export const runScenario = async (
  scenario: Scenario,
  context: ScenarioContext,
): Promise<ScenarioResult> => {
  const started = performance.now();
  const loadBefore = load();
  const workers = scenario.workerCounts ? (context.workers ?? [1]) : undefined;
  const dimension = workers ? { workers } : {};
  context.log(
    `▶ ${scenario.name} (${context.size}${workers ? `, workers ${workers.join(', ')}` : ''}): ${scenario.title}`,
  );
  /** What every result starts with: the scenario, its size, how long it took, its worker counts. */
  const ended = () => ({
    name: scenario.name,
    title: scenario.title,
    size: context.size,
    durationSeconds: Math.round((performance.now() - started) / 100) / 10,
    ...dimension,
  });
  try {
    const result = await withScope(context.profileDir, (scope) =>
      scenario.run({ ...context, workers, scope }),
    );
    const head = ended();
    if (result.error)
      context.log(`✘ ${scenario.name} failed in ${head.durationSeconds} s: ${result.error}`);
    else context.log(`✔ ${scenario.name} in ${head.durationSeconds} s`);
    return {
      ...head,
      ...result,
      notes: [
        ...result.notes,
        `Load average (1/5/15 min) before: ${loadBefore}; after: ${load()}.`,
      ],
    };
  } catch (error) {
    const head = ended();
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    context.log(`✘ ${scenario.name} failed after ${head.durationSeconds} s: ${message}`);
    return { ...head, rows: [], checks: {}, notes: [], error: message };
  }
};
