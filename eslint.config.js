import { readdirSync } from 'node:fs';
import { basename, dirname, relative, resolve } from 'node:path';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const webFeatures = readdirSync(new URL('./src/web/features', import.meta.url), {
  withFileTypes: true,
})
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const TEST_FILES = ['**/*.test.ts', '**/*.test.tsx'];

/**
 * Server modules (src/server/modules/<area>) and what each exports on purpose: its services
 * (`<name>.service.ts`), its routes (`<name>.routes.ts`), its events (`<area>.events.ts`; the
 * events all modules share are declared in `modules/module-events.ts`, which is no module's inside)
 * and its factory (`<area>.module.ts`: builds the module's repositories and inner parts and hands
 * them to its services; the composition root calls only these, ADR 026). Everything else in the
 * folder (repositories, presenters, stores, caches, helpers) is internal: production code outside
 * the folder may not import it (ADR 025); tests (`*.test.ts`) and the harness are not walled.
 */
const serverModulesDir = new URL('./src/server/modules', import.meta.url);
const serverModules = readdirSync(serverModulesDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => {
    const dir = `src/server/modules/${entry.name}`;
    const files = readdirSync(new URL(`./${dir}`, import.meta.url)).filter(
      (file) => file.endsWith('.ts') && !/\.test\.ts$/.test(file),
    );
    const js = (file) => `${dir}/${file.replace(/\.ts$/, '.js')}`;
    return {
      name: entry.name,
      dir,
      exported: files
        .filter(
          (file) =>
            /\.(service|routes)\.ts$/.test(file) ||
            file === `${entry.name}.events.ts` ||
            file === `${entry.name}.module.ts`,
        )
        .map(js),
    };
  });
const MODULE_WALL =
  'outside its folder a module is reached only through what it exports on purpose: `<name>.service.ts`, `<name>.routes.ts`, `<area>.events.ts`, `<area>.module.ts` (the rest is internal; ADR 025, 026).';

/**
 * The demo's seeder and its data (`db/seed.ts`, `db/demo-data.ts`): the running server knows of the
 * demo through `db/demo-mode.ts` only; the seeder is loaded by `npm run seed` and, only when a start
 * does seed, by `process/prepare-database.ts`.
 */
const DEMO_SEEDER = ['src/server/db/seed.js', 'src/server/db/demo-data.js'];
const DEMO_SEEDER_USERS = [
  'src/server/db/seed.ts',
  'src/server/db/seed-cli.ts',
  'src/server/process/prepare-database.ts',
];

/** File names are kebab-case (dots separate kinds: `x.routes.ts`, `x.api.test.ts`). */
const kebabCaseFiles = {
  meta: { type: 'suggestion', schema: [] },
  create(context) {
    const name = basename(context.filename).split('.')[0] ?? '';
    if (/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(name)) return {};
    return {
      Program(node) {
        context.report({
          node,
          message: `File name "${basename(context.filename)}" is not kebab-case.`,
        });
      },
    };
  },
};

const root = import.meta.dirname;

/**
 * Import boundaries (no plugin: the resolvers of the import plugins need native packages this
 * registry does not serve). A relative import is resolved to a repository path and checked against
 * zones: a file under `target` (and not under `targetExcept`) may not import from `from` (unless
 * under `except`).
 */
const importBoundaries = {
  meta: { type: 'problem', schema: [{ type: 'array' }] },
  create(context) {
    const zones = context.options[0] ?? [];
    const file = relative(root, context.filename);
    const under = (path, prefix) => path === prefix || path.startsWith(`${prefix}/`);
    const applicable = zones.filter(
      (zone) =>
        zone.target.some((prefix) => under(file, prefix)) &&
        !(zone.targetExcept ?? []).some((prefix) => under(file, prefix)),
    );
    if (applicable.length === 0) return {};
    const check = (node, specifier) => {
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const imported = relative(root, resolve(dirname(context.filename), specifier));
      for (const zone of applicable) {
        if (!zone.from.some((prefix) => under(imported, prefix))) continue;
        if ((zone.except ?? []).some((prefix) => under(imported, prefix))) continue;
        context.report({ node, message: `"${specifier}": ${zone.message}` });
      }
    };
    return {
      ImportDeclaration: (node) => check(node.source, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node.source, node.source.value),
      ImportExpression: (node) =>
        node.source.type === 'Literal' && check(node.source, node.source.value),
    };
  },
};

