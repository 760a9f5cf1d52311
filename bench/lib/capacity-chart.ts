import type { StepFigures } from './capacity-figures.js';
import { CRITERIA } from './capacity-figures.js';
import {
  CHART_PALETTE,
  renderLineChartSvg,
  type ChartGuide,
  type ChartPanel,
  type ChartSeries,
} from './svg-chart.js';

const LABEL: Record<string, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };
/** One colour per database and worker count: dark with one worker, light with more. */
const COLOR: Record<string, string> = {
  'sqlite/1': CHART_PALETTE[0]!,
  'postgres/1': CHART_PALETTE[1]!,
  'sqlite/2': CHART_PALETTE[5]!,
  'postgres/2': CHART_PALETTE[4]!,
};
const PEER_COLOR = CHART_PALETTE[2]!;
const FALLBACK_COLORS = [CHART_PALETTE[3]!, CHART_PALETTE[6]!];

export interface CapacityChartRun {
  dialect: string;
  /** The server's worker processes. */
  workers: number;
  steps: StepFigures[];
}

/** `SQLite ×2`: a run's name in the legends (the database, then the server's worker count). */
const runName = (run: CapacityChartRun): string =>
  `${LABEL[run.dialect] ?? run.dialect} ×${run.workers}`;

const series = (
  name: string,
  steps: StepFigures[],
  pick: (step: StepFigures) => number | null,
  style: { color?: string; dashed?: boolean } = {},
): ChartSeries => ({
  name,
  points: steps.map((step) => ({ x: step.users, y: pick(step) })),
  ...style,
});

/** A criterion's limit drawn across a latency panel. */
const limitGuide = (percentile: string, ms: number): ChartGuide => ({
  y: ms,
  label: `${percentile} limit ${ms} ms`,
});

/** A panel of latencies (ms, log scale), with the limit they are held to when there is one. */
const latencyPanel = (title: string, series: ChartSeries[], limit?: ChartGuide): ChartPanel => ({
  title,
  yLabel: 'latency',
  unit: 'ms',
  yLog: true,
  ...(limit ? { guides: [limit] } : {}),
  series,
});

/**
 * The capacity chart (docs/performance-capacity.svg): latency percentiles, CPU and memory against
 * the number of users, one colour per database and server worker count (`SQLite ×2`: two worker
 * processes); the Socket.IO peer's delivery dashed beside ours.
 */
export const renderCapacityChart = (runs: CapacityChartRun[], subtitle: string): string => {
  let fallback = 0;
  const colors = new Map(
    runs.map((run) => {
      const key = `${run.dialect}/${run.workers}`;
      const color =
        COLOR[key] ?? FALLBACK_COLORS[fallback++ % FALLBACK_COLORS.length] ?? CHART_PALETTE[6]!;
      return [run, color] as const;
    }),
  );
  const per = <T>(
    make: (dialect: string, label: string, steps: StepFigures[], color: string) => T[],
  ): T[] => runs.flatMap((run) => make(run.dialect, runName(run), run.steps, colors.get(run)!));
  type Figure = [name: string, pick: (step: StepFigures) => number | null];
  /** Two figures of each run in its colour: the first solid, the second dashed. */
  const solidThenDashed = ([solid, pickSolid]: Figure, [dashed, pickDashed]: Figure) =>
    per((_dialect, label, steps, color) => [
      series(`${label} ${solid}`, steps, pickSolid, { color }),
      series(`${label} ${dashed}`, steps, pickDashed, { color, dashed: true }),
    ]);
  const peerRuns = runs
    .map((run) => ({ ...run, steps: run.steps.filter((step) => step.peer) }))
    .filter((run) => run.steps.length > 0);
  return renderLineChartSvg({
    title:
      'Capacity: simulated users on one server, ×N worker processes (2 cores, load generators included)',
    subtitle,
    xLabel: 'users on the site',
    xLog: true,
    columns: 2,
    panels: [
      latencyPanel(
        'Page load (config + first list page)',
        solidThenDashed(
          ['p95', (step) => step.latency.pageLoad.p95],
          ['p50', (step) => step.latency.pageLoad.p50],
        ),
        limitGuide('p95', CRITERIA.pageLoadP95Ms),
      ),
      latencyPanel(
        'Conversation open and send call, p99',
        solidThenDashed(
          ['open', (step) => step.latency.open.p99],
          ['send', (step) => step.latency.send.p99],
        ),
      ),
      latencyPanel(
        'Send → ChatMessage at the receiver, p99',
        [
          ...per((dialect, label, steps, color) => [
            series(`${label} (ours)`, steps, (step) => step.latency.deliver.p99, { color }),
          ]),
          ...peerRuns.map((run) =>
            series(
              `Socket.IO peer (${LABEL[run.dialect] ?? run.dialect} insert, beside ${runName(run)})`,
              run.steps,
              (step) => step.peer?.p99 ?? null,
              { color: PEER_COLOR, dashed: true },
            ),
          ),
        ],
        limitGuide('p99', CRITERIA.deliverP99Ms),
      ),
      {
        title: 'CPU over the window (server: the process and its workers)',
        yLabel: 'CPU',
        unit: '% of one core',
        guides: [{ y: 100, label: 'one core' }],
        series: per((dialect, label, steps, color) => [
          series(`${label} server`, steps, (step) => step.resources.serverCpuPct, { color }),
          ...(dialect === 'postgres'
            ? [
                series(
                  `${label} PostgreSQL processes`,
                  steps,
                  (step) => step.resources.postgresCpuPct,
                  { color, dashed: true },
                ),
              ]
            : []),
        ]),
      },
      {
        title: 'Load generators’ CPU over the window (together)',
        yLabel: 'CPU',
        unit: '% of one core',
        guides: [{ y: 100, label: 'one core' }],
        series: per((_dialect, label, steps, color) => [
          series(
            `${label} run`,
            steps,
            (step) => step.resources.generatorCpuPct.reduce((sum, pct) => sum + pct, 0),
            { color, dashed: true },
          ),
        ]),
      },
      {
        title: 'Server memory (RSS at the end of the window)',
        yLabel: 'RSS',
        unit: 'MiB',
        series: per((_dialect, label, steps, color) => [
          series(label, steps, (step) => step.resources.serverRssMiB, { color }),
        ]),
      },
      {
        title: 'Calls per second over the window',
        yLabel: 'calls per second',
        unit: '',
        series: per((_dialect, label, steps, color) => [
          series(label, steps, (step) => step.windowCallsPerSecond, { color }),
        ]),
      },
    ],
  });
};
