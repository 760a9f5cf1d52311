import { describe, expect, it } from 'vitest';
import { hostSignInFor, returnToUrl, withReturnTo } from './host-sign-in.js';

const PUBLIC_URL = new URL('https://messages.board.example');

describe('return_to', () => {
  it('is the path and query on PUBLIC_URL’s origin', () => {
    expect(returnToUrl(PUBLIC_URL, '/messages?target=3&tab=1')).toBe(
      'https://messages.board.example/messages?target=3&tab=1',
    );
    expect(returnToUrl(new URL('http://127.0.0.1:4000/'), '/messages')).toBe(
      'http://127.0.0.1:4000/messages',
    );
  });

  it.each([null, undefined, '', '//evil.example/messages', 'https://evil.example/', '/\\evil'])(
    'is PUBLIC_URL/messages for %j, never another site',
    (value) => {
      expect(returnToUrl(PUBLIC_URL, value)).toBe('https://messages.board.example/messages');
    },
  );
});

describe('LOGIN_URL with return_to', () => {
  const back = 'https://messages.board.example/messages?target=3&tab=1';

  it('adds return_to as the query of a LOGIN_URL without one', () => {
    const url = withReturnTo(new URL('https://jobs.example/login'), back);
    expect(url).toBe(`https://jobs.example/login?return_to=${encodeURIComponent(back)}`);
    expect(new URL(url).searchParams.get('return_to')).toBe(back);
  });

  it('keeps the query LOGIN_URL already has, exactly as written, and its fragment last', () => {
    const url = withReturnTo(
      new URL('https://jobs.example/sign-in?from=messenger&x=a%20b#top'),
      back,
    );
    expect(url).toBe(
      `https://jobs.example/sign-in?from=messenger&x=a%20b&return_to=${encodeURIComponent(back)}#top`,
    );
    const parsed = new URL(url);
    expect(parsed.searchParams.get('from')).toBe('messenger');
    expect(parsed.searchParams.get('return_to')).toBe(back);
    expect(parsed.hash).toBe('#top');
  });

  it('adds to a LOGIN_URL ending in an empty query', () => {
    expect(withReturnTo(new URL('https://jobs.example/login?'), back)).toBe(
      `https://jobs.example/login?return_to=${encodeURIComponent(back)}`,
    );
  });

  it('replaces a return_to LOGIN_URL carries itself (one, the right one)', () => {
    const url = new URL(withReturnTo(new URL('https://jobs.example/login?return_to=x&a=1'), back));
    expect(url.searchParams.getAll('return_to')).toEqual([back]);
    expect(url.searchParams.get('a')).toBe('1');
  });
});

describe('hostSignInFor', () => {
  it('is undefined without LOGIN_URL', () => {
    expect(hostSignInFor({ loginUrl: undefined, publicUrl: PUBLIC_URL })).toBeUndefined();
  });

  it('is undefined when LOGIN_URL is the messenger’s own /login (it would loop)', () => {
    expect(
      hostSignInFor({
        loginUrl: new URL('https://messages.board.example/login?a=1'),
        publicUrl: PUBLIC_URL,
      }),
    ).toBeUndefined();
  });

  it('sends to LOGIN_URL with return_to on PUBLIC_URL', () => {
    const signIn = hostSignInFor({
      loginUrl: new URL('https://jobs.example/login'),
      publicUrl: PUBLIC_URL,
    });
    expect(signIn?.('/messages?tab=2')).toBe(
      `https://jobs.example/login?return_to=${encodeURIComponent('https://messages.board.example/messages?tab=2')}`,
    );
  });
});
