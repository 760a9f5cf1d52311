import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Where a markdown text links (inline and reference links, HTML `href`/`src`), outside code. */
const linkTargets = (markdown: string): string[] => {
  const prose = markdown
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '')
    .replace(/`[^`\n]*`/g, '');
  return [
    ...[...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] ?? ''),
    ...[...prose.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1] ?? ''),
    ...[...prose.matchAll(/\b(?:href|src)\s*=\s*["']([^"']+)["']/g)].map((m) => m[1] ?? ''),
  ];
};

/**
 * What in a markdown file points outside the repository: a mention of `../shared` (the developers'
 * spec, which a clone does not have), a `file:` link, or a relative link that leaves the root.
 */
const linksOutside = (root: string, file: string, markdown: string): string[] => {
  const problems: string[] = [];
  if (/\.\.\/shared\b|shared\/spec\//.test(markdown))
    problems.push(`${file}: mentions ../shared (not in a clone of the repository)`);
  for (const target of linkTargets(markdown)) {
    if (/^file:/i.test(target)) {
      problems.push(`${file}: links to ${target}`);
      continue;
    }
    // a scheme (https:, mailto:) or an anchor: not a file; a leading / is a path on the server
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#') || target.startsWith('/'))
      continue;
    const path = decodeURIComponent(target.replace(/[?#].*$/, ''));
    const resolved = resolve(root, dirname(file), path);
    const inside = relative(root, resolved);
    if (inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside))
      problems.push(`${file}: links to ${target}, outside the repository`);
  }
  return problems;
};

const trackedMarkdown = (): string[] =>
  execFileSync('git', ['ls-files', '-z', '--', '*.md'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter((file) => file.length > 0);

describe('links in the repository’s markdown', () => {
  it('stay inside the repository in every tracked markdown file', () => {
    const files = trackedMarkdown();
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/integration.md']));
    const problems = files.flatMap((file) =>
      linksOutside(ROOT, file, readFileSync(join(ROOT, file), 'utf8')),
    );
    expect(problems).toEqual([]);
  });

  it('names a relative link that leaves the root, a file: link and a mention of ../shared', () => {
    const markdown = [
      'See [the spec](../../shared/spec/contract.md) and [deploy](../../elsewhere/x.md).',
      'Fine: [integration](docs/integration.md), [up](../README.md#top), [site](https://example.com),',
      '[api](/api/docs), [anchor](#keys), <a href="../../../etc/passwd">x</a>, [f](file:///etc/hosts).',
      '[ref]: ../../outside.md',
      '```sh',
      'cat ../../not-a-link.md  # in code: not a link',
      '```',
    ].join('\n');
    expect(linksOutside('/repo', 'docs/guide.md', markdown)).toEqual([
      'docs/guide.md: mentions ../shared (not in a clone of the repository)',
      'docs/guide.md: links to ../../shared/spec/contract.md, outside the repository',
      'docs/guide.md: links to ../../elsewhere/x.md, outside the repository',
      'docs/guide.md: links to file:///etc/hosts',
      'docs/guide.md: links to ../../outside.md, outside the repository',
      'docs/guide.md: links to ../../../etc/passwd, outside the repository',
    ]);
  });
});
