/**
 * A small job board on an origin of its own ("Harbour Jobs") that puts the messenger on its pages
 * with embed.js: the inbox in its dashboard, a "Message the candidate" box on a job page and an
 * unread badge in its header, plus a page using the React component. Its server brings its users
 * and jobs to the messenger through the integration API, renders the header's unread count from
 * `GET /api/v1/users/{externalId}/unread`, and makes each page's sign-in link (an HS256 JWT) itself.
 *
 * `startHostSite` is what `npm run example:host-site` (examples/host-site/start.mjs → main.ts), the
 * browser tests (e2e/embedding.e2e.test.ts) and the embed benchmark (bench/scenarios/embed.ts) run.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { build } from 'esbuild';
import { SignJWT } from 'jose';

const HERE = import.meta.dirname;
const ROOT = resolve(HERE, '../..');

export interface BoardUser {
  /** The board's own id of the user: the messenger's external id. */
  externalId: string;
  role: 'company' | 'candidate';
  name: string;
  email: string;
}

export interface BoardJob {
  externalId: string;
  title: string;
  company: string;
  /** Candidates (external ids) who applied, with the group the board files them under. */
  applicants: { candidate: string; group: string }[];
}

export const COMPANY: BoardUser = {
  externalId: 'nile-recruiting',
  role: 'company',
  name: 'Nile Recruiting',
  email: 'hiring@nile-recruiting.example',
};
export const CANDIDATE: BoardUser = {
  externalId: 'sara-haddad',
  role: 'candidate',
  name: 'Sara Haddad',
  email: 'sara.haddad@example.com',
};
export const SECOND_CANDIDATE: BoardUser = {
  externalId: 'omar-khalil',
  role: 'candidate',
  name: 'Omar Khalil',
  email: 'omar.khalil@example.com',
};
export const BOARD_USERS = [COMPANY, CANDIDATE, SECOND_CANDIDATE] as const;

export const JOBS: readonly BoardJob[] = [
  {
    externalId: 'job-1001',
    title: 'Harbour Crane Operator',
    company: COMPANY.externalId,
    applicants: [{ candidate: CANDIDATE.externalId, group: 'Shortlist' }],
  },
  {
    externalId: 'job-1002',
    title: 'Warehouse Shift Lead',
    company: COMPANY.externalId,
    applicants: [{ candidate: SECOND_CANDIDATE.externalId, group: 'Applied' }],
  },
];

/** The conversations the board starts at start-up, each with a first message. */
const FIRST_MESSAGES = [
  {
    company: COMPANY.externalId,
    candidate: CANDIDATE.externalId,
    job: 'job-1001',
    from: 'candidate',
    text: 'Hello, I applied for the Harbour Crane Operator role last week. Is it still open?',
  },
] as const;

/** The board's brand colour, passed to every mount as `theme.color`. */
export const THEME = {
  color: '#0a7c4a',
  colorScheme: 'light',
  radius: '10px',
  fontFamily: 'system-ui, sans-serif',
} as const;

export interface HostSiteOptions {
  /** The messenger's PUBLIC_URL (e.g. http://127.0.0.1:3000). */
  messengerUrl: string;
  integrationKey: string;
  ssoSecret: string;
  /** The board's port (0: any free one). */
  port?: number;
  /** The host name in the board's address (default `localhost`: another site than 127.0.0.1). */
  hostname?: string;
  /** Bring the users, jobs and first conversation to the messenger at start (default true). */
  seed?: boolean;
}

