import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { gzipSync } from 'node:zlib';
import { WEB_ROOT } from '../lib/browser.js';
import { atMost, info, skipped, type Checks, type ResultRow, type Scenario } from '../lib/types.js';

const KB = 1000;

/** Every script the page loads up front: `<script src>` and `<link rel="modulepreload">`, local ones. */
export const initialScripts = (html: string): string[] => {
  const found = new Set<string>();
  for (const match of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"[^>]*>/g)) found.add(match[1]!);
  for (const match of html.matchAll(/<link\b[^>]*>/g)) {
    const tag = match[0];
    if (/\brel="modulepreload"/.test(tag)) {
      const href = /\bhref="([^"]+)"/.exec(tag)?.[1];
      if (href) found.add(href);
    }
  }
  return [...found].filter((src) => src.startsWith('/') && !src.startsWith('//'));
};

/** Static imports of a built chunk (`import … from "./x.js"`, `import "./x.js"`), not dynamic `import()`. */
const staticImports = (code: string, from: string): string[] => {
  const out: string[] = [];
  for (const match of code.matchAll(
    /(?:^|[;\s}])import\s*(?:[\w$*{},\s]+?\s*from\s*)?["']([^"']+\.js)["']/g,
  )) {
    const spec = match[1]!;
    if (spec.startsWith('.')) out.push(posix.normalize(posix.join(posix.dirname(from), spec)));
    else if (spec.startsWith('/')) out.push(spec);
  }
  return out;
};

export interface PageWeight {
  files: { path: string; bytes: number; gzipBytes: number }[];
  bytes: number;
  gzipBytes: number;
}

/** The listed scripts plus everything they import statically, each gzipped (zlib default level) and summed. */
export const measurePage = (htmlFile: string): PageWeight => {
  const html = readFileSync(join(WEB_ROOT, htmlFile), 'utf8');
  const queue = initialScripts(html);
  const seen = new Set<string>();
  const files: PageWeight['files'] = [];
  while (queue.length > 0) {
    const path = queue.shift()!;
    if (seen.has(path)) continue;
    seen.add(path);
    const file = join(WEB_ROOT, path);
    if (!existsSync(file))
      throw new Error(`${htmlFile} references ${path}, which is not in dist/web`);
    const content = readFileSync(file);
    files.push({ path, bytes: content.length, gzipBytes: gzipSync(content).length });
    queue.push(...staticImports(content.toString('utf8'), path));
  }
  return {
    files,
    bytes: files.reduce((sum, file) => sum + file.bytes, 0),
    gzipBytes: files.reduce((sum, file) => sum + file.gzipBytes, 0),
  };
};

/** Initial JavaScript of the built client, gzipped. */
export const pageWeight: Scenario = {
  name: 'page-weight',
  title: 'Initial JavaScript of the built client (gzipped)',
  run: async () => {
    if (!existsSync(join(WEB_ROOT, 'index.html'))) {
      return {
        rows: [
          skipped(
            '/messages initial JavaScript (gzip)',
            'dist/web/index.html missing: run `npm run build`',
            '≤ 120 kB',
          ),
        ],
        checks: { built: false },
        notes: [],
      };
    }
    const messages = measurePage('index.html');
    const rows: ResultRow[] = [
      atMost(
        '/messages initial JavaScript (gzip)',
        Math.round(messages.gzipBytes / 100) / 10,
        120,
        'kB',
        `${messages.files.length} files, ${Math.round(messages.bytes / KB)} kB minified`,
      ),
    ];
    const checks: Checks = {
      built: true,
      messagesFiles: messages.files.length,
      messagesGzipBytes: messages.gzipBytes,
    };
    if (existsSync(join(WEB_ROOT, 'login.html'))) {
      const login = measurePage('login.html');
      rows.push(
        info(
          '/login initial JavaScript (gzip)',
          Math.round(login.gzipBytes / 100) / 10,
          'kB',
          `${login.files.length} files`,
        ),
      );
      checks.loginGzipBytes = login.gzipBytes;
    }
    const notes = [
      `/messages loads: ${messages.files.map((file) => `${file.path} ${(file.gzipBytes / KB).toFixed(1)} kB`).join(', ')} (kB = 1,000 bytes; zlib default level).`,
    ];
    return { rows, checks, notes };
  },
};
