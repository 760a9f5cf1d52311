import { highlightParts } from './highlight.js';

describe('highlightParts', () => {
  it('cuts a snippet at the words that start with a word of the query, ignoring case', () => {
    expect(highlightParts('Can you do an Interview on Monday?', 'inter mon')).toEqual([
      { text: 'Can you do an ', match: false },
      { text: 'Interview', match: true },
      { text: ' on ', match: false },
      { text: 'Monday', match: true },
      { text: '?', match: false },
    ]);
  });

  it('matches through accents and Arabic short vowels, keeping the original text', () => {
    const parts = highlightParts('Un café à Montréal', 'cafe montreal');
    expect(parts.filter((part) => part.match).map((part) => part.text)).toEqual([
      'café',
      'Montréal',
    ]);
    const arabic = highlightParts('مُقَابَلَة يوم الإثنين', 'مقابلة');
    expect(arabic[0]).toEqual({ text: 'مُقَابَلَة', match: true });
    expect(arabic.map((part) => part.text).join('')).toBe('مُقَابَلَة يوم الإثنين');
  });

  it('a word inside another word is no match; nothing matching leaves the text whole', () => {
    expect(highlightParts('reinterview', 'inter')).toEqual([{ text: 'reinterview', match: false }]);
    expect(highlightParts('', 'inter')).toEqual([]);
  });
});
