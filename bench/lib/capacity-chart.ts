import type { StepFigures } from './capacity-figures.js';
import { CRITERIA } from './capacity-figures.js';
import { CHART_PALETTE, renderLineChartSvg, type ChartSeries } from './svg-chart.js';

const LABEL: Record<string, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };
const COLOR: Record<string, string> = { sqlite: CHART_PALETTE[0]!, postgres: CHART_PALETTE[1]! };
const PEER_COLOR = CHART_PALETTE[2]!;
const GENERATOR_COLOR = CHART_PALETTE[3]!;

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

/**
 * The capacity chart (docs/performance-capacity.svg): latency percentiles, CPU and memory against
 * the number of users, one colour per database; the Socket.IO peer's delivery dashed beside ours.
 */
export const renderCapacityChart = (
  runs: { dialect: string; steps: StepFigures[] }[],
  subtitle: string,
): string => {
  const per = <T>(make: (dialect: string, label: string, steps: StepFigures[]) => T[]): T[] =>
    runs.flatMap((run) => make(run.dialect, LABEL[run.dialect] ?? run.dialect, run.steps));
  const peerRuns = runs
    .map((run) => ({ ...run, steps: run.steps.filter((step) => step.peer) }))
    .filter((run) => run.steps.length > 0);
  return renderLineChartSvg({
    title: 'Capacity: simulated users on one server (2 cores, load generators included)',
    subtitle,
    xLabel: 'users on the site',
    xLog: true,
    columns: 2,
    panels: [
      {
        title: 'Page load (config + first list page)',
        yLabel: 'latency',
        unit: 'ms',
        yLog: true,
        guides: [{ y: CRITERIA.pageLoadP95Ms, label: `p95 limit ${CRITERIA.pageLoadP95Ms} ms` }],
        series: per((dialect, label, steps) => [
          series(`${label} p95`, steps, (step) => step.latency.pageLoad.p95, {
            color: COLOR[dialect]!,
          }),
          series(`${label} p50`, steps, (step) => step.latency.pageLoad.p50, {
            color: COLOR[dialect]!,
            dashed: true,
          }),
        ]),
      },
      {
        title: 'Conversation open and send call, p99',
        yLabel: 'latency',
        unit: 'ms',
        yLog: true,
        series: per((dialect, label, steps) => [
          series(`${label} open`, steps, (step) => step.latency.open.p99, {
            color: COLOR[dialect]!,
          }),
          series(`${label} send`, steps, (step) => step.latency.send.p99, {
            color: COLOR[dialect]!,
            dashed: true,
          }),
        ]),
      },
      {
        title: 'Send → ChatMessage at the receiver, p99',
        yLabel: 'latency',
        unit: 'ms',
        yLog: true,
        guides: [{ y: CRITERIA.deliverP99Ms, label: `p99 limit ${CRITERIA.deliverP99Ms} ms` }],
        series: [
          ...per((dialect, label, steps) => [
            series(`${label} (ours)`, steps, (step) => step.latency.deliver.p99, {
              color: COLOR[dialect]!,
            }),
          ]),
          ...peerRuns.map((run) =>
            series(
              `Socket.IO peer (${LABEL[run.dialect] ?? run.dialect} insert)`,
              run.steps,
              (step) => step.peer?.p99 ?? null,
              { color: PEER_COLOR, dashed: true },
            ),
          ),
        ],
      },
      {
        title: 'CPU over the window',
        yLabel: 'CPU',
        unit: '% of one core',
        guides: [{ y: 100, label: 'one core' }],
        series: [
          ...per((dialect, label, steps) => [
            series(`${label} server`, steps, (step) => step.resources.serverCpuPct, {
              color: COLOR[dialect]!,
            }),
            ...(dialect === 'postgres'
              ? [
                  series('PostgreSQL processes', steps, (step) => step.resources.postgresCpuPct, {
                    color: COLOR[dialect]!,
                    dashed: true,
                  }),
                ]
              : []),
          ]),
          ...per((dialect, label, steps) => [
            series(
              `load generators (${label} run)`,
              steps,
              (step) => step.resources.generatorCpuPct.reduce((sum, pct) => sum + pct, 0),
              { color: dialect === 'sqlite' ? GENERATOR_COLOR : CHART_PALETTE[4]!, dashed: true },
            ),
          ]),
        ],
      },
      {
        title: 'Server memory (RSS at the end of the window)',
        yLabel: 'RSS',
        unit: 'MiB',
        series: per((dialect, label, steps) => [
          series(label, steps, (step) => step.resources.serverRssMiB, { color: COLOR[dialect]! }),
        ]),
      },
      {
        title: 'Calls per second over the window',
        yLabel: 'calls per second',
        unit: '',
        series: per((dialect, label, steps) => [
          series(label, steps, (step) => step.windowCallsPerSecond, { color: COLOR[dialect]! }),
        ]),
      },
    ],
  });
};
