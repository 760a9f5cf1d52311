/**
 * A small, dependency-free SVG line chart for the benchmark report (capacity curves embedded in
 * GitHub markdown). Panels in a grid, each with its own y axis and legend; the x axis means the same
 * in every panel (ticks at the data's x values). Output is deterministic and every coordinate is
 * rounded to two decimals, so a re-run with the same figures leaves the file unchanged.
 */

export interface ChartPoint {
  x: number;
  /** null = no value: the line is broken there. */
  y: number | null;
}

export interface ChartSeries {
  name: string;
  points: ChartPoint[];
  dashed?: boolean;
  /** Overrides the palette colour (any SVG paint). */
  color?: string;
}

/** A horizontal target line, e.g. `{ y: 200, label: 'target 200 ms' }`. */
export interface ChartGuide {
  y: number;
  label: string;
}

export interface ChartPanel {
  title: string;
  yLabel: string;
  unit: string;
  series: ChartSeries[];
  guides?: ChartGuide[];
  /** Lower end of the y axis (never above the data). Default: 0 on a linear axis. */
  yMin?: number;
  yLog?: boolean;
}

export interface ChartOptions {
  title: string;
  subtitle?: string;
  xLabel: string;
  xLog?: boolean;
  panels: ChartPanel[];
  /** Panels per row (default 2). */
  columns?: number;
  /** Width of one panel cell in px (default 460). */
  panelWidth?: number;
  /** Height of one panel cell in px with a one-row legend (default 320). */
  panelHeight?: number;
}

/** Okabe–Ito, ordered for contrast on white (its yellow is left out: unreadable on white). */
export const CHART_PALETTE: readonly string[] = [
  '#0072B2',
  '#D55E00',
  '#009E73',
  '#CC79A7',
  '#E69F00',
  '#56B4E9',
  '#000000',
];

const FONT_FAMILY = 'system-ui, -apple-system, Segoe UI, Roboto, Helvetica, Arial, sans-serif';
const TEXT = '#222222';
const MUTED = '#555555';
const AXIS = '#8c8c8c';
const GRID = '#e6e6e6';
const GUIDE = '#666666';

const PAD = 8;
/** A panel's legend: its first row's top, a row's height, an item's sample line and gap after. */
const LEGEND = { top: 32, row: 18, sample: 28, gap: 16 };
const X_INSET = 14;
const MIN_PANEL_WIDTH = 260;
const MIN_PANEL_HEIGHT = 200;

// ---------------------------------------------------------------------------------------------
// Text and numbers

/** XML-escapes text and drops the control characters XML 1.0 does not allow. */
export const escapeXml = (text: string): string =>
  String(text)
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');

/** A coordinate: at most two decimals, never NaN/Infinity/-0. */
const num = (value: number): string => {
  if (!Number.isFinite(value)) return '0';
  const rounded = Math.round(value * 100) / 100;
  return rounded === 0 ? '0' : String(rounded);
};

/** `12345.5` → `12,345.5` (at most `decimals` decimals, trailing zeros dropped). */
export const formatNumber = (value: number, decimals = 2): string => {
  if (!Number.isFinite(value)) return '–';
  const fixed = Math.abs(value).toFixed(Math.min(Math.max(0, Math.floor(decimals)), 20));
  if (fixed.includes('e')) return String(value);
  const [whole = '0', fraction = ''] = fixed.split('.');
  const trimmed = fraction.replace(/0+$/, '');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const negative = value < 0 && /[1-9]/.test(fixed);
  return `${negative ? '−' : ''}${grouped}${trimmed ? `.${trimmed}` : ''}`;
};

/** How many decimals show `value` exactly (up to 6). */
const decimalsOf = (value: number): number => {
  for (let decimals = 0; decimals < 6; decimals++) {
    const scaled = Math.abs(value) * 10 ** decimals;
    if (Math.abs(scaled - Math.round(scaled)) <= 1e-6 * Math.max(1, scaled)) return decimals;
  }
  return 6;
};

