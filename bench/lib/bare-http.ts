/** What the bare `node:http` baselines share: JSON answers, listening on a free local port, closing. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const sendJson = (response: http.ServerResponse, status: number, value: unknown): void => {
  const text = JSON.stringify(value);
  response
    .writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
    })
    .end(text);
};

/** Listens on 127.0.0.1 (a free port, keep-alive as the load generators use it); its port. */
export const listenLocal = async (server: http.Server): Promise<number> => {
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};

/** Drops its connections and closes it (nothing when it never started). */
export const closeServer = async (server: http.Server | undefined): Promise<void> => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
};
