import { linkify } from './linkify.js';

describe('links in messages', () => {
  it('finds http and https addresses, leaving sentence punctuation outside', () => {
    expect(linkify('See https://jobs.example/apply?id=3. Thanks!')).toEqual([
      { kind: 'text', text: 'See ' },
      {
        kind: 'link',
        text: 'https://jobs.example/apply?id=3',
        href: 'https://jobs.example/apply?id=3',
      },
      { kind: 'text', text: '. Thanks!' },
    ]);
    expect(linkify('(portfolio: http://me.example/work)')).toEqual([
      { kind: 'text', text: '(portfolio: ' },
      { kind: 'link', text: 'http://me.example/work', href: 'http://me.example/work' },
      { kind: 'text', text: ')' },
    ]);
  });

  it('never makes a link of other schemes or of markup', () => {
    for (const text of [
      'javascript:alert(1)',
      '<a href="https://x.example">x</a> data:text/html,hi',
      'mailto:hr@example.com',
      'no links here',
    ]) {
      const links = linkify(text).filter((part) => part.kind === 'link');
      for (const link of links) expect(link.href).toMatch(/^https?:\/\//);
      expect(
        linkify(text)
          .map((part) => part.text)
          .join(''),
      ).toBe(text);
    }
    expect(linkify('javascript:alert(1)')).toEqual([{ kind: 'text', text: 'javascript:alert(1)' }]);
  });

  it('makes bare www. addresses links over https, but not an e-mail address or a word', () => {
    expect(linkify('See www.example.com/sara, thanks')).toEqual([
      { kind: 'text', text: 'See ' },
      { kind: 'link', text: 'www.example.com/sara', href: 'https://www.example.com/sara' },
      { kind: 'text', text: ', thanks' },
    ]);
    for (const text of ['hr@www.example.com', 'awww.no', 'www.', 'www.nodot']) {
      expect(linkify(text).filter((part) => part.kind === 'link')).toEqual([]);
    }
  });
});