const valueText = (value: number): string =>
  formatNumber(value, Math.abs(value) >= 100 ? 1 : Math.abs(value) >= 1 ? 2 : 3);

/** Rough width of a text in px (sans-serif averages a bit under 0.6 em). */
const textWidth = (text: string, size: number, bold = false): number =>
  [...text].length * size * (bold ? 0.62 : 0.58);

/** Cuts a text with an ellipsis so that it fits `width` px. */
const fit = (text: string, width: number, size: number, bold = false): string => {
  if (textWidth(text, size, bold) <= width) return text;
  const chars = [...text];
  let keep = Math.max(1, Math.floor(width / (size * (bold ? 0.62 : 0.58))) - 1);
  keep = Math.min(keep, chars.length);
  return `${chars.slice(0, keep).join('').trimEnd()}…`;
};

const clean = (value: number): number => Number(value.toPrecision(12));

const finiteOr = (value: number | undefined, fallback: number): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : fallback;

// ---------------------------------------------------------------------------------------------
// Scales

interface Axis {
  min: number;
  max: number;
  ticks: number[];
  labels: string[];
  log: boolean;
}

/** 4–6 round ticks (steps of 1, 2, 2.5 or 5 × 10ⁿ) covering [lo, hi]. */
const niceLinear = (lo: number, hi: number): { ticks: number[]; decimals: number } => {
  const span = hi - lo;
  const base = Math.floor(Math.log10(span));
  let best: { ticks: number[]; step: number; score: number } | undefined;
  for (let exponent = base - 2; exponent <= base + 1; exponent++) {
    for (const mantissa of [1, 2, 2.5, 5]) {
      const step = mantissa * 10 ** exponent;
      if (!Number.isFinite(step) || step <= 0) continue;
      const start = Math.floor(lo / step + 1e-9);
      const end = Math.ceil(hi / step - 1e-9);
      const count = end - start + 1;
      if (!Number.isFinite(count) || count < 2 || count > 50) continue;
      const tightness = ((end - start) * step) / span;
      const score =
        count >= 4 && count <= 6
          ? tightness + (mantissa === 2.5 ? 0.01 : 0) + count * 0.001
          : 1000 + Math.abs(count - 5);
      if (!best || score < best.score) {
        const ticks = Array.from({ length: count }, (_, i) => clean((start + i) * step));
        best = { ticks, step, score };
      }
    }
  }
  if (!best) return { ticks: [lo, hi], decimals: 2 };
  return { ticks: best.ticks, decimals: decimalsOf(best.step) };
};

/** Values m × 10ⁿ (m from `mantissas`) from the largest ≤ lo to the smallest ≥ hi. */
const logSteps = (lo: number, hi: number, mantissas: number[]): number[] => {
  const values: number[] = [];
  for (let e = Math.floor(Math.log10(lo)) - 1; e <= Math.ceil(Math.log10(hi)) + 1; e++) {
    for (const m of mantissas) values.push(clean(m * 10 ** e));
  }
  let first = 0;
  while (first + 1 < values.length && values[first + 1]! <= lo * (1 + 1e-9)) first++;
  let last = values.length - 1;
  while (last - 1 > first && values[last - 1]! >= hi * (1 - 1e-9)) last--;
  return values.slice(first, last + 1);
};

