import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';

/**
 * A tiny site of its own (http://127.0.0.1:<port>) for the control check that the browser blocks
 * third-party cookies: `/set` answers two `SameSite=None; Secure` cookies, one `Partitioned`, and
 * `/echo` shows the `cookie` header it was sent (in `#cookies`).
 */
export interface CookieProbe {
  url: string;
  close: () => Promise<void>;
}

export const UNPARTITIONED = 'probe_unpartitioned';
export const PARTITIONED = 'probe_partitioned';

export const startCookieProbe = async (): Promise<CookieProbe> => {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://probe.invalid').pathname;
    const page = (body: string) =>
      `<!doctype html><html lang="en"><title>cookie probe</title><body>${body}</body></html>`;
    if (path === '/set') {
      response.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'set-cookie': [
          `${UNPARTITIONED}=1; Path=/; SameSite=None; Secure`,
          `${PARTITIONED}=1; Path=/; SameSite=None; Secure; Partitioned`,
        ],
      });
      response.end(page('set'));
      return;
    }
    if (path === '/echo') {
      const cookie = (request.headers.cookie ?? '').replace(/[<&]/g, '');
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(page(`<pre id="cookies">${cookie}</pre>`));
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
};

/**
 * In `page` (on another site than the probe's), frames the probe's `/set` and then its `/echo`, and
 * answers the names of the cookies the framed `/echo` was sent.
 */
export const cookiesSentToFrame = async (page: Page, probe: CookieProbe): Promise<string[]> => {
  const load = (src: string) =>
    page.evaluate(
      (frameSrc) =>
        new Promise<void>((done) => {
          document.querySelector('iframe[data-cookie-probe]')?.remove();
          const frame = document.createElement('iframe');
          frame.dataset.cookieProbe = '';
          frame.title = 'cookie probe';
          frame.addEventListener('load', () => done(), { once: true });
          frame.src = frameSrc;
          document.body.append(frame);
        }),
      src,
    );
  await load(`${probe.url}/set`);
  await load(`${probe.url}/echo`);
  const text = await page.frameLocator('iframe[data-cookie-probe]').locator('#cookies').innerText();
  return text
    .split(';')
    .map((pair) => pair.trim().split('=')[0] ?? '')
    .filter(Boolean);
};
