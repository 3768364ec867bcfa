// Typed lint rules need TypeScript's JS API, which the native TypeScript 7 compiler
// does not ship: the project pins typescript 5.9 with typescript-eslint 8 for that reason.
import path from 'node:path';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const MODULES = path.join(import.meta.dirname, 'src', 'modules');

/**
 * A module reaches another only through that module's index.ts (../shared/STYLE.md): what
 * a module offers the others is one file to read, and its other files may change freely.
 */
const moduleBoundaries = {
  meta: {
    type: 'problem',
    messages: { deep: "Import another module through its index: '{{wanted}}', not '{{spec}}'." },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const own = moduleOf(file);
    if (own === undefined) return {};
    const check = (source) => {
      const spec = source?.value;
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const target = path.resolve(path.dirname(file), spec);
      const other = moduleOf(target);
      if (other === undefined || other === own) return;
      if (path.relative(path.join(MODULES, other), target) === 'index.js') return;
      const wanted = path.relative(path.dirname(file), path.join(MODULES, other, 'index.js'));
      context.report({ node: source, messageId: 'deep', data: { spec, wanted } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

function moduleOf(file) {
  const relative = path.relative(MODULES, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  const [name, rest] = relative.split(path.sep);
  return rest === undefined ? undefined : name;
}

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'data/',
      'coverage/',
      'web/dist/',
      'web/src/api/schema.d.ts',
      'test-results/',
      'playwright-report/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  // The layers of ../shared/STYLE.md, held by lint rather than by review.
  {
    files: ['src/**/*.ts'],
    plugins: { patron: { rules: { 'module-boundaries': moduleBoundaries } } },
    rules: {
      'patron/module-boundaries': 'error',
      // A file past this is overdue for a split (../shared/STYLE.md, "Files stay small").
      'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }],
    },
  },
  {
    // A scope parses, calls a service and maps: it never reaches the database itself.
    files: ['src/public-api/**/*.ts', 'src/admin-api/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/*.repo.js', '**/*.repo'], message: "A route calls a service; repositories are the services' own." },
            { group: ['**/db/**', 'kysely', 'pg', 'better-sqlite3'], message: 'A route never reaches the database: call a service.' },
          ],
        },
      ],
    },
  },
  {
    // domain/ is pure: no I/O, no clock, no randomness (they come in as arguments).
    files: ['src/**/domain/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            'node:fs',
            'node:fs/promises',
            'node:net',
            'node:dns',
            'node:http',
            'node:https',
            'node:http2',
            'node:child_process',
            'node:worker_threads',
            'fastify',
            'kysely',
            'pg',
            'better-sqlite3',
            'nodemailer',
          ].map((name) => ({ name, message: 'domain/ is pure: I/O belongs to a service or a repository.' })),
          patterns: [
            {
              group: ['**/*.repo.js', '**/*.service.js', '**/db/create-db.js', '**/db/handle.js', '**/clock.js', '**/random.js'],
              allowTypeImports: true,
              message: 'domain/ is pure: it takes data, the time and random values as arguments.',
            },
          ],
        },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'domain/ takes the time as an argument (the injected clock).' },
        { object: 'Math', property: 'random', message: 'domain/ takes random values as arguments.' },
        { object: 'performance', property: 'now', message: 'domain/ takes the time as an argument.' },
        { object: 'crypto', property: 'randomBytes', message: 'domain/ takes random values as arguments.' },
        { object: 'crypto', property: 'randomUUID', message: 'domain/ takes random values as arguments.' },
      ],
    },
  },
  {
    // The admin UI (docs/admin-ui.md): the rules of hooks, and the same file size bound as src.
    files: ['web/src/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['test/**/*.ts', 'src/**/*.test.ts', 'bench/**/*.ts', 'web/src/**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
