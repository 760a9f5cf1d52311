import type { Scenario } from '../lib/types.js';
import { capacity } from './capacity.js';
import { connections } from './connections.js';
import { dataScale } from './data-scale.js';
import { embed } from './embed.js';
import { notifications } from './notifications.js';
import { pageWeight } from './page-weight.js';
import { presence } from './presence.js';
import { scaleOut } from './scale-out.js';
import { sendThroughput } from './send-throughput.js';
import { sendToDeliver } from './send-to-deliver.js';
import { twoInstances } from './two-instances.js';
import { uploads } from './uploads.js';

/** Every scenario, in the order a full run takes them. */
export const SCENARIOS: Scenario[] = [
  sendToDeliver,
  sendThroughput,
  twoInstances,
  scaleOut,
  connections,
  dataScale,
  pageWeight,
  embed,
  notifications,
  presence,
  uploads,
  capacity,
];

export const scenarioNames = (): string[] => SCENARIOS.map((scenario) => scenario.name);
