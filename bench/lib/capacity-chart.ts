import { parse, View } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import type { StepFigures } from './capacity-figures.js';
import { CRITERIA } from './capacity-figures.js';

/** Okabe–Ito, ordered for contrast on white (its yellow is left out: unreadable on white). */
const PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000'];
const LABEL: Record<string, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };
/** One colour per database and worker count: dark with one worker, light with more. */
const COLOR: Record<string, string> = {
  'sqlite/1': PALETTE[0]!,
  'postgres/1': PALETTE[1]!,
  'sqlite/2': PALETTE[5]!,
  'postgres/2': PALETTE[4]!,
};
const PEER_COLOR = PALETTE[2]!;
const FALLBACK_COLORS = [PALETTE[3]!, PALETTE[6]!];

export interface CapacityChartRun {
  dialect: string;
  /** The server's worker processes. */
  workers: number;
  steps: StepFigures[];
}

interface ChartSeries {
  name: string;
  color: string;
  dashed: boolean;
  /** One point per step: its users and the figure (null = none: the line is broken there). */
  points: { users: number; value: number | null }[];
}

/** A horizontal line across a panel, e.g. `{ y: 200, label: 'p99 limit 200 ms' }`. */
interface ChartGuide {
  y: number;
  label: string;
}

interface ChartPanel {
  title: string;
  /** The y axis' title: what is measured, then its unit. */
  yTitle: string;
  yLog?: boolean;
  guides?: ChartGuide[];
  series: ChartSeries[];
}

/** `SQLite ×2`: a run's name in the legends (the database, then the server's worker count). */
const runName = (run: CapacityChartRun): string =>
  `${LABEL[run.dialect] ?? run.dialect} ×${run.workers}`;

const series = (
  name: string,
  steps: StepFigures[],
  pick: (step: StepFigures) => number | null,
  color: string,
  dashed = false,
): ChartSeries => ({
  name,
  color,
  dashed,
  points: steps.map((step) => ({ users: step.users, value: pick(step) })),
});

/** A criterion's limit drawn across a latency panel. */
const limitGuide = (percentile: string, ms: number): ChartGuide => ({
  y: ms,
  label: `${percentile} limit ${ms} ms`,
});

const ONE_CORE: ChartGuide = { y: 100, label: 'one core' };

/** A panel of latencies (ms, log scale), with the limit they are held to when there is one. */
const latencyPanel = (title: string, series: ChartSeries[], limit?: ChartGuide): ChartPanel => ({
  title,
  yTitle: 'latency (ms)',
  yLog: true,
  ...(limit ? { guides: [limit] } : {}),
  series,
});

/** One panel as a Vega-Lite layer: a line with points per series, its legend, its guides. */
const panelSpec = (panel: ChartPanel, usersAxis: number[]) => {
  const values = panel.series.flatMap((line) =>
    line.points.map((point) => ({ series: line.name, ...point })),
  );
  const names = panel.series.map((line) => line.name);
  const guides = panel.guides ?? [];
  return {
    title: panel.title,
    width: 380,
    height: 200,
    layer: [
      {
        data: { values },
        mark: { type: 'line', point: true, invalid: 'break-paths-show-domains' },
        encoding: {
          x: {
            field: 'users',
            type: 'quantitative',
            title: 'users on the site',
            scale: { type: 'log' },
            axis: { values: usersAxis, format: ',d' },
          },
          y: {
            field: 'value',
            type: 'quantitative',
            title: panel.yTitle,
            scale: panel.yLog ? { type: 'log' } : { zero: true },
          },
          // Colour and dash on the same field: one legend, whose samples are dashed like their lines.
          color: {
            field: 'series',
            type: 'nominal',
            title: null,
            sort: null,
            scale: { domain: names, range: panel.series.map((line) => line.color) },
            legend: { orient: 'bottom', columns: 2, symbolType: 'stroke', labelLimit: 400 },
          },
          strokeDash: {
            field: 'series',
            type: 'nominal',
            title: null,
            sort: null,
            scale: {
              domain: names,
              range: panel.series.map((line) => (line.dashed ? [6, 4] : [1, 0])),
            },
          },
        },
      },
      ...guides.map((guide) => ({
        data: { values: [guide] },
        layer: [
          { mark: { type: 'rule', color: '#666666', strokeDash: [2, 3] } },
          {
            mark: { type: 'text', align: 'left', dx: 4, dy: -6, color: '#555555' },
            encoding: { text: { field: 'label' }, x: { datum: usersAxis[0] } },
          },
        ],
        encoding: { y: { field: 'y', type: 'quantitative' } },
      })),
    ],
  };
};

