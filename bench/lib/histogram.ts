import * as hdr from 'hdr-histogram-js';

/** Latency histograms record microseconds (integers); summaries are in milliseconds. */
export type Histogram = ReturnType<typeof hdr.build>;

export const createHistogram = (): Histogram =>
  hdr.build({
    bitBucketSize: 32,
    autoResize: true,
    lowestDiscernibleValue: 1,
    highestTrackableValue: 120_000_000,
    numberOfSignificantValueDigits: 3,
  });

/** Records a duration given in milliseconds (sub-millisecond precision kept as microseconds). */
export const recordMs = (histogram: Histogram, ms: number): void => {
  histogram.recordValue(Math.max(1, Math.round(ms * 1000)));
};

export const encodeHistogram = (histogram: Histogram): string =>
  hdr.encodeIntoCompressedBase64(histogram);

export const decodeHistogram = (encoded: string): Histogram =>
  hdr.decodeFromCompressedBase64(encoded, 32, false);

export interface LatencySummary {
  count: number;
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

const ms = (micros: number): number => Math.round(micros) / 1000;

export const summarize = (histogram: Histogram): LatencySummary => ({
  count: histogram.totalCount,
  p50: ms(histogram.getValueAtPercentile(50)),
  p90: ms(histogram.getValueAtPercentile(90)),
  p95: ms(histogram.getValueAtPercentile(95)),
  p99: ms(histogram.getValueAtPercentile(99)),
  max: ms(histogram.maxValue),
  mean: ms(histogram.mean),
});

export const summarizeEncoded = (encoded: string): LatencySummary =>
  summarize(decodeHistogram(encoded));

/** The `p`-th percentile of some values (nearest rank); 0 for none. */
export const nearestRank = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0
  );
};

/** The median of some values, the lower of the two middle ones for an even count; 0 for none. */
export const lowerMedian = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? 0;

/** Rounds a figure for a table: 3 significant digits below 100, integers above. */
export const round = (value: number): number => {
  if (!Number.isFinite(value)) return value;
  if (Math.abs(value) >= 100) return Math.round(value);
  if (Math.abs(value) >= 10) return Math.round(value * 10) / 10;
  return Math.round(value * 100) / 100;
};
