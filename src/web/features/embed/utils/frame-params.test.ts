import { describe, expect, it } from 'vitest';
import { parseFont, parseRadius, readFrameParams } from './frame-params.js';

const H = encodeURIComponent('https://jobs.example');

describe('readFrameParams', () => {
  it('is null without embed, with an unknown mode or without a valid host_origin', () => {
    expect(readFrameParams('')).toBeNull();
    expect(readFrameParams(`?host_origin=${H}`)).toBeNull();
    expect(readFrameParams(`?embed=popup&host_origin=${H}`)).toBeNull();
    expect(readFrameParams('?embed=inbox')).toBeNull();
    expect(readFrameParams('?embed=inbox&host_origin=jobs.example')).toBeNull();
    expect(readFrameParams(`?embed=inbox&host_origin=${H}%2Fpath`)).toBeNull();
  });

  it('reads the mode, the host origin, the conversation ids and the theme', () => {
    expect(
      readFrameParams(
        `?embed=conversation&host_origin=${H}&company=acme&candidate=c-1&job=j-2&color=%23FF0000&scheme=dark&radius=4&font=Inter%2C%20sans-serif`,
      ),
    ).toEqual({
      mode: 'conversation',
      hostOrigin: 'https://jobs.example',
      conversation: { company: 'acme', candidate: 'c-1', job: 'j-2' },
      theme: { color: '#ff0000', scheme: 'dark', radius: '4px', fontFamily: 'Inter, sans-serif' },
    });
    expect(readFrameParams(`?embed=inbox&host_origin=${H}&company=acme`)).toMatchObject({
      mode: 'inbox',
      conversation: null,
    });
  });

  it('ignores invalid theme values', () => {
    expect(
      readFrameParams(
        `?embed=badge&host_origin=${H}&color=red&scheme=sepia&radius=40px&font=${encodeURIComponent('x;}body{color:red')}`,
      )?.theme,
    ).toEqual({});
  });
});

describe('theme values', () => {
  it('radius: 0 to 32 px, bare numbers are px', () => {
    expect(parseRadius('0')).toBe('0px');
    expect(parseRadius('8px')).toBe('8px');
    expect(parseRadius('32')).toBe('32px');
    expect(parseRadius('33px')).toBeUndefined();
    expect(parseRadius('1em')).toBeUndefined();
    expect(parseRadius('-1')).toBeUndefined();
  });

  it('font: letters, digits, spaces, commas, dashes, underscores and quotes only', () => {
    expect(parseFont(`"Noto Sans Arabic", 'Inter', system-ui, my_font2`)).toBe(
      `"Noto Sans Arabic", 'Inter', system-ui, my_font2`,
    );
    expect(parseFont('Inter; color: red')).toBeUndefined();
    expect(parseFont('url(x)')).toBeUndefined();
    expect(parseFont('   ')).toBeUndefined();
  });
});