/** Draws `panels` two a row under `title` and `subtitle`: an SVG document. */
const renderPanelsSvg = async (
  title: string,
  subtitle: string,
  panels: ChartPanel[],
): Promise<string> => {
  const users = panels.flatMap((panel) =>
    panel.series.flatMap((line) => line.points.map((point) => point.users)),
  );
  const usersAxis = [...new Set(users)].sort((a, b) => a - b);
  const spec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: { text: title, subtitle, anchor: 'start' },
    background: '#ffffff',
    columns: 2,
    concat: panels.map((panel) => panelSpec(panel, usersAxis)),
    resolve: { scale: { color: 'independent', y: 'independent', strokeDash: 'independent' } },
    config: {
      legend: { labelLimit: 400 },
      font: 'system-ui, -apple-system, Segoe UI, Roboto, Helvetica, Arial, sans-serif',
    },
  } as TopLevelSpec;
  const view = new View(parse(compile(spec).spec), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  return svg;
};

/**
 * The capacity chart (docs/performance-capacity.svg): latency percentiles, CPU and memory against
 * the number of users, one colour per database and server worker count (`SQLite ×2`: two worker
 * processes); the Socket.IO peer's delivery dashed beside ours.
 */
export const renderCapacityChart = async (
  runs: CapacityChartRun[],
  subtitle: string,
): Promise<string> => {
  let fallback = 0;
  const colors = new Map(
    runs.map((run) => {
      const key = `${run.dialect}/${run.workers}`;
      const color = COLOR[key] ?? FALLBACK_COLORS[fallback++ % FALLBACK_COLORS.length]!;
      return [run, color] as const;
    }),
  );
  const per = (
    make: (dialect: string, label: string, steps: StepFigures[], color: string) => ChartSeries[],
  ): ChartSeries[] =>
    runs.flatMap((run) => make(run.dialect, runName(run), run.steps, colors.get(run)!));
  type Figure = [name: string, pick: (step: StepFigures) => number | null];
  /** Two figures of each run in its colour: the first solid, the second dashed. */
  const solidThenDashed = ([solid, pickSolid]: Figure, [dashed, pickDashed]: Figure) =>
    per((_dialect, label, steps, color) => [
      series(`${label} ${solid}`, steps, pickSolid, color),
      series(`${label} ${dashed}`, steps, pickDashed, color, true),
    ]);
  const peerRuns = runs
    .map((run) => ({ ...run, steps: run.steps.filter((step) => step.peer) }))
    .filter((run) => run.steps.length > 0);
  return renderPanelsSvg(
    'Capacity: simulated users on one server, ×N worker processes (2 cores, load generators included)',
    subtitle,
    [
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
          ...per((_dialect, label, steps, color) => [
            series(`${label} (ours)`, steps, (step) => step.latency.deliver.p99, color),
          ]),
          ...peerRuns.map((run) =>
            series(
              `Socket.IO peer (${LABEL[run.dialect] ?? run.dialect} insert, beside ${runName(run)})`,
              run.steps,
              (step) => step.peer?.p99 ?? null,
              PEER_COLOR,
              true,
            ),
          ),
        ],
        limitGuide('p99', CRITERIA.deliverP99Ms),
      ),
      {
        title: 'CPU over the window (server: the process and its workers)',
        yTitle: 'CPU (% of one core)',
        guides: [ONE_CORE],
        series: per((dialect, label, steps, color) => [
          series(`${label} server`, steps, (step) => step.resources.serverCpuPct, color),
          ...(dialect === 'postgres'
            ? [
                series(
                  `${label} PostgreSQL processes`,
                  steps,
                  (step) => step.resources.postgresCpuPct,
                  color,
                  true,
                ),
              ]
            : []),
        ]),
      },
      {
        title: 'Load generators’ CPU over the window (together)',
        yTitle: 'CPU (% of one core)',
        guides: [ONE_CORE],
        series: per((_dialect, label, steps, color) => [
          series(
            `${label} run`,
            steps,
            (step) => step.resources.generatorCpuPct.reduce((sum, pct) => sum + pct, 0),
            color,
            true,
          ),
        ]),
      },
      {
        title: 'Server memory (RSS at the end of the window)',
        yTitle: 'RSS (MiB)',
        series: per((_dialect, label, steps, color) => [
          series(label, steps, (step) => step.resources.serverRssMiB, color),
        ]),
      },
      {
        title: 'Calls per second over the window',
        yTitle: 'calls per second',
        series: per((_dialect, label, steps, color) => [
          series(label, steps, (step) => step.windowCallsPerSecond, color),
        ]),
      },
    ],
  );
};