/** Ticks for a log axis: 1-2-5 steps, fewer per decade (1-3, decades) over wide ranges. */
const niceLog = (lo: number, hi: number): number[] => {
  const inRange = (ticks: number[]): boolean => ticks.length >= 4 && ticks.length <= 6;
  const oneTwoFive = logSteps(lo, hi, [1, 2, 5]);
  if (inRange(oneTwoFive)) return oneTwoFive;
  if (oneTwoFive.length > 6) {
    // Wider ranges: 1-5, then every decade (or every other…), still 1-2-5 values.
    const oneFive = logSteps(lo, hi, [1, 5]);
    if (inRange(oneFive)) return oneFive;
    const low = Math.floor(Math.log10(lo) + 1e-9);
    const high = Math.ceil(Math.log10(hi) - 1e-9);
    for (let every = 1; every <= 1000; every++) {
      const from = Math.floor(low / every) * every;
      const to = Math.ceil(high / every) * every;
      if ((to - from) / every + 1 <= 6) {
        const ticks: number[] = [];
        for (let e = from; e <= to; e += every) ticks.push(clean(10 ** e));
        return ticks.length >= 3 || oneFive.length > 7 ? ticks : oneFive;
      }
    }
    return oneFive;
  }
  // A narrow range (less than a decade or so): round linear steps, if they stay positive.
  const linear = niceLinear(lo, hi).ticks;
  if (inRange(linear) && linear[0]! > 0) return linear;
  return oneTwoFive;
};

const buildAxis = (values: number[], log: boolean, lower?: number): Axis => {
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (values.length === 0) {
    lo = log ? 1 : 0;
    hi = log ? 10 : 1;
  }
  if (lower !== undefined && Number.isFinite(lower) && (!log || lower > 0))
    lo = Math.min(lo, lower);
  else if (!log && values.length > 0) lo = Math.min(lo, 0);
  if (hi <= lo) {
    if (log) {
      lo /= 2;
      hi *= 2;
    } else if (hi === 0) {
      hi = 1;
    } else {
      const pad = Math.abs(hi) * 0.1;
      lo -= pad;
      hi += pad;
    }
  }
  if (log) {
    const ticks = niceLog(lo, hi);
    return {
      min: ticks[0] ?? lo,
      max: ticks[ticks.length - 1] ?? hi,
      ticks,
      labels: ticks.map((tick) => formatNumber(tick, decimalsOf(tick))),
      log,
    };
  }
  const { ticks, decimals } = niceLinear(lo, hi);
  return {
    min: ticks[0] ?? lo,
    max: ticks[ticks.length - 1] ?? hi,
    ticks,
    labels: ticks.map((tick) => formatNumber(tick, decimals)),
    log,
  };
};

/** Maps a value of the axis onto [from, to] (pixels). */
const scale = (axis: Axis, from: number, to: number) => {
  const t = (value: number) => (axis.log ? Math.log10(value) : value);
  const a = t(axis.min);
  const b = t(axis.max);
  return (value: number): number => {
    const span = b - a;
    const share = span > 0 && Number.isFinite(span) ? (t(value) - a) / span : 0.5;
    return from + (Number.isFinite(share) ? share : 0.5) * (to - from);
  };
};

// ---------------------------------------------------------------------------------------------
// Pieces

const markerShape = (index: number, x: number, y: number): string => {
  switch (index % 5) {
    case 0:
      return `<circle cx="${num(x)}" cy="${num(y)}" r="3.6"`;
    case 1:
      return `<rect x="${num(x - 3.2)}" y="${num(y - 3.2)}" width="6.4" height="6.4"`;
    case 2:
      return `<path d="M${num(x)} ${num(y - 4.4)}L${num(x + 4.2)} ${num(y + 3)}L${num(x - 4.2)} ${num(y + 3)}Z"`;
    case 3:
      return `<path d="M${num(x)} ${num(y - 4.6)}L${num(x + 4.6)} ${num(y)}L${num(x)} ${num(y + 4.6)}L${num(x - 4.6)} ${num(y)}Z"`;
    default:
      return `<path d="M${num(x)} ${num(y + 4.4)}L${num(x + 4.2)} ${num(y - 3)}L${num(x - 4.2)} ${num(y - 3)}Z"`;
  }
};

/** Filled markers with a white rim; dashed series get hollow ones. */
const marker = (
  index: number,
  x: number,
  y: number,
  color: string,
  hollow: boolean,
  title?: string,
) => {
  const paint = hollow
    ? `fill="#ffffff" stroke="${color}" stroke-width="1.6"`
    : `fill="${color}" stroke="#ffffff" stroke-width="1"`;
  const open = markerShape(index, x, y);
  const tag = open.slice(1, open.indexOf(' '));
  return title === undefined
    ? `${open} ${paint}/>`
    : `${open} ${paint}><title>${escapeXml(title)}</title></${tag}>`;
};

