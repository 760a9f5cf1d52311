/**
 * Builds embed.js, the host page's script (src/embed/job-messenger.ts), into dist/web/embed.js
 * (IIFE, minified, ES2020) and its types into dist/web/embed.d.ts: the declarations tsc derives
 * from the source, the protocol's types (src/shared/embed-protocol.ts) inlined so that one file
 * serves a host. Run by `npm run build:embed` (after `build:web`, which empties dist/web).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { build } from 'esbuild';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '..');
const entry = resolve(root, 'src/embed/job-messenger.ts');

/** Builds into `outDir` (default dist/web); returns the paths written. */
export const buildEmbed = async (outDir = resolve(root, 'dist/web')) => {
  mkdirSync(outDir, { recursive: true });
  const script = resolve(outDir, 'embed.js');
  await build({
    entryPoints: [entry],
    bundle: true,
    format: 'iife',
    minify: true,
    target: 'es2020',
    platform: 'browser',
    legalComments: 'none',
    outfile: script,
    logLevel: 'warning',
  });

  const emitted = new Map();
  const program = ts.createProgram([entry], {
    declaration: true,
    emitDeclarationOnly: true,
    strict: true,
    target: ts.ScriptTarget.ES2020,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2020.d.ts', 'lib.dom.d.ts'],
    skipLibCheck: true,
    types: [],
    rootDir: resolve(root, 'src'),
    outDir: resolve(root, 'dist/.embed-types'),
  });
  const result = program.emit(undefined, (name, text) => emitted.set(name, text));
  const errors = ts.getPreEmitDiagnostics(program).concat(result.diagnostics);
  if (errors.length > 0) throw new Error(ts.formatDiagnostics(errors, ts.createCompilerHost({})));
  const find = (suffix) => [...emitted].find(([name]) => name.endsWith(suffix))?.[1] ?? '';
  const protocol = find('shared/embed-protocol.d.ts');
  const messenger = find('embed/job-messenger.d.ts')
    .replace(/import (type )?\{[^}]*\} from '\.\.\/shared\/embed-protocol\.js';\n/g, '')
    .replace(/export type \{[^}]*\};\n/, '');
  const types = resolve(outDir, 'embed.d.ts');
  writeFileSync(
    types,
    `/** The types of embed.js (window.JobMessenger), derived from src/embed/job-messenger.ts. */\n${protocol}\n${messenger}`,
  );
  return { script, types };
};

if (import.meta.url === `file://${process.argv[1]}`) {
  // an optional directory instead of dist/web (the size test builds into a temporary one)
  const { script, types } = await buildEmbed(
    process.argv[2] ? resolve(process.argv[2]) : undefined,
  );
  console.log(`embed: ${script}, ${types}`);
}
