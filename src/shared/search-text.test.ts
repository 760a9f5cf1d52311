import { describe, expect, it } from 'vitest';
import {
  matchRanges,
  queryWords,
  searchWords,
  searchDocument,
  searchSnippet,
  SNIPPET_MAX_LENGTH,
} from './search-text.js';
import { fillTemplate } from './saved-replies-paths.js';

describe('search text', () => {
  it('ignores case and Latin diacritics', () => {
    expect(searchDocument('Café CRÈME, naïve!')).toBe('cafe creme naive');
  });

  it('ignores Arabic short vowels, tatweel and the forms of alef', () => {
    // كَتَبَ with its vowels, مـــرحبا with tatweel, أحمد / إسلام / آمال with alef forms
    expect(searchDocument('كَتَبَ مـــرحبا أحمد إسلام آمال')).toBe('كتب مرحبا احمد اسلام امال');
    expect(queryWords('احمد')).toEqual(searchWords('أَحْمَد'));
  });

  it('cuts words on anything but letters and digits', () => {
    expect(searchDocument('k8s/Kubernetes—“docker-compose”، نعم')).toBe(
      'k8s kubernetes docker compose نعم',
    );
  });

  it('finds where query words start words of the text, in the original text', () => {
    const text = 'We use Kubernetes and kube-proxy; KUBECTL too.';
    expect(matchRanges(text, 'kube').map(({ start, end }) => text.slice(start, end))).toEqual([
      'Kubernetes',
      'kube',
      'KUBECTL',
    ]);
    const arabic = 'مرحباً يا أحمد';
    expect(matchRanges(arabic, 'احمد').map(({ start, end }) => arabic.slice(start, end))).toEqual([
      'أحمد',
    ]);
  });

  it('makes a snippet of at most 200 characters around the first match', () => {
    const text = `${'lorem ipsum '.repeat(40)}the Kubernetes cluster ${'dolor sit '.repeat(40)}`;
    const snippet = searchSnippet(text, 'kubernetes');
    expect(snippet.length).toBeLessThanOrEqual(SNIPPET_MAX_LENGTH);
    expect(snippet).toContain('Kubernetes');
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(searchSnippet('short\ntext', 'text')).toBe('short text');
  });
});

describe('saved replies', () => {
  it('fills the known variables, empty when missing, and leaves anything else', () => {
    expect(
      fillTemplate(
        'Hi {{candidate.first_name}}, about {{ job.title }} at {{company.name}}{{x.y}}',
        {
          'candidate.first_name': 'Sara',
          'company.name': 'Acme',
        },
      ),
    ).toBe('Hi Sara, about  at Acme{{x.y}}');
  });
});
