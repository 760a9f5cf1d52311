// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import {
  formatNumber,
  renderLineChartSvg,
  type ChartOptions,
  type ChartPanel,
  type ChartSeries,
} from './svg-chart.js';

const XS = [1000, 2500, 5000, 10000, 20000];

const series = (name: string, ys: (number | null)[], extra: Partial<ChartSeries> = {}) => ({
  name,
  points: ys.map((y, i) => ({ x: XS[i] ?? i, y })),
  ...extra,
});

const panel = (extra: Partial<ChartPanel> = {}): ChartPanel => ({
  title: 'Page load',
  yLabel: 'Latency',
  unit: 'ms',
  series: [series('p50', [10, 12, 15, 30, 80]), series('p95', [30, 35, 50, 120, 310])],
  guides: [{ y: 200, label: 'target 200 ms' }],
  ...extra,
});

const chart = (extra: Partial<ChartOptions> = {}): ChartOptions => ({
  title: 'Capacity',
  subtitle: 'one run per point',
  xLabel: 'Simulated users',
  panels: [panel()],
  ...extra,
});

/** Parses the SVG as XML; a parse error is a failed test. */
const parse = (svg: string): Document => {
  const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
  expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
  expect(doc.documentElement.nodeName).toBe('svg');
  return doc;
};

const panels = (doc: Document): Element[] =>
  [...doc.documentElement.children].filter((element) => element.nodeName === 'g');

/** Markers drawn for the data (legend markers carry no title), with their centre. */
const dataMarkers = (scope: Element, name: string): { x: number; y: number; title: string }[] =>
  [...scope.querySelectorAll('circle, rect, path')]
    .filter((element) => element.querySelector('title')?.textContent?.startsWith(`${name} — `))
    .map((element) => {
      const title = element.querySelector('title')!.textContent!;
      if (element.nodeName === 'circle') {
        return {
          x: Number(element.getAttribute('cx')),
          y: Number(element.getAttribute('cy')),
          title,
        };
      }
      if (element.nodeName === 'rect') {
        const size = Number(element.getAttribute('width')) / 2;
        return {
          x: Number(element.getAttribute('x')) + size,
          y: Number(element.getAttribute('y')) + size,
          title,
        };
      }
      const [, x, y] = /^M([\d.-]+) ([\d.-]+)/.exec(element.getAttribute('d') ?? '') ?? [];
      return { x: Number(x), y: Number(y), title };
    });

/** The y tick labels of a panel (12px, right-aligned), top to bottom. */
const yTicks = (scope: Element): { label: string; y: number }[] =>
  [...scope.querySelectorAll('text')]
    .filter((t) => t.getAttribute('text-anchor') === 'end' && t.getAttribute('font-size') === '12')
    .map((t) => ({ label: t.textContent ?? '', y: Number(t.getAttribute('y')) }))
    .sort((a, b) => a.y - b.y);

const seriesPaths = (scope: Element): Element[] =>
  [...scope.querySelectorAll('path')].filter(
    (p) => p.getAttribute('fill') === 'none' && p.getAttribute('stroke-width') === '2',
  );

