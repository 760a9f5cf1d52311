import { createServer, type Server } from 'node:http';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { OutboxOutcome } from '../outbox/outbox-worker.js';

/** What the gauges read when Prometheus scrapes (set once the parts they read exist). */
export interface MetricsSources {
  /** Open live sockets on this instance. */
  liveConnections(): number;
  /** Frames delivered to live sockets so far (a count that only grows). */
  liveDeliveries(): number;
  /** Event messages received from the Redis fan-out so far (a count that only grows). */
  fanoutReceived(): number;
  /** Channels whose shard channels this instance subscribes to (either routing), or null without Redis. */
  routedChannels(): number | null;
  /** Outbox tasks not done, and how long the earliest due one has waited. */
  outboxBacklog(): Promise<{ pending: number; oldestDueSeconds: number }>;
}

/** Outbox task kinds whose outcomes have a metric of their own. */
export interface OutboxKinds {
  email: string;
  webhook: string;
}

const WEBHOOK_OUTCOMES: Record<OutboxOutcome, string> = {
  done: 'delivered',
  retry: 'failed',
  gave_up: 'gave_up',
};

/**
 * The instance's metrics (docs/operations.md lists them): prom-client's default process and Node
 * metrics and the messenger's own, in a registry of their own (several apps in one test process
 * do not share one).
 */
export const createMetrics = () => {
  const registry = new Registry();
  const registers = [registry];
  const httpRequests = new Counter({
    name: 'messenger_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers,
  });
  const httpDuration = new Histogram({
    name: 'messenger_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method and route pattern.',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers,
  });
  const messagesSent = new Counter({
    name: 'messenger_messages_sent_total',
    help: 'Messages stored by sends (replays of a client_id not counted).',
    registers,
  });
  const emailsSent = new Counter({
    name: 'messenger_emails_sent_total',
    help: 'Notification e-mails handed to the mail server (or written as .eml files).',
    registers,
  });
  const emailsFailed = new Counter({
    name: 'messenger_emails_failed_total',
    help: 'Notification e-mail attempts that failed, by whether they will be tried again.',
    labelNames: ['outcome'] as const,
    registers,
  });
  const webhooks = new Counter({
    name: 'messenger_webhooks_delivered_total',
    help: 'Webhook attempts by outcome: delivered, failed (tried again later), gave_up.',
    labelNames: ['outcome'] as const,
    registers,
  });
  const routeSeries = new Map<
    string,
    {
      duration: ReturnType<typeof httpDuration.labels>;
      byStatus: Map<number, ReturnType<typeof httpRequests.labels>>;
    }
  >();
  let sources: MetricsSources | undefined;
  /** A counter that follows a count kept elsewhere (one that only grows), read at each scrape. */
  const countFollowing = (name: string, help: string, count: () => number) => {
    let counted = 0;
    new Counter({
      name,
      help,
      registers,
      collect() {
        const now = count();
        if (now > counted) this.inc(now - counted);
        counted = now;
      },
    });
  };
  countFollowing(
    'messenger_live_deliveries_total',
    'Event frames delivered to live sockets on this instance.',
    () => sources?.liveDeliveries() ?? 0,
  );
  countFollowing(
    'messenger_fanout_received_total',
    'Event messages this instance received from the Redis fan-out (delivered or dropped).',
    () => sources?.fanoutReceived() ?? 0,
  );
  new Gauge({
    name: 'messenger_fanout_routed_channels',
    help: 'Channels whose shard channels this instance subscribes to (the channels it holds sockets on).',
    registers,
    collect() {
      this.set(sources?.routedChannels() ?? 0);
    },
  });
  new Gauge({
    name: 'messenger_live_connections',
    help: 'Open live sockets on this instance.',
    registers,
    collect() {
      this.set(sources?.liveConnections() ?? 0);
    },
  });
  // One backlog query per scrape serves both outbox gauges.
  let backlog: Promise<{ pending: number; oldestDueSeconds: number }> | undefined;
  const readBacklog = () => {
    backlog ??= (
      sources?.outboxBacklog() ?? Promise.resolve({ pending: 0, oldestDueSeconds: 0 })
    ).finally(() => setImmediate(() => (backlog = undefined)));
    return backlog;
  };
  new Gauge({
    name: 'messenger_outbox_tasks_pending',
    help: 'Outbox tasks (e-mails, webhooks) not done yet, due or waiting for their moment.',
    registers,
    // every worker reads the same database: summed over workers it would count each task N times
    aggregator: 'max',
    async collect() {
      this.set((await readBacklog()).pending);
    },
  });
  new Gauge({
    name: 'messenger_outbox_oldest_pending_seconds',
    help: 'How long the earliest due outbox task has waited (0: none due).',
    registers,
    aggregator: 'max',
    async collect() {
      this.set((await readBacklog()).oldestDueSeconds);
    },
  });

  return {
    registry,
    /** prom-client's default process and Node metrics (event loop lag, heap, CPU, handles…). */
    collectDefaults() {
      collectDefaultMetrics({ register: registry });
    },
    watch(watched: MetricsSources) {
      sources = watched;
    },
    requestAnswered(method: string, route: string, status: number, seconds: number) {
      // the labelled series of a route, looked up once (label hashing on every request costs)
      const key = `${method} ${route}`;
      let series = routeSeries.get(key);
      if (!series) {
        series = { duration: httpDuration.labels(method, route), byStatus: new Map() };
        routeSeries.set(key, series);
      }
      let count = series.byStatus.get(status);
      if (!count) {
        count = httpRequests.labels(method, route, String(status));
        series.byStatus.set(status, count);
      }
      count.inc();
      series.duration.observe(seconds);
    },
    messageSent() {
      messagesSent.inc();
    },
    outboxOutcome(kinds: OutboxKinds, kind: string, outcome: OutboxOutcome) {
      if (kind === kinds.email) {
        if (outcome === 'done') emailsSent.inc();
        else emailsFailed.inc({ outcome: outcome === 'retry' ? 'retry' : 'gave_up' });
      } else if (kind === kinds.webhook) webhooks.inc({ outcome: WEBHOOK_OUTCOMES[outcome] });
    },
  };
};

export type Metrics = ReturnType<typeof createMetrics>;

/** Where `/metrics` reads its text: one registry, or a cluster primary's sum over its workers. */
export interface MetricsText {
  contentType: string;
  metrics(): Promise<string>;
}

/** Serves `GET /metrics` (and nothing else) on its own port. */
export const serveMetrics = async (
  source: MetricsText,
  port: number,
  host: string,
): Promise<Server> => {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404).end();
      return;
    }
    source.metrics().then(
      (text) => {
        response.writeHead(200, { 'content-type': source.contentType }).end(text);
      },
      (error: unknown) => {
        response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
};
