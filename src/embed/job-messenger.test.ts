import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInThisContext } from 'node:vm';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mount, type JobMessengerHandle } from './job-messenger.js';

const M = 'https://messenger.example';

const handles: JobMessengerHandle[] = [];
const mountIn = (options: Parameters<typeof mount>[1] = {}) => {
  const element = document.createElement('div');
  document.body.appendChild(element);
  const handle = mount(element, { url: M, ...options });
  handles.push(handle);
  const iframe = element.querySelector('iframe')!;
  return { element, handle, iframe };
};

afterEach(() => {
  handles.splice(0).forEach((handle) => handle.destroy());
  document.body.innerHTML = '';
});

const post = (data: unknown, origin: string, source: Window | null) =>
  window.dispatchEvent(new MessageEvent('message', { data, origin, source }));

const query = (src: string) => new URL(src).searchParams;

describe('embed.js: the iframe', () => {
  it('frames the inbox on the messenger origin, host_origin = this page', () => {
    const { iframe } = mountIn();
    const src = new URL(iframe.src);
    expect(src.origin).toBe(M);
    expect(src.pathname).toBe('/messages');
    expect(src.searchParams.get('embed')).toBe('inbox');
    expect(src.searchParams.get('host_origin')).toBe(location.origin);
    expect(iframe.title).toBe('Messages');
    expect(iframe.style.width).toBe('100%');
    expect(iframe.style.height).toBe('100%');
    expect(iframe.getAttribute('allow')).toBeNull();
  });

  it('passes the conversation ids, locale and theme; the badge has its own title', () => {
    const conversation = mountIn({
      mode: 'conversation',
      company: 'acme',
      candidate: 'c-7',
      job: 'j 1',
      locale: 'ar',
      theme: { color: '#ff0000', colorScheme: 'dark', radius: 4, fontFamily: 'Inter, sans-serif' },
    }).iframe;
    const params = query(conversation.src);
    expect(Object.fromEntries(params)).toEqual({
      embed: 'conversation',
      host_origin: location.origin,
      company: 'acme',
      candidate: 'c-7',
      job: 'j 1',
      lang: 'ar',
      color: '#ff0000',
      scheme: 'dark',
      radius: '4',
      font: 'Inter, sans-serif',
    });
    expect(conversation.title).toBe('Conversation');
    const badge = mountIn({ mode: 'badge' }).iframe;
    expect(query(badge.src).get('embed')).toBe('badge');
    expect(query(badge.src).has('company')).toBe(false);
    expect(badge.title).toBe('Unread messages');
  });

  it('goes through the sign-in link with the frame path as next (& or ?)', () => {
    for (const [signInUrl, joiner] of [
      [`${M}/sso?token=abc`, '&'],
      [`${M}/sso`, '?'],
    ] as const) {
      const { iframe } = mountIn({ mode: 'badge', signInUrl });
      expect(iframe.src.startsWith(`${signInUrl}${joiner}next=`)).toBe(true);
      const next = new URL(iframe.src).searchParams.get('next')!;
      expect(next).toBe(`/messages?embed=badge&host_origin=${encodeURIComponent(location.origin)}`);
    }
  });
});