const EDGE_CASES: [string, ChartOptions][] = [
  ['no panels', chart({ panels: [] })],
  ['no series', chart({ panels: [panel({ series: [], guides: [] })] })],
  ['empty series', chart({ panels: [panel({ series: [{ name: 'none', points: [] }] })] })],
  ['all-null series', chart({ panels: [panel({ series: [series('gaps', [null, null, null])] })] })],
  [
    'all-null series on log axes',
    chart({ xLog: true, panels: [panel({ yLog: true, series: [series('gaps', [null, null])] })] }),
  ],
  [
    'a single x value',
    chart({
      xLog: true,
      panels: [panel({ series: [{ name: 'one', points: [{ x: 5000, y: 3 }] }] })],
    }),
  ],
  [
    'all-equal y',
    chart({ panels: [panel({ guides: [], series: [series('flat', [7, 7, 7, 7, 7])] })] }),
  ],
  ['all-zero y', chart({ panels: [panel({ guides: [], series: [series('zero', [0, 0, 0])] })] })],
  [
    'zeros on a log axis',
    chart({ panels: [panel({ yLog: true, series: [series('zeroes', [0, 0, 5, 50, 0])] })] }),
  ],
  [
    'only zeros on a log axis',
    chart({ panels: [panel({ yLog: true, guides: [], series: [series('zero', [0, 0])] })] }),
  ],
  [
    'a guide at 0 on a log axis, yMin 0',
    chart({ panels: [panel({ yLog: true, yMin: 0, guides: [{ y: 0, label: 'zero' }] })] }),
  ],
  [
    'non-finite inputs',
    chart({
      xLog: true,
      columns: Number.NaN,
      panelWidth: Number.POSITIVE_INFINITY,
      panels: [
        panel({
          yMin: Number.NaN,
          guides: [{ y: Number.NaN, label: 'nan' }],
          series: [
            {
              name: 'odd',
              points: [
                { x: 0, y: 1 },
                { x: -5, y: 2 },
                { x: Number.NaN, y: 3 },
                { x: 1000, y: Number.POSITIVE_INFINITY },
                { x: 2000, y: Number.NaN },
                { x: 4000, y: 4 },
              ],
            },
          ],
        }),
      ],
    }),
  ],
  [
    'tiny and huge values',
    chart({
      panels: [
        panel({ guides: [], series: [series('tiny', [0.0001, 0.0002, 0.0003])] }),
        panel({ guides: [], yLog: true, series: [series('huge', [1e-6, 1e12, 5e15])] }),
        panel({ guides: [], series: [series('negative', [-40, -3, 12])] }),
      ],
    }),
  ],
];