const dash = (dashed: boolean | undefined): string =>
  dashed ? ' stroke-dasharray="7 4"' : ' stroke-linecap="round"';

const text = (
  x: number,
  y: number,
  content: string,
  attrs: {
    size?: number;
    anchor?: 'start' | 'middle' | 'end';
    fill?: string;
    bold?: boolean;
    extra?: string;
  } = {},
): string => {
  const parts = [`x="${num(x)}"`, `y="${num(y)}"`, `font-size="${attrs.size ?? 12}"`];
  if (attrs.anchor && attrs.anchor !== 'start') parts.push(`text-anchor="${attrs.anchor}"`);
  parts.push(`fill="${attrs.fill ?? TEXT}"`);
  if (attrs.bold) parts.push('font-weight="600"');
  if (attrs.extra) parts.push(attrs.extra);
  return `<text ${parts.join(' ')}>${escapeXml(content)}</text>`;
};

interface LegendItem {
  label: string;
  color: string;
  dashed: boolean;
  index: number;
  width: number;
}

/** Legend items wrapped into rows of at most `width` px. */
const legendRows = (items: LegendItem[], width: number): LegendItem[][] => {
  const rows: LegendItem[][] = [];
  let row: LegendItem[] = [];
  let used = 0;
  for (const item of items) {
    if (row.length > 0 && used + item.width > width) {
      rows.push(row);
      row = [];
      used = 0;
    }
    row.push(item);
    used += item.width + LEGEND.gap;
  }
  if (row.length > 0) rows.push(row);
  return rows;
};

/** Keeps the x tick labels that do not overlap (the first and the last always). */
const visibleLabels = (positions: { x: number; width: number }[]): boolean[] => {
  const shown = positions.map(() => false);
  let lastRight = -Infinity;
  let lastShown = -1;
  positions.forEach((label, i) => {
    if (label.x - label.width / 2 >= lastRight + 6) {
      shown[i] = true;
      lastRight = label.x + label.width / 2;
      lastShown = i;
    }
  });
  const final = positions.length - 1;
  if (final > 0 && !shown[final]) {
    const last = positions[final]!;
    // Hide shown labels from the right until the last one fits.
    for (let i = lastShown; i > 0; i--) {
      if (!shown[i]) continue;
      const label = positions[i]!;
      if (label.x + label.width / 2 + 6 <= last.x - last.width / 2) break;
      shown[i] = false;
    }
    shown[final] = true;
  }
  return shown;
};

// ---------------------------------------------------------------------------------------------
// The chart

interface PreparedPanel {
  panel: ChartPanel;
  axis: Axis;
  series: { source: ChartSeries; color: string; points: { x: number; y: number | null }[] }[];
  guides: ChartGuide[];
  legend: LegendItem[];
  hasData: boolean;
}

const usableY = (y: number | null | undefined, log: boolean): number | null =>
  typeof y === 'number' && Math.abs(y) < 1e300 && (!log || y > 0) ? y : null;