export interface HostSite {
  /** The board's origin, e.g. http://localhost:4100 (what EMBED_ORIGINS must list). */
  url: string;
  close: () => Promise<void>;
  /** A fresh sign-in link to the messenger for one of the board's users. */
  signInUrl: (externalId: string) => Promise<string>;
  /** Calls the messenger's integration API with the board's key; throws on an error status. */
  api: <T = unknown>(method: string, path: string, body?: unknown) => Promise<T>;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** JSON inside a `<script type="application/json">`: nothing in it can close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** The board's own "session": which of its users is signed in (a first-party cookie, `?as=` sets it). */
const BOARD_COOKIE = 'board_user';

const boardUserOf = (request: IncomingMessage, url: URL): BoardUser => {
  const asked = url.searchParams.get('as');
  const cookie = /(?:^|;\s*)board_user=([^;]+)/.exec(request.headers.cookie ?? '')?.[1];
  const id = asked ?? (cookie ? decodeURIComponent(cookie) : COMPANY.externalId);
  return BOARD_USERS.find((user) => user.externalId === id) ?? COMPANY;
};

/** The React page's script: src/embed/react.tsx's `JobMessenger` and React, bundled once at start. */
const bundleReactPage = async (): Promise<string> => {
  const result = await build({
    entryPoints: [resolve(HERE, 'react-page.tsx')],
    bundle: true,
    write: false,
    format: 'iife',
    target: 'es2020',
    jsx: 'automatic',
    minify: true,
    define: { 'process.env.NODE_ENV': '"production"' },
    absWorkingDir: ROOT,
    logLevel: 'silent',
  });
  const file = result.outputFiles[0];
  if (!file) throw new Error('esbuild wrote nothing for react-page.tsx');
  return file.text;
};

export const startHostSite = async (options: HostSiteOptions): Promise<HostSite> => {
  const messenger = new URL(options.messengerUrl).origin;
  const secret = new TextEncoder().encode(options.ssoSecret);
  const pageScript = readFileSync(resolve(HERE, 'page.js'), 'utf8');
  const styles = readFileSync(resolve(HERE, 'board.css'), 'utf8');
  const reactScript = await bundleReactPage();

  const api = async <T = unknown>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${messenger}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${options.integrationKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };

  /**
   * A sign-in link as docs/host-sign-in.md describes it: `sub`, `jti`, `iat`, `exp` 5 minutes on,
   * the profile claims; no `next` claim, so that embed.js's `next` (the frame's page) is where it lands.
   */
  const signInUrl = async (externalId: string): Promise<string> => {
    const user = BOARD_USERS.find((candidate) => candidate.externalId === externalId);
    if (!user) throw new Error(`no board user ${externalId}`);
    const token = await new SignJWT({ role: user.role, name: user.name, locale: 'en' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.externalId)
      .setJti(randomUUID())
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(secret);
    return `${messenger}/sso?token=${encodeURIComponent(token)}`;
  };

  if (options.seed ?? true) {
    for (const user of BOARD_USERS)
      await api('PUT', `/api/v1/users/${user.externalId}`, {
        role: user.role,
        name: user.name,
        email: user.email,
        locale: 'en',
      });
    for (const job of JOBS) {
      await api('PUT', `/api/v1/jobs/${job.externalId}`, {
        company: job.company,
        title: job.title,
        status: 'active',
      });
      for (const applicant of job.applicants)
        await api('PUT', `/api/v1/jobs/${job.externalId}/applications/${applicant.candidate}`, {
          group: applicant.group,
        });
    }
    for (const first of FIRST_MESSAGES)
      await api('POST', '/api/v1/conversations', {
        company: first.company,
        candidate: first.candidate,
        job: first.job,
        message: { from: first.from, text: first.text },
      });
  }

  const unreadOf = async (user: BoardUser): Promise<number | null> => {
    try {
      const answer = await api<{ unread_total: number }>(
        'GET',
        `/api/v1/users/${user.externalId}/unread`,
      );
      return answer.unread_total;
    } catch {
      return null;
    }
  };

  /** A page of the board: its header (the server's unread count and the badge frame) and `main`. */
  const layout = async (
    user: BoardUser,
    title: string,
    main: string,
    config: Record<string, unknown>,
    script: string,
  ) => {
    const unread = await unreadOf(user);
    const switcher = BOARD_USERS.map((other) =>
      other.externalId === user.externalId
        ? `<li><strong aria-current="true">${escapeHtml(other.name)}</strong></li>`
        : `<li><a href="?as=${encodeURIComponent(other.externalId)}">${escapeHtml(other.name)}</a></li>`,
    ).join('');
    return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Harbour Jobs</title>
<style>${styles}</style>
</head>
<body>
<header class="board-header">
  <a class="board-logo" href="/">Harbour Jobs</a>
  <nav aria-label="Board">
    <a href="/">Dashboard</a>
    ${JOBS.map((job) => `<a href="/jobs/${job.externalId}">${escapeHtml(job.title)}</a>`).join('\n    ')}
    <a href="/react">React page</a>
  </nav>
  <span class="board-messages">
    <a href="/">Messages</a>
    <span class="board-badge" id="badge" data-testid="badge-frame"></span>
  </span>
  <span class="board-server-unread" data-testid="server-unread">${
    unread === null ? 'unread: not available' : `${unread} unread (server)`
  }</span>
</header>
<nav class="board-switch" aria-label="Signed in on the board as">
  <span>Signed in on the board as</span>
  <ul>${switcher}</ul>
</nav>
<main>
${main}
<section class="board-events" aria-labelledby="events-title">
  <h2 id="events-title">Messenger events</h2>
  <ol id="events" data-testid="events"></ol>
</section>
</main>
<script id="board-config" type="application/json">${scriptJson(config)}</script>
<script src="${messenger}/embed.js"></script>
${script}
</body>
</html>`;
  };

  const baseConfig = async (user: BoardUser) => ({
    user: user.externalId,
    messengerUrl: messenger,
    theme: THEME,
    locale: 'en',
    // one sign-in link a page: the first frame signs in, the others share its (partitioned) session
    signInUrl: await signInUrl(user.externalId),
  });

  const dashboard = async (user: BoardUser) =>
    layout(
      user,
      'Dashboard',
      `<h1>Dashboard</h1>
<section aria-labelledby="inbox-title">
  <h2 id="inbox-title">Your conversations with ${user.role === 'company' ? 'candidates' : 'companies'}</h2>
  <div class="board-inbox" id="inbox" data-testid="inbox-frame"></div>
</section>`,
      {
        ...(await baseConfig(user)),
        mounts: [
          { name: 'inbox', element: 'inbox', mode: 'inbox' },
          { name: 'badge', element: 'badge', mode: 'badge' },
        ],
      },
      `<script src="/page.js"></script>`,
    );

  const jobPage = async (user: BoardUser, job: BoardJob) => {
    const company = BOARD_USERS.find((other) => other.externalId === job.company) ?? COMPANY;
    const applicants = job.applicants.map((applicant) =>
      BOARD_USERS.find((other) => other.externalId === applicant.candidate)!,
    );
    const rows =
      user.role === 'company'
        ? applicants
            .map(
              (candidate) =>
                `<li><span>${escapeHtml(candidate.name)}</span>
  <button type="button" class="board-button" data-message-company="${company.externalId}" data-message-candidate="${candidate.externalId}" data-message-job="${job.externalId}">Message the candidate</button></li>`,
            )
            .join('')
        : `<li><span>${escapeHtml(company.name)}</span>
  <button type="button" class="board-button" data-message-company="${company.externalId}" data-message-candidate="${user.externalId}" data-message-job="${job.externalId}">Message the company</button></li>`;
    return layout(
      user,
      job.title,
      `<div class="board-job">
<div>
<h1>${escapeHtml(job.title)}</h1>
<p>Posted by ${escapeHtml(company.name)}. Full time, on site; shifts on weekdays.</p>
<section aria-labelledby="applicants-title">
  <h2 id="applicants-title">${user.role === 'company' ? 'Applicants' : 'Recruiter'}</h2>
  <ul class="board-applicants">${rows}</ul>
</section>
</div>
<section aria-labelledby="conversation-title">
  <h2 id="conversation-title">Conversation</h2>
  <div class="board-conversation" id="conversation" data-testid="conversation-frame"></div>
</section>
</div>`,
      {
        ...(await baseConfig(user)),
        mounts: [{ name: 'badge', element: 'badge', mode: 'badge' }],
        // the button mounts { mode: 'conversation', company, candidate, job } into #conversation
        conversationElement: 'conversation',
      },
      `<script src="/page.js"></script>`,
    );
  };

  const reactPage = async (user: BoardUser) =>
    layout(
      user,
      'React page',
      `<h1>Messages (React)</h1>
<p>The same inbox through the typed React component <code>&lt;JobMessenger mode="inbox" /&gt;</code>.</p>
<p data-testid="react-unread">Unread: <output id="react-unread">…</output></p>
<div class="board-inbox" id="react-root"></div>`,
      await baseConfig(user),
      `<script src="/react-page.js"></script>`,
    );

  const send = (
    response: ServerResponse,
    status: number,
    type: string,
    body: string,
    headers: Record<string, string> = {},
  ) => {
    response.writeHead(status, {
      'content-type': type,
      'cache-control': 'no-store',
      ...headers,
    });
    response.end(body);
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://board.invalid');
    const user = boardUserOf(request, url);
    // `?as=` signs the visitor in on the board as that user (remembered in the board's own cookie)
    const remember: Record<string, string> = url.searchParams.has('as')
      ? {
          'set-cookie': `${BOARD_COOKIE}=${encodeURIComponent(user.externalId)}; Path=/; SameSite=Lax; HttpOnly`,
        }
      : {};
    const html = 'text/html; charset=utf-8';
    if (request.method !== 'GET') return send(response, 405, 'text/plain', 'GET only');
    if (url.pathname === '/') return send(response, 200, html, await dashboard(user), remember);
    const job = /^\/jobs\/([^/]+)$/.exec(url.pathname)?.[1];
    if (job) {
      const found = JOBS.find((candidate) => candidate.externalId === job);
      if (!found) return send(response, 404, 'text/plain', 'No such job');
      return send(response, 200, html, await jobPage(user, found), remember);
    }
    if (url.pathname === '/react')
      return send(response, 200, html, await reactPage(user), remember);
    if (url.pathname === '/signin-url')
      return send(
        response,
        200,
        'application/json',
        JSON.stringify({ signInUrl: await signInUrl(user.externalId) }),
      );
    // the messenger's own page, top-level (first-party): where a browser that keeps no cookie for
    // the frame is sent after repeated signin-required
    if (url.pathname === '/open-messages') {
      response.writeHead(302, {
        location: `${await signInUrl(user.externalId)}&next=${encodeURIComponent('/messages')}`,
        'cache-control': 'no-store',
      });
      response.end();
      return;
    }
    if (url.pathname === '/page.js')
      return send(response, 200, 'text/javascript; charset=utf-8', pageScript);
    if (url.pathname === '/react-page.js')
      return send(response, 200, 'text/javascript; charset=utf-8', reactScript);
    return send(response, 404, 'text/plain', 'Not found');
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) send(response, 500, 'text/plain', String(error));
      else response.end();
    });
  });
  await new Promise<void>((done) => server.listen(options.port ?? 0, '127.0.0.1', done));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${options.hostname ?? 'localhost'}:${port}`,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
    signInUrl,
    api,
  };
};