export default tseslint.config(
  {
    ignores: [
      'dist',
      'node_modules',
      'data',
      'bench/results',
      'test-results',
      'src/web/public',
      '*.config.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node, ...globals.browser },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { attributes: false } },
      ],
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/only-throw-error': 'off',
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='process'][property.name='env']",
          message:
            'Read configuration through src/server/config.ts (the only reader of process.env).',
        },
      ],
    },
  },
  { files: ['**/*.mjs', '**/*.js'], ...tseslint.configs.disableTypeChecked },
  {
    // The harness reads its own settings (test-support/settings.ts); the product only through config.ts.
    files: [
      'src/server/config.ts',
      'test-support/**',
      'scripts/**',
      'examples/**',
      'bench/**',
      'e2e/**',
      '**/*.test.ts',
      '**/*.test.tsx',
      '*.config.ts',
    ],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['**/*.test.ts', '**/*.test.tsx', 'test-support/**', 'e2e/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
    },
  },
  {
    // The shape of the code, kept by the linter (see docs/architecture.md "Boundaries"); import
    // cycles are found by scripts/check-import-cycles.mjs (part of `npm run lint`).
    files: [
      'src/**/*.{ts,tsx}',
      'test-support/**/*.{ts,tsx}',
      'e2e/**/*.ts',
      'faults/**/*.ts',
      'bench/**/*.ts',
      'scripts/**/*.{ts,mjs}',
    ],
    plugins: {
      local: {
        rules: { 'kebab-case-files': kebabCaseFiles, 'import-boundaries': importBoundaries },
      },
    },
    rules: { 'local/kebab-case-files': 'error' },
  },
  {
    // Production code stays readable in one sitting: a file that grows past 400 lines or a function
    // (factories and components included) past 200 mixes concerns and is split (issue 41).
    files: ['src/**/*.{ts,tsx}'],
    ignores: TEST_FILES,
    rules: {
      'max-lines': ['error', { max: 400 }],
      'max-lines-per-function': ['error', { max: 200 }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: TEST_FILES,
    rules: {
      'local/import-boundaries': [
        'error',
        [
          {
            target: ['src'],
            from: ['test-support', 'e2e', 'faults', 'bench'],
            message: 'production code never imports a test harness.',
          },
          {
            target: ['src/server', 'src/shared'],
            from: ['src/web'],
            message: 'the server and the contract do not depend on the client.',
          },
          {
            target: ['src/web', 'src/shared'],
            from: ['src/server'],
            message: 'the client and the contract do not depend on the server.',
          },
          {
            target: ['src/web/lib', 'src/web/components'],
            from: ['src/web/features', 'src/web/app'],
            message: 'lib/ and components/ are shared: they never import features/ or app/.',
          },
          ...serverModules.map((module) => ({
            target: ['src'],
            targetExcept: [module.dir],
            from: [module.dir],
            except: module.exported,
            message: MODULE_WALL,
          })),
          {
            target: ['src'],
            targetExcept: DEMO_SEEDER_USERS,
            from: DEMO_SEEDER,
            message:
              'production code knows the demo through db/demo-mode.ts; the seeder is loaded only to seed (npm run seed, process/prepare-database.ts).',
          },
          ...webFeatures.map((feature) => ({
            target: [`src/web/features/${feature}`],
            from: ['src/web/features'],
            except: [`src/web/features/${feature}`],
            message: 'features never import each other: app/ wires them together.',
          })),
        ],
      ],
    },
  },
  {
    // the page, and its harness (test-support/web renders it)
    files: ['src/web/**/*.{ts,tsx}', 'test-support/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
);