/** Renders the panels as one self-contained SVG document (a string). */
export const renderLineChartSvg = (options: ChartOptions): string => {
  const panels = Array.isArray(options.panels) ? options.panels : [];
  const xLog = options.xLog === true;
  const columns = Math.min(
    Math.max(1, Math.floor(finiteOr(options.columns, 2))),
    Math.max(1, panels.length),
  );
  const rows = Math.ceil(panels.length / columns);
  const cellWidth = Math.max(MIN_PANEL_WIDTH, finiteOr(options.panelWidth, 460));
  const baseHeight = Math.max(MIN_PANEL_HEIGHT, finiteOr(options.panelHeight, 320));
  const width = PAD * 2 + columns * cellWidth;
  const xLabel = `${options.xLabel ?? ''}${xLog ? ' (log scale)' : ''}`;

  // The x axis is the same in every panel: the data's x values.
  const usableX = (x: number) => typeof x === 'number' && Math.abs(x) < 1e300 && (!xLog || x > 0);
  const xs = [
    ...new Set(
      panels.flatMap((panel) =>
        (panel.series ?? []).flatMap((series) =>
          (series.points ?? []).map((point) => point.x).filter(usableX),
        ),
      ),
    ),
  ].sort((a, b) => a - b);
  let xMin = xs[0] ?? (xLog ? 1 : 0);
  let xMax = xs[xs.length - 1] ?? (xLog ? 10 : 1);
  if (xMax <= xMin) {
    if (xLog) {
      xMin /= 2;
      xMax *= 2;
    } else {
      xMin -= Math.abs(xMin) * 0.5 || 1;
      xMax += Math.abs(xMax) * 0.5 || 1;
    }
  }
  const xAxis: Axis = {
    min: xMin,
    max: xMax,
    ticks: xs,
    labels: xs.map((x) => formatNumber(x)),
    log: xLog,
  };

  const legendWidth = cellWidth - 20;
  const prepared: PreparedPanel[] = panels.map((panel) => {
    const log = panel.yLog === true;
    const series = (panel.series ?? []).map((source, index) => ({
      source,
      color: source.color ?? CHART_PALETTE[index % CHART_PALETTE.length]!,
      points: (source.points ?? [])
        .filter((point) => usableX(point.x))
        .map((point) => ({ x: point.x, y: usableY(point.y, log) }))
        .sort((a, b) => a.x - b.x),
    }));
    const guides = (panel.guides ?? []).filter((guide) => usableY(guide.y, log) !== null);
    const values = series.flatMap((s) =>
      s.points.flatMap((point) => (point.y === null ? [] : [point.y])),
    );
    const axis = buildAxis([...values, ...guides.map((guide) => guide.y)], log, panel.yMin);
    const legend = series.map((s, index) => {
      const empty = s.points.every((point) => point.y === null);
      const label = fit(
        `${s.source.name ?? ''}${empty ? ' (no data)' : ''}`,
        legendWidth - LEGEND.sample,
        12,
      );
      return {
        label,
        color: s.color,
        dashed: s.source.dashed === true,
        index,
        width: LEGEND.sample + textWidth(label, 12),
      };
    });
    return { panel, axis, series, guides, legend, hasData: values.length > 0 };
  });

  // Panels of a grid row share their legend height, so their plots line up.
  const headerHeight = options.subtitle ? 64 : 44;
  const rowLegends = Array.from({ length: rows }, (_, row) =>
    Math.max(
      1,
      ...prepared
        .slice(row * columns, (row + 1) * columns)
        .map((p) => legendRows(p.legend, legendWidth).length),
    ),
  );
  const rowHeights = rowLegends.map((count) => baseHeight + (count - 1) * LEGEND.row);
  const rowTops = rowHeights.map(
    (_, row) => headerHeight + rowHeights.slice(0, row).reduce((sum, h) => sum + h, 0),
  );
  const height = headerHeight + rowHeights.reduce((sum, h) => sum + h, 0) + PAD;

  // Same plot rectangle in every panel, so the x axes line up down a column.
  const tickWidth = Math.max(
    12,
    ...prepared.flatMap((p) => p.axis.labels.map((label) => textWidth(label, 12))),
  );
  const plotLeft = 32 + tickWidth;
  const plotRight = cellWidth - 18;
  const toX = scale(xAxis, plotLeft + X_INSET, plotRight - X_INSET);

  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${num(width)}" height="${num(height)}" ` +
      `viewBox="0 0 ${num(width)} ${num(height)}" role="img" aria-labelledby="chart-title" ` +
      `font-family="${FONT_FAMILY}">`,
  );
  out.push(`<title id="chart-title">${escapeXml(options.title ?? '')}</title>`);
  if (options.subtitle) out.push(`<desc>${escapeXml(options.subtitle)}</desc>`);
  out.push(`<rect width="${num(width)}" height="${num(height)}" fill="#ffffff"/>`);
  out.push(
    text(PAD + 10, 28, fit(options.title ?? '', width - 20 - PAD * 2, 18, true), {
      size: 18,
      bold: true,
    }),
  );
  if (options.subtitle) {
    out.push(
      text(PAD + 10, 50, fit(options.subtitle, width - 20 - PAD * 2, 13), {
        size: 13,
        fill: MUTED,
      }),
    );
  }

  prepared.forEach((p, panelIndex) => {
    const originX = PAD + (panelIndex % columns) * cellWidth;
    const row = Math.floor(panelIndex / columns);
    const originY = rowTops[row] ?? headerHeight;
    const plotTop = LEGEND.top + (rowLegends[row] ?? 1) * LEGEND.row + 12;
    const plotBottom = (rowHeights[row] ?? baseHeight) - 46;
    const toY = scale(p.axis, plotBottom, plotTop);
    const unit = p.panel.unit ?? '';
    out.push(`<g transform="translate(${num(originX)} ${num(originY)})">`);

    // Title and legend.
    out.push(
      text(10, 20, fit(p.panel.title ?? '', cellWidth - 20, 14, true), { size: 14, bold: true }),
    );
    legendRows(p.legend, legendWidth).forEach((row, rowIndex) => {
      let x = 10;
      const y = LEGEND.top + rowIndex * LEGEND.row + 6;
      for (const item of row) {
        out.push(
          `<line x1="${num(x)}" y1="${num(y)}" x2="${num(x + 22)}" y2="${num(y)}" stroke="${escapeXml(item.color)}" ` +
            `stroke-width="2"${dash(item.dashed)}/>`,
        );
        out.push(marker(item.index, x + 11, y, escapeXml(item.color), item.dashed));
        out.push(text(x + LEGEND.sample, y + 4, item.label));
        x += item.width + LEGEND.gap;
      }
    });

    // Grid and y axis.
    p.axis.ticks.forEach((tick, i) => {
      const y = toY(tick);
      out.push(
        `<line x1="${num(plotLeft)}" y1="${num(y)}" x2="${num(plotRight)}" y2="${num(y)}" stroke="${GRID}"/>`,
      );
      out.push(text(plotLeft - 6, y + 4, p.axis.labels[i] ?? '', { anchor: 'end', fill: MUTED }));
    });
    const yTitle = `${p.panel.yLabel ?? ''}${unit ? ` (${unit}${p.axis.log ? ', log scale' : ''})` : p.axis.log ? ' (log scale)' : ''}`;
    const yMid = (plotTop + plotBottom) / 2;
    out.push(
      text(16, yMid, fit(yTitle, plotBottom - plotTop, 12), {
        anchor: 'middle',
        fill: MUTED,
        extra: `transform="rotate(-90 16 ${num(yMid)})"`,
      }),
    );

    // x axis.
    const positions = xAxis.ticks.map((tick, i) => ({
      x: toX(tick),
      width: textWidth(xAxis.labels[i] ?? '', 12),
    }));
    const shown = visibleLabels(positions);
    positions.forEach((position, i) => {
      out.push(
        `<line x1="${num(position.x)}" y1="${num(plotTop)}" x2="${num(position.x)}" y2="${num(plotBottom)}" stroke="${GRID}" stroke-opacity="0.6"/>`,
      );
      out.push(
        `<line x1="${num(position.x)}" y1="${num(plotBottom)}" x2="${num(position.x)}" y2="${num(plotBottom + 4)}" stroke="${AXIS}"/>`,
      );
      if (shown[i])
        out.push(
          text(position.x, plotBottom + 18, xAxis.labels[i] ?? '', {
            anchor: 'middle',
            fill: MUTED,
          }),
        );
    });
    out.push(
      `<path d="M${num(plotLeft)} ${num(plotTop)}V${num(plotBottom)}H${num(plotRight)}" fill="none" stroke="${AXIS}"/>`,
    );
    out.push(
      text((plotLeft + plotRight) / 2, plotBottom + 38, fit(xLabel, plotRight - plotLeft, 12), {
        anchor: 'middle',
        fill: MUTED,
      }),
    );

    // Guides (lines under the data, labels above it).
    for (const guide of p.guides) {
      const y = toY(guide.y);
      out.push(
        `<line x1="${num(plotLeft)}" y1="${num(y)}" x2="${num(plotRight)}" y2="${num(y)}" stroke="${GUIDE}" ` +
          `stroke-width="1.2" stroke-dasharray="4 3" class="guide"/>`,
      );
    }

    // Series: one path per series, a new subpath after each gap.
    if (!p.hasData) {
      out.push(
        text((plotLeft + plotRight) / 2, yMid + 4, 'no data', { anchor: 'middle', fill: MUTED }),
      );
    }
    p.series.forEach((s, index) => {
      const color = escapeXml(s.color);
      let d = '';
      let open = false;
      for (const point of s.points) {
        if (point.y === null) {
          open = false;
          continue;
        }
        d += `${open ? 'L' : 'M'}${num(toX(point.x))} ${num(toY(point.y))}`;
        open = true;
      }
      if (d.includes('L')) {
        out.push(
          `<path d="${d}" fill="none" stroke="${color}" stroke-width="2" stroke-linejoin="round"${dash(s.source.dashed)}/>`,
        );
      }
      for (const point of s.points) {
        if (point.y === null) continue;
        const title = `${s.source.name ?? ''} — ${formatNumber(point.x)}: ${valueText(point.y)}${unit ? ` ${unit}` : ''}`;
        out.push(marker(index, toX(point.x), toY(point.y), color, s.source.dashed === true, title));
      }
    });

    // Guide labels go where the fewest drawn line samples would run through them.
    const samples = p.series.flatMap((series) => {
      const drawn: { x: number; y: number }[] = [];
      let previous: { x: number; y: number } | undefined;
      for (const point of series.points) {
        if (point.y === null) {
          previous = undefined;
          continue;
        }
        const current = { x: toX(point.x), y: toY(point.y) };
        if (previous) {
          for (let step = 1; step <= 24; step++) {
            const share = step / 24;
            drawn.push({
              x: previous.x + (current.x - previous.x) * share,
              y: previous.y + (current.y - previous.y) * share,
            });
          }
        } else drawn.push(current);
        previous = current;
      }
      return drawn;
    });
    for (const guide of p.guides) {
      const y = toY(guide.y);
      const label = fit(guide.label ?? '', (plotRight - plotLeft) / 2 - 8, 11);
      const labelWidth = textWidth(label, 11);
      const places = [
        { right: true, above: true },
        { right: false, above: true },
        { right: true, above: false },
        { right: false, above: false },
      ]
        .filter((place) => (place.above ? y - plotTop >= 16 : plotBottom - y >= 16))
        .map((place) => {
          const x0 = place.right ? plotRight - 4 - labelWidth : plotLeft + 6;
          const y0 = place.above ? y - 15 : y + 2;
          const hits = samples.filter(
            (sample) =>
              sample.x >= x0 - 4 &&
              sample.x <= x0 + labelWidth + 4 &&
              sample.y >= y0 - 3 &&
              sample.y <= y0 + 16,
          ).length;
          return { ...place, hits };
        });
      const place = places.reduce<(typeof places)[number] | undefined>(
        (best, candidate) => (!best || candidate.hits < best.hits ? candidate : best),
        undefined,
      ) ?? { right: true, above: false };
      out.push(
        text(place.right ? plotRight - 4 : plotLeft + 6, place.above ? y - 5 : y + 14, label, {
          size: 11,
          anchor: place.right ? 'end' : 'start',
          fill: GUIDE,
          extra: 'stroke="#ffffff" stroke-width="3" stroke-linejoin="round" paint-order="stroke"',
        }),
      );
    }
    out.push('</g>');
  });

  out.push('</svg>');
  return `${out.join('\n')}\n`;
};
