import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sameOriginPath } from './paths.js';

const ORIGIN = 'https://messages.example.com';

/** Where a browser told `Location: <path>` on ORIGIN ends up, or null when it cannot tell. */
const landing = (path: string): URL | null => {
  try {
    return new URL(path, `${ORIGIN}/sso?token=x`);
  } catch {
    return null;
  }
};

describe('sameOriginPath (where `next` may send someone after sign-in)', () => {
  it.each([
    ['/messages', '/messages'],
    ['/messages?target=2&tab=3', '/messages?target=2&tab=3'],
    ['/messages#top', '/messages#top'],
    ['/a/../messages', '/messages'],
    ['/./messages', '/messages'],
    ['/%2e/messages', '/messages'],
    ['/messages?q=مرحبا', `/messages?q=${encodeURIComponent('مرحبا')}`],
    ['/messages?next=//evil.example', '/messages?next=//evil.example'],
    // an encoded slash that is not at the start stays a harmless part of a path here
    ['/.%2F/evil.example', '/.%2F/evil.example'],
  ])('keeps the path of this site %j as %j', (value, expected) => {
    expect(sameOriginPath(value)).toBe(expected);
  });

  it.each([
    // dot segments that the URL parser removes after a raw check would have passed
    '/.//evil.example/phish',
    '/..//evil.example/phish',
    '/%2e//evil.example/phish',
    '/%2E//evil.example/phish',
    '/.%2e//evil.example/phish',
    '/%2e%2e//evil.example/phish',
    '/a/..//evil.example/phish',
    '/a/b/../..//evil.example/phish',
    '/a/%2e%2e//evil.example/phish',
    '/././/evil.example',
    // backslashes, literal and encoded, which browsers read as slashes
    '/\\evil.example',
    '/.\\/evil.example',
    '\\\\evil.example',
    '/%5C%5Cevil.example',
    '/%2F/evil.example',
    '/%2f%2fevil.example',
    '/%5Cevil.example',
    '/%2e/%2Fevil.example',
    // tabs and line breaks, which browsers drop
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r\n/evil.example',
    '/.\t//evil.example',
    // not a path
    '//evil.example/x',
    'https://evil.example/x',
    'http:evil.example',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' /messages',
    'messages',
    '',
    '/%',
  ])('refuses %j', (value) => {
    expect(sameOriginPath(value)).toBeNull();
  });

  const fragments = [
    '/',
    '//',
    '.',
    '..',
    '%2e',
    '%2E',
    '%2f',
    '%5c',
    '\\',
    '\t',
    '\n',
    ':',
    '@',
    '?',
    '#',
    'evil.example',
    'messages',
    'https:',
    'javascript:',
    'a',
  ];

  it('whatever it is given, what it keeps lands on this origin and never starts with // (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.array(fc.constantFrom(...fragments), { maxLength: 8 }).map((parts) => parts.join('')),
          fc.string({ maxLength: 40 }),
          fc.webUrl().map((url) => url.replace(/^https?:/, '')),
        ),
        (value) => {
          const path = sameOriginPath(value);
          if (path === null) return;
          expect(path.startsWith('/')).toBe(true);
          expect(path.startsWith('//')).toBe(false);
          expect(path).not.toMatch(/^\/[\\/]|^\/%(2f|5c)/i);
          expect(landing(path)?.origin).toBe(ORIGIN);
          // what a browser will fetch is what was judged: resolving it again changes nothing
          const url = landing(path);
          expect(url && `${url.pathname}${url.search}${url.hash}`).toBe(path);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
