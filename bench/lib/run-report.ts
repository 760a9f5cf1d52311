import type { MachineInfo } from './machine.js';
import type { ScenarioResult, Size } from './types.js';

/** What `npm run bench` writes to its JSON file (`--out`, or bench/results/latest*.json). */
export interface RunReport {
  startedAt: string;
  finishedAt: string;
  durationSeconds: number;
  size: Size;
  scenarios: string[];
  /** The server worker counts of the scenarios that take them. */
  workers: number[];
  machine: MachineInfo;
  results: ScenarioResult[];
}
