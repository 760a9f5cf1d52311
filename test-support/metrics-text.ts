/** The value of one series in Prometheus text (`name` or `name{label="…"}`); 0 when it is absent. */
export const metricValue = (text: string, series: string): number => {
  const escaped = series.replace(/[{}"=]/g, (character) => `\\${character}`);
  const match = new RegExp(`^${escaped} (\\S+)$`, 'm').exec(text);
  return match ? Number(match[1]) : 0;
};
