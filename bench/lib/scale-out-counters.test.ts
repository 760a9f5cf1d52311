import { describe, expect, it } from 'vitest';
import {
  commandCalls,
  instanceCounters,
  instanceDelta,
  parsePrometheusText,
  readRedisCounters,
  redisDelta,
} from './scale-out-counters.js';

const METRICS = `# HELP process_cpu_seconds_total Total user and system CPU time spent in seconds.
# TYPE process_cpu_seconds_total counter
process_cpu_seconds_total 1.25
messenger_http_requests_total{method="POST",route="/a b",status="200"} 7
messenger_live_deliveries_total 40
messenger_fanout_received_total 80
messenger_fanout_routed_channels 12
`;

describe('scale-out counters', () => {
  it('reads the series of a Prometheus text, labelled ones whole', () => {
    const samples = parsePrometheusText(METRICS);
    expect(samples.get('process_cpu_seconds_total')).toBe(1.25);
    expect(
      samples.get('messenger_http_requests_total{method="POST",route="/a b",status="200"}'),
    ).toBe(7);
  });

  it("subtracts an instance's counters, the routed channels as they are after", () => {
    const before = instanceCounters(METRICS);
    const after = { cpuSeconds: 2, deliveries: 50, fanoutReceived: 100, routedChannels: 10 };
    expect(instanceDelta(before, after)).toEqual({
      cpuSeconds: 0.75,
      deliveries: 10,
      fanoutReceived: 20,
      routedChannels: 10,
    });
  });

  it('takes the calls of each command, and leaves INFO and its own traffic out', async () => {
    expect(
      commandCalls(
        '# Commandstats\r\ncmdstat_publish:calls=3,usec=9\r\ncmdstat_client|id:calls=1,usec=0\r\n',
      ),
    ).toEqual({ publish: 3, 'client|id': 1 });
    const answers = (publish: number, info: number, input: number, output: number) => ({
      info: (section: string) =>
        Promise.resolve(
          section === 'commandstats'
            ? `cmdstat_publish:calls=${publish},usec=1\r\ncmdstat_info:calls=${info},usec=1\r\n`
            : `# Stats\r\ntotal_net_input_bytes:${input}\r\ntotal_net_output_bytes:${output}\r\n`,
        ),
    });
    const before = await readRedisCounters(answers(10, 5, 1000, 2000), 'before');
    const after = await readRedisCounters(answers(14, 8, 1525, 3000), 'after');
    const delta = redisDelta(before, after);
    expect(delta.calls).toEqual({ publish: 4 });
    expect(delta.totalCalls).toBe(4);
    // the second INFO stats request (25 bytes) and the first one's answer are this client's own
    expect(delta.inputBytes).toBe(500);
    expect(delta.outputBytes).toBe(1000 - before.statsAnswerBytes);
  });
});
