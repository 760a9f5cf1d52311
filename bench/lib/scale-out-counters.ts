/**
 * The counters the `scale-out` scenario reads around its measured window: each server's `/metrics`
 * (CPU, frames delivered, fan-out messages received), Redis's `INFO commandstats` and `INFO stats`
 * (commands, bytes). Each is a snapshot; `…Delta` subtracts two.
 */

/** The value of each sample of a Prometheus text exposition, by series (`name` or `name{labels}`). */
export const parsePrometheusText = (text: string): Map<string, number> => {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    // `series value [timestamp]`; label values may hold spaces, so the series ends at the last `}`.
    const end = line.lastIndexOf('}');
    const series = end === -1 ? line.slice(0, line.indexOf(' ')) : line.slice(0, end + 1);
    const value = Number(line.slice(series.length).trim().split(' ')[0]);
    if (series !== '' && Number.isFinite(value)) samples.set(series, value);
  }
  return samples;
};

/** What one instance's `/metrics` says of the work it did. */
export interface InstanceCounters {
  /** prom-client's `process_cpu_seconds_total`: user + system CPU of the process (all threads). */
  cpuSeconds: number;
  /** `messenger_live_deliveries_total`: event frames written to sockets. */
  deliveries: number;
  /** `messenger_fanout_received_total`: event messages received from Redis. */
  fanoutReceived: number;
  /** `messenger_fanout_routed_channels`: channels Redis routes to the instance now (a gauge). */
  routedChannels: number;
}

export const instanceCounters = (text: string): InstanceCounters => {
  const samples = parsePrometheusText(text);
  const read = (name: string): number => {
    const value = samples.get(name);
    if (value === undefined) throw new Error(`/metrics has no ${name}`);
    return value;
  };
  return {
    cpuSeconds: read('process_cpu_seconds_total'),
    deliveries: read('messenger_live_deliveries_total'),
    fanoutReceived: read('messenger_fanout_received_total'),
    routedChannels: read('messenger_fanout_routed_channels'),
  };
};

/** GET http://127.0.0.1:{port}/metrics, read as `InstanceCounters`. */
export const scrapeInstance = async (metricsPort: number): Promise<InstanceCounters> => {
  const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
  if (!response.ok) throw new Error(`/metrics on port ${metricsPort} answered ${response.status}`);
  return instanceCounters(await response.text());
};

/** `after − before` of the counters; the gauge (`routedChannels`) as it is after. */
export const instanceDelta = (
  before: InstanceCounters,
  after: InstanceCounters,
): InstanceCounters => ({
  cpuSeconds: after.cpuSeconds - before.cpuSeconds,
  deliveries: after.deliveries - before.deliveries,
  fanoutReceived: after.fanoutReceived - before.fanoutReceived,
  routedChannels: after.routedChannels,
});

/** The `key:value` fields of an `INFO` answer. */
export const parseRedisInfo = (text: string): Map<string, string> => {
  const fields = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    if (line === '' || line.startsWith('#')) continue;
    const colon = line.indexOf(':');
    if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 1));
  }
  return fields;
};

/** Calls of each command from `INFO commandstats` (`cmdstat_publish:calls=12,usec=…`), by name. */
export const commandCalls = (commandstats: string): Record<string, number> => {
  const calls: Record<string, number> = {};
  for (const [key, value] of parseRedisInfo(commandstats)) {
    if (!key.startsWith('cmdstat_')) continue;
    const match = /(?:^|,)calls=(\d+)/.exec(value);
    if (match) calls[key.slice('cmdstat_'.length)] = Number(match[1]);
  }
  return calls;
};

/** What Redis has done so far, as the scenario reads it. */
export interface RedisCounters {
  /** Calls by command (lower case, sub-commands as Redis names them: `client|setname`). */
  calls: Record<string, number>;
  /** `total_net_input_bytes`, `total_net_output_bytes`. */
  inputBytes: number;
  outputBytes: number;
}

/** How the scenario asks Redis (an ioredis client's `info`). */
export interface InfoSource {
  info(section: string): Promise<string>;
}

/**
 * Reads Redis's counters, `before` or `after` a window. The `INFO` calls themselves are left out of
 * the command counts (any client's: `info` is nobody's product work). Before, `INFO stats` comes
 * last, after it comes first: between the two, Redis has read one `INFO stats` request of this
 * client (the second, counted once read) and written one answer (the first, counted once written),
 * which `redisDelta` takes off.
 */
export const readRedisCounters = async (
  redis: InfoSource,
  when: 'before' | 'after',
): Promise<RedisCounters & { statsAnswerBytes: number }> => {
  const first = await redis.info(when === 'before' ? 'commandstats' : 'stats');
  const second = await redis.info(when === 'before' ? 'stats' : 'commandstats');
  const [commandstats, stats] = when === 'before' ? [first, second] : [second, first];
  const fields = parseRedisInfo(stats);
  const { info: _info, ...calls } = commandCalls(commandstats);
  const answerBytes = Buffer.byteLength(stats);
  return {
    calls,
    inputBytes: Number(fields.get('total_net_input_bytes') ?? 0),
    outputBytes: Number(fields.get('total_net_output_bytes') ?? 0),
    // a RESP bulk string: `$<length>\r\n<text>\r\n`
    statsAnswerBytes: answerBytes + String(answerBytes).length + 5,
  };
};

/** The RESP request `*2\r\n$4\r\ninfo\r\n$5\r\nstats\r\n`: what one `INFO stats` costs in input bytes. */
const INFO_STATS_REQUEST_BYTES = 25;

/** Redis's work between two snapshots (this client's own `INFO` traffic taken off). */
export const redisDelta = (
  before: RedisCounters & { statsAnswerBytes: number },
  after: RedisCounters,
): RedisCounters & { totalCalls: number } => {
  const calls: Record<string, number> = {};
  let totalCalls = 0;
  for (const [command, count] of Object.entries(after.calls)) {
    const delta = count - (before.calls[command] ?? 0);
    if (delta <= 0) continue;
    calls[command] = delta;
    totalCalls += delta;
  }
  return {
    calls,
    totalCalls,
    inputBytes: Math.max(0, after.inputBytes - before.inputBytes - INFO_STATS_REQUEST_BYTES),
    outputBytes: Math.max(0, after.outputBytes - before.outputBytes - before.statsAnswerBytes),
  };
};
