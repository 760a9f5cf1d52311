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
  try {
    const result = await withScope(context.profileDir, (scope) =>
      scenario.run({ ...context, workers, scope }),
    );
    const durationSeconds = Math.round((performance.now() - started) / 100) / 10;
    if (result.error)
      context.log(`✘ ${scenario.name} failed in ${durationSeconds} s: ${result.error}`);
    else context.log(`✔ ${scenario.name} in ${durationSeconds} s`);
    return {
      name: scenario.name,
      title: scenario.title,
      size: context.size,
      durationSeconds,
      ...dimension,
      ...result,
      notes: [
        ...result.notes,
        `Load average (1/5/15 min) before: ${loadBefore}; after: ${load()}.`,
      ],
    };
  } catch (error) {
    const durationSeconds = Math.round((performance.now() - started) / 100) / 10;
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    context.log(`✘ ${scenario.name} failed after ${durationSeconds} s: ${message}`);
    return {
      name: scenario.name,
      title: scenario.title,
      size: context.size,
      durationSeconds,
      ...dimension,
      rows: [],
      checks: {},
      notes: [],
      error: message,
    };
  }
};
