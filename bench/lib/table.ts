import { round } from './histogram.js';
import type { ResultRow, ScenarioResult } from './types.js';

const STATUS_TEXT: Record<ResultRow['status'], string> = {
  met: 'met',
  missed: '**missed**',
  info: '',
  skipped: 'skipped',
  failed: '**failed**',
};

const formatValue = (row: ResultRow): string => {
  if (row.value === null) return '–';
  const value = round(row.value);
  return row.unit ? `${value.toLocaleString('en-US')} ${row.unit}` : value.toLocaleString('en-US');
};

const escapeCell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** Notes carry figures with µs precision; the table shows them like the values. */
const roundFigures = (text: string): string =>
  text.replace(/\d+\.\d{3,}/g, (figure) => String(round(Number(figure))));

/** One Markdown table of every scenario's rows (the same text goes to the console and to docs/performance.md). */
export const markdownTable = (results: ScenarioResult[]): string => {
  const lines = [
    '| scenario | metric | value | target | status | note |',
    '|---|---|---|---|---|---|',
  ];
  for (const result of results) {
    if (result.error) {
      lines.push(
        `| ${result.name} | run | – | – | **failed** | ${escapeCell(result.error.split('\n')[0] ?? '')} |`,
      );
    }
    for (const row of result.rows) {
      lines.push(
        `| ${result.name} | ${escapeCell(row.metric)} | ${formatValue(row)} | ${escapeCell(row.target ?? '')} | ` +
          `${STATUS_TEXT[row.status]} | ${escapeCell(roundFigures(row.note ?? ''))} |`,
      );
    }
  }
  return lines.join('\n');
};
