// Fails fast (with how to start them) when PostgreSQL or Redis is not reachable: tests never skip.
import net from 'node:net';

const services = [
  {
    name: 'PostgreSQL',
    port: 5432,
    start: 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start',
  },
  {
    name: 'Redis',
    port: 6379,
    start: 'redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no',
  },
];

const reachable = (port) =>
  new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port, timeout: 2000 });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });

let missing = 0;
for (const service of services) {
  if (!(await reachable(service.port))) {
    missing += 1;
    console.error(
      `${service.name} is not reachable on 127.0.0.1:${service.port}. Start it with:\n  ${service.start}`,
    );
  }
}
const { existsSync } = await import('node:fs');
if (!existsSync('/usr/bin/chromium')) {
  missing += 1;
  console.error(
    'Chromium is missing (browser tests need /usr/bin/chromium): apt-get install -y chromium',
  );
}
process.exit(missing ? 1 : 0);