describe('renderLineChartSvg', () => {
  it('is a self-contained SVG document: size, viewBox, white background, fonts, title', () => {
    const svg = renderLineChartSvg(chart({ panels: [panel(), panel(), panel()] }));
    const root = parse(svg).documentElement;
    expect(root.getAttribute('xmlns')).toBe('http://www.w3.org/2000/svg');
    const width = root.getAttribute('width');
    const height = root.getAttribute('height');
    expect(Number(width)).toBeGreaterThan(0);
    expect(Number(height)).toBeGreaterThan(0);
    expect(root.getAttribute('viewBox')).toBe(`0 0 ${width} ${height}`);
    expect(root.getAttribute('font-family')).toMatch(/system-ui.*sans-serif$/);
    expect(root.querySelector(':scope > title')?.textContent).toBe('Capacity');
    const background = root.querySelector(':scope > rect');
    expect(background?.getAttribute('fill')).toBe('#ffffff');
    expect(background?.getAttribute('width')).toBe(width);
    expect(background?.getAttribute('height')).toBe(height);
    const sizes = [...root.querySelectorAll('[font-size]')].map((e) =>
      Number(e.getAttribute('font-size')),
    );
    expect(sizes.length).toBeGreaterThan(10);
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(11);
    // Three panels in two columns: two grid rows.
    expect(panels(parse(svg))).toHaveLength(3);
    expect(svg).not.toMatch(/\d\.\d{3,}/);
  });

  it('the XML check itself catches a malformed document', () => {
    const doc = new DOMParser().parseFromString('<svg><text>a & b</svg>', 'image/svg+xml');
    expect(doc.getElementsByTagName('parsererror').length).toBeGreaterThan(0);
  });

  it('escapes every text', () => {
    const nasty = `<&>"'`;
    const svg = renderLineChartSvg({
      title: `T ${nasty}`,
      subtitle: `S ${nasty}`,
      xLabel: `X ${nasty}`,
      panels: [
        {
          title: `P ${nasty}`,
          yLabel: `Y ${nasty}`,
          unit: `u${nasty}`,
          series: [series(`N ${nasty}`, [1, 2, 3], { color: `#000" onload="x` })],
          guides: [{ y: 2, label: `G ${nasty}` }],
        },
      ],
    });
    expect(svg).not.toContain(nasty);
    expect(svg).not.toContain('" onload="');
    const doc = parse(svg);
    const texts = [...doc.querySelectorAll('text, title, desc')].map((t) => t.textContent ?? '');
    for (const expected of ['T ', 'S ', 'X ', 'P ', 'Y ', 'N ', 'G ']) {
      expect(texts.some((t) => t.includes(`${expected}${nasty}`))).toBe(true);
    }
    expect(doc.querySelectorAll('[onload]')).toHaveLength(0);
  });

  it.each(EDGE_CASES)('survives %s: well-formed, no NaN or Infinity', (_, options) => {
    const svg = renderLineChartSvg(options);
    expect(svg).not.toMatch(/NaN|Infinity|undefined/);
    parse(svg);
  });

  it('reports a series without any value in the legend and an empty panel as "no data"', () => {
    const doc = parse(
      renderLineChartSvg(chart({ panels: [panel({ series: [series('gaps', [null, null])] })] })),
    );
    const texts = [...doc.querySelectorAll('text')].map((t) => t.textContent);
    expect(texts).toContain('gaps (no data)');
    expect(texts).toContain('no data');
  });

  it('places larger values higher, on linear and on log axes', () => {
    const ys = [10, 50, 20, 80, 40];
    for (const yLog of [false, true]) {
      const doc = parse(
        renderLineChartSvg(chart({ panels: [panel({ yLog, series: [series('s', ys)] })] })),
      );
      const markers = dataMarkers(panels(doc)[0]!, 's');
      expect(markers).toHaveLength(ys.length);
      for (let i = 0; i < ys.length; i++) {
        for (let j = 0; j < ys.length; j++) {
          if (ys[i]! > ys[j]!) expect(markers[i]!.y).toBeLessThan(markers[j]!.y);
        }
      }
      // And left to right in x order.
      const xs = markers.map((m) => m.x);
      expect(xs).toEqual([...xs].sort((a, b) => a - b));
      expect(new Set(xs).size).toBe(xs.length);
    }
  });

  it('skips values of 0 on a log axis instead of drawing them at minus infinity', () => {
    const doc = parse(
      renderLineChartSvg(
        chart({ panels: [panel({ yLog: true, series: [series('z', [0, 3, 30, 0, 300])] })] }),
      ),
    );
    expect(dataMarkers(panels(doc)[0]!, 'z').map((m) => m.title)).toEqual([
      'z — 2,500: 3 ms',
      'z — 5,000: 30 ms',
      'z — 20,000: 300 ms',
    ]);
  });

  it('breaks the line at a null value', () => {
    const doc = parse(
      renderLineChartSvg(
        chart({ panels: [panel({ guides: [], series: [series('s', [1, 2, null, 4, 5])] })] }),
      ),
    );
    const [path] = seriesPaths(panels(doc)[0]!);
    const d = path!.getAttribute('d')!;
    expect(d.match(/M/g)).toHaveLength(2);
    expect(d.match(/L/g)).toHaveLength(2);
    expect(dataMarkers(panels(doc)[0]!, 's')).toHaveLength(4);
  });

  it('draws dashed series dashed, in distinct stable colours', () => {
    const options = chart({
      panels: [
        panel({
          series: [
            series('ours', [1, 2, 3]),
            series('peer', [2, 3, 4], { dashed: true }),
            series('third', [3, 4, 5]),
          ],
        }),
      ],
    });
    const paths = seriesPaths(panels(parse(renderLineChartSvg(options)))[0]!);
    expect(paths.map((p) => p.hasAttribute('stroke-dasharray'))).toEqual([false, true, false]);
    const colours = paths.map((p) => p.getAttribute('stroke'));
    expect(new Set(colours).size).toBe(3);
    // The colour follows the index, whatever the data.
    const other = chart({
      panels: [panel({ series: [series('a', [9]), series('b', [8]), series('c', [7])] })],
    });
    const otherDoc = parse(renderLineChartSvg(other));
    const otherColours = ['a', 'b', 'c'].map((name) =>
      [...otherDoc.querySelectorAll('circle, rect, path')]
        .find((e) => e.querySelector('title')?.textContent?.startsWith(`${name} — `))
        ?.getAttribute('fill'),
    );
    expect(otherColours).toEqual(colours);
  });

  it('lists every series name in its panel legend', () => {
    const names = [
      'SQLite p50',
      'SQLite p95',
      'PostgreSQL p50',
      'PostgreSQL p95',
      'Socket.IO peer',
    ];
    const doc = parse(
      renderLineChartSvg(
        chart({
          panels: [
            panel({ series: names.map((name, i) => series(name, [i + 1, i + 2])) }),
            panel({ title: 'Other', series: [series('alone', [1, 2])] }),
          ],
        }),
      ),
    );
    const [first, second] = panels(doc).map((g) =>
      [...g.querySelectorAll('text')].map((t) => t.textContent),
    );
    for (const name of names) expect(first).toContain(name);
    expect(second).toContain('alone');
    expect(second).not.toContain('SQLite p50');
  });

  it('draws guides dashed with their label, at the height of the same value', () => {
    const doc = parse(
      renderLineChartSvg(
        chart({
          panels: [
            panel({
              series: [series('s', [100, 200, 300])],
              guides: [{ y: 200, label: 'target 200 ms' }],
            }),
          ],
        }),
      ),
    );
    const scope = panels(doc)[0]!;
    const guides = [...scope.querySelectorAll('line.guide')];
    expect(guides).toHaveLength(1);
    expect(guides[0]!.getAttribute('stroke-dasharray')).toBeTruthy();
    const atTwoHundred = dataMarkers(scope, 's')[1]!;
    expect(Number(guides[0]!.getAttribute('y1'))).toBeCloseTo(atTwoHundred.y, 1);
    expect([...scope.querySelectorAll('text')].map((t) => t.textContent)).toContain(
      'target 200 ms',
    );
  });

  it('keeps a guide above the data within the axis', () => {
    const doc = parse(
      renderLineChartSvg(
        chart({
          panels: [panel({ series: [series('s', [5, 8])], guides: [{ y: 100, label: 'g' }] })],
        }),
      ),
    );
    const ticks = yTicks(panels(doc)[0]!);
    expect(Number(ticks[0]!.label.replaceAll(',', ''))).toBeGreaterThanOrEqual(100);
  });

  it('has 4 to 6 round y ticks, 1-2-5 steps on a log axis', () => {
    const ranges: [number, number][] = [
      [0, 1],
      [3, 97],
      [12, 310],
      [0, 7],
      [1000, 1400],
      [0.2, 0.9],
    ];
    for (const [lo, hi] of ranges) {
      const doc = parse(
        renderLineChartSvg(
          chart({ panels: [panel({ guides: [], series: [series('s', [lo, hi])] })] }),
        ),
      );
      const ticks = yTicks(panels(doc)[0]!);
      expect(ticks.length).toBeGreaterThanOrEqual(4);
      expect(ticks.length).toBeLessThanOrEqual(6);
      const values = ticks.map((t) => Number(t.label.replaceAll(',', ''))).reverse();
      const steps = values.slice(1).map((v, i) => +(v - values[i]!).toPrecision(6));
      expect(new Set(steps).size).toBe(1);
      expect(values[0]).toBeLessThanOrEqual(lo);
      expect(values.at(-1)).toBeGreaterThanOrEqual(hi);
    }
    const log = parse(
      renderLineChartSvg(
        chart({ panels: [panel({ yLog: true, guides: [], series: [series('s', [3, 40, 700])] })] }),
      ),
    );
    const logTicks = yTicks(panels(log)[0]!).map((t) => t.label);
    expect(logTicks.length).toBeGreaterThanOrEqual(4);
    expect(logTicks.length).toBeLessThanOrEqual(6);
    for (const label of logTicks) expect(label.replaceAll(',', '')).toMatch(/^[125]0*$/);
  });

  it('starts a linear axis at 0 unless told otherwise', () => {
    const at = (yMin?: number) =>
      yTicks(
        panels(
          parse(
            renderLineChartSvg(
              chart({ panels: [panel({ yMin, guides: [], series: [series('s', [210, 260])] })] }),
            ),
          ),
        )[0]!,
      ).at(-1)!.label;
    expect(at()).toBe('0');
    expect(Number(at(200))).toBeGreaterThanOrEqual(200);
  });

  it('puts x ticks at the data x values with thousands separators, evenly on a log axis', () => {
    const options = (xLog: boolean) =>
      chart({
        xLog,
        panels: [
          panel({
            guides: [],
            series: [{ name: 's', points: [1000, 2000, 4000, 8000].map((x) => ({ x, y: 1 })) }],
          }),
        ],
      });
    const doc = parse(renderLineChartSvg(options(true)));
    const scope = panels(doc)[0]!;
    const labels = [...scope.querySelectorAll('text')]
      .filter((t) => t.getAttribute('text-anchor') === 'middle')
      .map((t) => t.textContent);
    expect(labels).toEqual(expect.arrayContaining(['1,000', '2,000', '4,000', '8,000']));
    expect(labels.some((l) => l?.includes('log scale'))).toBe(true);
    const xs = dataMarkers(scope, 's').map((m) => m.x);
    const gaps = xs.slice(1).map((x, i) => x - xs[i]!);
    for (const gap of gaps) expect(gap).toBeCloseTo(gaps[0]!, 1);
    // Linear: the gaps double.
    const linear = dataMarkers(panels(parse(renderLineChartSvg(options(false))))[0]!, 's').map(
      (m) => m.x,
    );
    expect(linear[3]! - linear[2]!).toBeCloseTo(2 * (linear[2]! - linear[1]!), 0);
  });

  it('lines the panels up in a grid of `columns`', () => {
    const doc = parse(
      renderLineChartSvg(chart({ columns: 3, panels: [panel(), panel(), panel(), panel()] })),
    );
    const origins = panels(doc).map((g) =>
      (/translate\(([\d.]+) ([\d.]+)\)/.exec(g.getAttribute('transform') ?? '') ?? [])
        .slice(1)
        .map(Number),
    );
    expect(new Set(origins.slice(0, 3).map(([, y]) => y)).size).toBe(1);
    expect(origins[3]![0]).toBe(origins[0]![0]);
    expect(origins[3]![1]).toBeGreaterThan(origins[0]![1]!);
  });

  it('is deterministic', () => {
    const options = chart({ xLog: true, panels: [panel(), panel({ yLog: true })] });
    const first = renderLineChartSvg(options);
    expect(renderLineChartSvg(structuredClone(options))).toBe(first);
    expect(renderLineChartSvg(options)).toBe(first);
  });
});

describe('formatNumber', () => {
  it('groups thousands and trims decimals', () => {
    expect(formatNumber(1000)).toBe('1,000');
    expect(formatNumber(20000)).toBe('20,000');
    expect(formatNumber(1234567.891)).toBe('1,234,567.89');
    expect(formatNumber(2.5)).toBe('2.5');
    expect(formatNumber(0.25, 2)).toBe('0.25');
    expect(formatNumber(-1500)).toBe('−1,500');
    expect(formatNumber(-0.001)).toBe('0');
    expect(formatNumber(Number.NaN)).toBe('–');
  });
});
