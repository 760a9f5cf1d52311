// A newcomer's walk-through: a host script creating users and a job, starting a conversation with a
// message, a sign-in link, and the notification e-mail's link coming back through LOGIN_URL.
// Usage (from the repository, after `npm run build`): node examples/host-walkthrough.mjs
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { simpleParser } from 'mailparser';

const MESSENGER_PORT = 3900 + Math.floor(Math.random() * 50);
const HOST_PORT = MESSENGER_PORT + 50;
const M = `http://127.0.0.1:${MESSENGER_PORT}`;
const HOST = `http://127.0.0.1:${HOST_PORT}`;
const KEY = randomBytes(32).toString('hex');
const SSO_SECRET = randomBytes(32).toString('hex');
const work = mkdtempSync(join(tmpdir(), 'walkthrough-'));
const say = (...args) => console.log(...args);

// ---- the host's own site: a sign-in page that signs "Lina" in and sends her back
const signInLink = async (externalId, next) => {
  const token = await new SignJWT({ next })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(externalId)
    .setJti(randomUUID())
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(SSO_SECRET));
  return `${M}/sso?token=${token}`;
};
const host = createServer(async (request, response) => {
  const url = new URL(request.url, HOST);
  if (url.pathname !== '/login') return response.writeHead(404).end();
  const returnTo = new URL(url.searchParams.get('return_to') ?? `${M}/messages`);
  // the board checks its own session here (the user is signed in on the board), then:
  const link = await signInLink('candidate:7', returnTo.pathname + returnTo.search);
  response.writeHead(302, { location: link }).end();
});
await new Promise((resolve) => host.listen(HOST_PORT, '127.0.0.1', resolve));

// ---- the messenger
const server = spawn(process.execPath, ['dist/server/main.js'], {
  env: {
    ...process.env,
    PORT: String(MESSENGER_PORT),
    DATABASE_URL: `sqlite:${join(work, 'messenger.db')}`,
    DEMO_SEED: 'off',
    INTEGRATION_KEYS: KEY,
    SSO_SECRET,
    LOGIN_URL: `${HOST}/login`,
    SITE_NAME: 'Acme Jobs',
    MAIL_DIR: join(work, 'mail'),
    NOTIFY_EMAIL_DELAY_SECONDS: '0',
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
server.stdout.on('data', (chunk) => process.stdout.write(`  [messenger] ${chunk}`));
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${M}/readyz`)).ok) break;
  } catch {
    // not listening yet
  }
  if (i > 100) throw new Error('the messenger did not start');
  await new Promise((r) => setTimeout(r, 200));
}

const api = async (method, path, body) => {
  const response = await fetch(`${M}${path}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: body && JSON.stringify(body),
  });
  const text = await response.text();
  say(`${method} ${path} → ${response.status}`);
  return text ? JSON.parse(text) : undefined;
};
try {
  say('\n1. The host brings its users and a job');
  await api('PUT', '/api/v1/users/company:42', {
    role: 'company',
    name: 'Delta Ports',
    locale: 'en',
  });
  await api('PUT', '/api/v1/users/candidate:7', {
    role: 'candidate',
    name: 'Lina Farouk',
    email: 'lina@example.com',
    locale: 'ar',
  });
  await api('PUT', '/api/v1/jobs/job:991', {
    company: 'company:42',
    title: 'Crane Operator',
    status: 'active',
  });

  say('\n2. The recruiter presses "Message the candidate": the host starts the conversation');
  const started = await api('POST', '/api/v1/conversations', {
    company: 'company:42',
    candidate: 'candidate:7',
    job: 'job:991',
    message: {
      from: 'company',
      text: 'Hello Lina, are you free for a call?',
      client_id: randomUUID(),
    },
  });
  say('   conversation:', JSON.stringify(started.conversation));

  say('\n3. Lina is not on the page: a notification e-mail is written');
  let mail;
  for (let i = 0; i < 100 && !mail; i++) {
    await new Promise((r) => setTimeout(r, 200));
    try {
      const files = readdirSync(join(work, 'mail')).filter((f) => f.endsWith('.eml'));
      if (files.length) mail = readFileSync(join(work, 'mail', files[0]), 'utf8');
    } catch {
      // no mail folder yet
    }
  }
  if (!mail) throw new Error('no e-mail');
  const parsed = await simpleParser(mail);
  say('   To:', parsed.to?.text, '· Subject:', parsed.subject);
  const emailLink = /(http:\/\/127\.0\.0\.1:\d+\/messages\S*)/.exec(parsed.text ?? '')?.[1];
  say('   the e-mail links to', emailLink);

  say('\n4. Lina clicks it in a browser without a messenger session');
  let url = emailLink;
  let cookie = '';
  for (let hop = 0; hop < 6; hop++) {
    const response = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
    const setCookie = response.headers.getSetCookie?.() ?? [];
    if (setCookie.length) cookie = setCookie.map((c) => c.split(';')[0]).join('; ');
    const location = response.headers.get('location');
    say(
      `   GET ${url.length > 110 ? url.slice(0, 107) + '…' : url} → ${response.status}${location ? ` → ${location.length > 110 ? location.slice(0, 107) + '…' : location}` : ''}`,
    );
    if (!location) {
      const page = await response.text();
      say(
        `   landed: ${/<title>([^<]*)<\/title>/.exec(page)?.[1]} (lang ${/<html[^>]*lang="([^"]+)"/.exec(page)?.[1] ?? '?'})`,
      );
      break;
    }
    url = new URL(location, url).href;
  }
} finally {
  server.kill('SIGTERM');
  host.close();
}