describe('embed.js: messages', () => {
  it('hands on events from the messenger origin and its own frame only', () => {
    const { handle, iframe } = mountIn();
    const other = mountIn().iframe;
    const unread = vi.fn();
    const ready = vi.fn();
    handle.on('unread', unread);
    handle.on('ready', ready);
    const frame = iframe.contentWindow;
    post({ source: 'job-messenger', type: 'unread', count: 3 }, 'https://evil.example', frame);
    post({ source: 'job-messenger', type: 'unread', count: 4 }, M, other.contentWindow);
    post({ source: 'job-messenger', type: 'unread', count: 5 }, M, window);
    post({ source: 'someone-else', type: 'unread', count: 6 }, M, frame);
    post({ source: 'job-messenger', type: 'unread', count: 'x' }, M, frame);
    expect(unread).not.toHaveBeenCalled();
    post({ source: 'job-messenger', type: 'unread', count: 7 }, M, frame);
    post({ source: 'job-messenger', type: 'ready' }, M, frame);
    expect(unread).toHaveBeenCalledExactlyOnceWith({ count: 7 });
    expect(ready).toHaveBeenCalledOnce();
  });

  it('gives the conversation event its host ids; signin-required', () => {
    const { handle, iframe } = mountIn();
    const conversation = vi.fn();
    const signin = vi.fn();
    handle.on('conversation', conversation);
    handle.on('signin-required', signin);
    const ref = {
      id: 9,
      company_external_id: 'a',
      candidate_external_id: 'b',
      job_external_id: null,
    };
    post({ source: 'job-messenger', type: 'conversation', ...ref }, M, iframe.contentWindow);
    post({ source: 'job-messenger', type: 'signin-required' }, M, iframe.contentWindow);
    expect(conversation).toHaveBeenCalledExactlyOnceWith(ref);
    expect(signin).toHaveBeenCalledOnce();
  });

  it('on() returns an unsubscribe function', () => {
    const { handle, iframe } = mountIn();
    const first = vi.fn();
    const second = vi.fn();
    const stop = handle.on('unread', first);
    handle.on('unread', second);
    stop();
    post({ source: 'job-messenger', type: 'unread', count: 1 }, M, iframe.contentWindow);
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledOnce();
  });

  it('destroy() removes the iframe and its listener', () => {
    const { element, handle, iframe } = mountIn();
    const frame = iframe.contentWindow;
    const unread = vi.fn();
    handle.on('unread', unread);
    const removed = vi.spyOn(window, 'removeEventListener');
    handle.destroy();
    expect(element.querySelector('iframe')).toBeNull();
    expect(removed).toHaveBeenCalledWith('message', expect.any(Function));
    post({ source: 'job-messenger', type: 'unread', count: 1 }, M, frame);
    expect(unread).not.toHaveBeenCalled();
    removed.mockRestore();
  });

  it('open() posts to the messenger origin only, once the frame is ready', () => {
    const { handle, iframe } = mountIn({ mode: 'conversation', company: 'a', candidate: 'b' });
    const postMessage = vi.spyOn(iframe.contentWindow!, 'postMessage');
    post({ source: 'job-messenger', type: 'ready' }, M, iframe.contentWindow);
    handle.open({ company: 'acme', candidate: 'c-9', job: 'j-2' });
    handle.open({ company: 'acme', candidate: 'c-9' });
    expect(postMessage.mock.calls).toEqual([
      [{ source: 'job-messenger', type: 'open', company: 'acme', candidate: 'c-9', job: 'j-2' }, M],
      [{ source: 'job-messenger', type: 'open', company: 'acme', candidate: 'c-9', job: null }, M],
    ]);
  });

  it('open() asked before the frame is ready waits for it: the last one goes, once', () => {
    const { handle, iframe } = mountIn();
    const postMessage = vi.spyOn(iframe.contentWindow!, 'postMessage');
    handle.open({ company: 'acme', candidate: 'c-1' });
    handle.open({ company: 'acme', candidate: 'c-2' });
    expect(postMessage).not.toHaveBeenCalled();
    post({ source: 'job-messenger', type: 'ready' }, M, iframe.contentWindow);
    post({ source: 'job-messenger', type: 'ready' }, M, iframe.contentWindow);
    expect(postMessage.mock.calls).toEqual([
      [{ source: 'job-messenger', type: 'open', company: 'acme', candidate: 'c-2', job: null }, M],
    ]);
  });
});

describe('embed.js: the build', () => {
  // the build runs in a process of its own, which a busy machine can take seconds to start
  it(
    'is at most 5,120 bytes at gzip level 9, defines window.JobMessenger from its script URL',
    {
      timeout: 60_000,
    },
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'embed-'));
      try {
        // esbuild refuses jsdom's globals: the build runs in a Node process of its own
        execFileSync(process.execPath, ['scripts/build-embed.mjs', dir]);
        const script = join(dir, 'embed.js');
        const types = join(dir, 'embed.d.ts');
        const code = readFileSync(script);
        expect(gzipSync(code, { level: 9 }).length).toBeLessThanOrEqual(5120);
        expect(readFileSync(types, 'utf8')).toMatch(/export declare const mount/);

        const saved = window.JobMessenger;
        const currentScript = Object.getOwnPropertyDescriptor(Document.prototype, 'currentScript');
        Object.defineProperty(document, 'currentScript', {
          configurable: true,
          value: { src: `${M}/embed.js` },
        });
        try {
          window.JobMessenger = undefined;
          runInThisContext(code.toString('utf8'));
        } finally {
          delete (document as { currentScript?: unknown }).currentScript;
          expect(Object.getOwnPropertyDescriptor(Document.prototype, 'currentScript')).toEqual(
            currentScript,
          );
        }
        const element = document.createElement('div');
        const handle = window.JobMessenger!.mount(element, { mode: 'badge' });
        expect(element.querySelector('iframe')!.src).toMatch(`${M}/messages?embed=badge&`);
        handle.destroy();
        window.JobMessenger = saved;
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
