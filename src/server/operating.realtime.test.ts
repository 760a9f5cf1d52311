/**
 * Running the server as a service (docs/deploy.md): its log is one JSON object per line, each
 * request's lines name its id and no line holds a credential or what someone wrote; `/metrics`
 * serves every metric the shipped Grafana dashboard reads; a stop drains, closes live sockets with
 * 4200 and exits 0; a second signal exits at once.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { paths } from '../shared/paths.js';
import { ACME, SARA } from '../../test-support/accounts.js';
import { signInOverHttp, withKey } from '../../test-support/http-session.js';
import { messengerConfig, sendTo } from '../../test-support/messaging.js';
import { pusherSocketUrl, RawSocket } from '../../test-support/raw-socket.js';
import { freePort, startServer, type ServerProcess } from '../../test-support/server-process.js';
import { waitForValue, within } from '../../test-support/wait.js';
import { DEMO_PASSWORD } from './db/demo-mode.js';

/** The metric names the dashboard's queries read (a histogram's series named by the histogram). */
const dashboardMetricNames = (): string[] => {
  const dashboard = JSON.parse(readFileSync('deploy/grafana-dashboard.json', 'utf8')) as {
    panels: { targets: { expr: string }[] }[];
  };
  const names = dashboard.panels.flatMap((panel) =>
    panel.targets.flatMap(
      (target) => target.expr.match(/\b(?:messenger|process|nodejs)_[a-z0-9_]+\b/g) ?? [],
    ),
  );
  return [...new Set(names.map((name) => name.replace(/_(bucket|sum|count)$/, '')))];
};

/** Readiness answers 503 `draining` once the process has taken the stop signal (while it still serves). */
const drainingSeen = (server: ServerProcess) =>
  waitForValue(
    async () => {
      const answer = await fetch(`${server.url}${paths.readyz}`);
      return { status: answer.status, body: ((await answer.json()) as { status: string }).status };
    },
    { status: 503, body: 'draining' },
    'readiness to say draining',
    { timeout: 2_000, interval: 20 },
  );

describe('the server as a service', () => {
  const servers: ServerProcess[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.kill()));
  });

  it('exits at once on a second signal', async () => {
    const server = await startServer({ env: { SHUTDOWN_DELAY_SECONDS: '60' } });
    servers.push(server);
    server.child.kill('SIGTERM');
    await drainingSeen(server);
    const exited = server.stop(); // the second SIGTERM
    expect(await within(exited, 'the exit after a second signal', 5_000)).toBe(1);
  });

  it('logs JSON lines with request ids and no secrets, serves the dashboard’s metrics, and stops cleanly', async () => {
    const metricsPort = await freePort();
    const pusherSecret = randomBytes(24).toString('hex');
    const server = await startServer({
      env: {
        DEMO_SEED: 'on',
        LOG_LEVEL: 'info',
        METRICS_PORT: String(metricsPort),
        SHUTDOWN_DELAY_SECONDS: '3',
        PUSHER_SECRET: pusherSecret,
      },
    });
    servers.push(server);

    const sara = await signInOverHttp(server.url, SARA.email);
    const acme = await signInOverHttp(server.url, ACME.email);
    const words = `a private sentence ${randomUUID()}`;
    await sendTo(sara, acme, words);
    const issued = await fetch(`${server.url}${paths.tokens}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ACME.email, password: DEMO_PASSWORD }),
    });
    const { token } = (await issued.json()) as { token: string };
    const { key } = await messengerConfig(server.url);
    const withToken = await fetch(`${server.url}${withKey(paths.initialData, key)}`, {
      headers: { authorization: `Bearer ${token}`, 'x-request-id': 'forged-by-a-client' },
    });
    expect(withToken.status).toBe(200);
    const requestId = withToken.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    await fetch(`${server.url}${paths.healthz}`);

    // Every metric the dashboard reads is served.
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    for (const name of dashboardMetricNames())
      expect(metrics, `the dashboard reads ${name}`).toMatch(new RegExp(`^# TYPE ${name} `, 'm'));
    expect(metrics).toMatch(/^messenger_messages_sent_total 1$/m);

    // A stop: readiness turns at once, live sockets get 4200, the process exits 0.
    const { broadcaster } = await messengerConfig(server.url);
    const socket = await RawSocket.open(pusherSocketUrl(server.port, broadcaster.key));
    const exited = server.stop();
    await drainingSeen(server);
    expect((await within(socket.closed, 'the socket to close')).code).toBe(4200);
    expect(await within(exited, 'the stop', 30_000)).toBe(0);

    // The log: one JSON object per line, a line per answered request naming its id and route.
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'));
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const completed = entries.filter((entry) => entry.msg === 'request completed');
    expect(completed.find((entry) => entry.reqId === requestId)).toMatchObject({
      method: 'GET',
      route: paths.initialData,
      status: 200,
    });
    expect(completed.some((entry) => entry.route === paths.sendMessage)).toBe(true);
    expect(completed.some((entry) => entry.route === paths.healthz)).toBe(false);
    expect(completed.every((entry) => typeof entry.reqId === 'string')).toBe(true);
    const log = lines.join('\n');
    const sessionCookie = sara.cookie.split(';').map((part) => part.split('=')[1] ?? '');
    for (const secret of [words, token, sara.csrf, pusherSecret, ...sessionCookie])
      if (secret.length > 0) expect(log).not.toContain(secret);
    expect(log).not.toMatch(/"password"\s*:\s*"(?!\[redacted\])/);
    expect(log).not.toContain('forged-by-a-client');
  });
});
