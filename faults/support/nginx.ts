import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../../test-support/server-process.js';
import { sleep } from '../../test-support/wait.js';

/** Debian's nginx (`apt-get install nginx`; `.ci/run` installs it when missing). */
export const NGINX_BINARY = '/usr/sbin/nginx';

/** The nginx.conf the deployment ships (deploy/compose.yaml mounts it). */
export const SHIPPED_NGINX_CONF = resolve(import.meta.dirname, '../../deploy/nginx.conf');

export const nginxInstalled = (): boolean => existsSync(NGINX_BINARY);

/** The access log line the test writes (its own format, whatever the shipped one logs). */
const TEST_LOG_FORMAT =
  'log_format fault_test \'$status $request_method $msec $request_time upstream="$upstream_status" $request_uri\';';

/**
 * The shipped nginx.conf made to run in a temporary folder on this machine: its upstream servers
 * (every `server <address>` line) become `upstreams` on 127.0.0.1, in order; `listen` becomes
 * 127.0.0.1:`listenPort`; the logs and nginx's temporary files go into `dir`, the access log in
 * a format the test parses. Everything else (timeouts, retries, headers) is the shipped file's.
 */
export const nginxConfigFor = (
  shipped: string,
  options: { listenPort: number; upstreams: number[]; dir: string },
): string => {
  const { dir } = options;
  let servers = 0;
  let listens = 0;
  const config = shipped
    // `server <address> …;` inside the upstream block (never `server {` or `server_name`).
    .replace(/^(\s*server\s+)([^\s;{]+)/gm, (_, head: string) => {
      const port = options.upstreams[servers++];
      if (port === undefined) throw new Error('nginx.conf has more upstream servers than the test');
      return `${head}127.0.0.1:${port}`;
    })
    .replace(/^(\s*listen\s+)[^;]+;/gm, (_, head: string) => {
      listens += 1;
      return `${head}127.0.0.1:${options.listenPort};`;
    })
    .replace(/^(\s*)error_log\s+[^;]+;/gm, `$1error_log ${join(dir, 'error.log')} warn;`)
    .replace(/^(\s*)access_log\s+[^;]+;/gm, `$1access_log ${join(dir, 'access.log')} fault_test;`)
    .replace(
      /^(\s*http\s*\{)/m,
      [
        '$1',
        `  ${TEST_LOG_FORMAT}`,
        ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
          (kind) => `  ${kind}_temp_path ${join(dir, `${kind}_temp`)};`,
        ),
      ].join('\n'),
    );
  if (servers !== options.upstreams.length)
    throw new Error(
      `nginx.conf has ${servers} upstream servers, the test ${options.upstreams.length}`,
    );
  if (listens !== 1) throw new Error(`nginx.conf has ${listens} listen lines, expected 1`);
  if (!config.includes('fault_test;'))
    throw new Error('nginx.conf has no access_log line to point into the test folder');
  return config;
};

/** One line of the test's access log. */
export interface NginxLogLine {
  status: number;
  method: string;
  uri: string;
  /** When it was logged (epoch ms: a request's end, a websocket's close). */
  at: number;
  /** `$request_time`: how long nginx spent on it. */
  seconds: number;
  /** `$upstream_status`: every upstream's answer in order (`502, 200` when a retry answered). */
  upstreamStatuses: string[];
  line: string;
}

export interface NginxProcess {
  port: number;
  url: string;
  dir: string;
  child: ChildProcess;
  /** The access log so far, parsed (a websocket is logged when it closes). */
  accessLog: () => NginxLogLine[];
  /** nginx's error log so far (and what it printed). */
  errors: () => string;
  /** Fast stop (SIGTERM to the master), SIGKILL after 5 s; removes the folder. */
  stop: () => Promise<void>;
}

const portAccepts = (port: number): Promise<boolean> =>
  new Promise((resolvePort) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolvePort(true);
    });
    socket.once('error', () => resolvePort(false));
  });

const parseAccessLog = (text: string): NginxLogLine[] =>
  text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const match = /^(\d{3}) (\S+) ([\d.]+) ([\d.]+) upstream="([^"]*)" (.*)$/.exec(line);
      if (!match) throw new Error(`unexpected access log line: ${line}`);
      return {
        status: Number(match[1]),
        method: match[2]!,
        uri: match[6]!,
        at: Math.round(Number(match[3]) * 1000),
        seconds: Number(match[4]),
        upstreamStatuses: match[5]!
          .split(/\s*[,:]\s*/)
          .filter((status) => status !== '' && status !== '-'),
        line,
      };
    });

/**
 * Starts Debian's nginx in the foreground with the shipped config (see `nginxConfigFor`) in a
 * folder of its own, on a free port of 127.0.0.1, in front of `upstreams` (ports on 127.0.0.1).
 * Resolves once it accepts connections.
 */
export const startNginx = async (options: {
  upstreams: number[];
  shippedConfig?: string;
}): Promise<NginxProcess> => {
  if (!nginxInstalled()) throw new Error(`${NGINX_BINARY} is missing: apt-get install nginx`);
  const dir = mkdtempSync(join(tmpdir(), 'messenger-nginx-'));
  // The workers run as nobody when the master is root: they write temporary files in here.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const configFile = join(dir, 'nginx.conf');
  writeFileSync(
    configFile,
    nginxConfigFor(readFileSync(options.shippedConfig ?? SHIPPED_NGINX_CONF, 'utf8'), {
      listenPort: port,
      upstreams: options.upstreams,
      dir,
    }),
  );
  let output = '';
  const child = spawn(
    NGINX_BINARY,
    [
      '-p',
      dir,
      '-c',
      configFile,
      '-e',
      join(dir, 'error.log'),
      '-g',
      `daemon off; pid ${join(dir, 'nginx.pid')};`,
    ],
    // A process group of its own: the master and its workers are killed together if need be.
    { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  const killAll = () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // Never left behind by a test process that ends without stopping it.
  const killOnExit = () => killAll();
  process.once('exit', killOnExit);
  const exited = new Promise<void>((resolveExit) =>
    child.once('exit', () => {
      process.off('exit', killOnExit);
      resolveExit();
    }),
  );
  const read = (file: string) =>
    existsSync(join(dir, file)) ? readFileSync(join(dir, file), 'utf8') : '';
  const errors = () => `${output}${read('error.log')}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(killAll, 5_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 10_000;
  while (!(await portAccepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      const why = errors();
      await stop();
      throw new Error(`nginx did not start:\n${why}`);
    }
    await sleep(50);
  }
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    dir,
    child,
    accessLog: () => parseAccessLog(read('access.log')),
    errors,
    stop,
  };
};
