// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const uiLibraries = ['commander', 'chalk', 'ora', 'inquirer', '@inquirer/*'];

/** What no core file may import: the terminal libraries and the CLI layer. */
const corePatterns = [
  {
    group: uiLibraries,
    message: 'Only src/cli may use terminal libraries; the core emits events.',
  },
  {
    group: ['**/cli/*', '**/cli/**'],
    message: 'The core must not import the CLI layer.',
  },
];

/** A function longer than this is hard to test in parts: split it (tests are exempt). */
const MAX_FUNCTION_LINES = 120;

/** The length rule for src/, with no exception: every function there fits in 120 lines. */
function functionLength() {
  const rule = ['error', { max: MAX_FUNCTION_LINES, skipBlankLines: true, skipComments: true }];
  return [{ files: ['src/**/*.ts'], rules: { 'max-lines-per-function': rule } }];
}

/** One lint block per core folder: importing a listed folder is an error. */
function boundaries(rules) {
  return Object.entries(rules).map(([folder, forbidden]) => ({
    files: [`src/${folder}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...corePatterns,
            ...forbidden.map((name) => ({
              group: [
                `../${name}/*`,
                `../../${name}/*`,
                `../../../${name}/*`,
                `../${name}.js`,
                `../../${name}.js`,
              ],
              message: `src/${folder} must not import src/${name} (docs/ARCHITECTURE.md, may import).`,
            })),
          ],
        },
      ],
    },
  }));
}

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'dist-bin/**',
      '.tmp/**',
      '.scratch/**',
      'node_modules/**',
      'coverage/**',
      'artifacts/**',
      'bin/**',
      'schemas/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      'no-console': 'error',
    },
  },
  {
    // The core never prints and never touches the terminal libraries: the CLI renders.
    files: ['src/**/*.ts'],
    ignores: ['src/cli/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: corePatterns }],
    },
  },
  // Folder boundaries (docs/ARCHITECTURE.md "may import"): each core folder names what it must
  // not import. Later blocks win for the same rule, so each repeats the terminal-library ban.
  ...boundaries({
    contract: [
      'platform',
      'roles',
      'conversation',
      'load',
      'msw',
      'web',
      'journal',
      'http',
      'faults',
      'hook-events',
    ],
    faults: ['platform', 'roles', 'conversation', 'load', 'msw', 'web', 'contract', 'journal'],
    'hook-events': ['platform', 'roles', 'conversation', 'load', 'msw', 'web', 'journal', 'http'],
    http: ['platform', 'roles', 'conversation', 'load', 'msw', 'web', 'contract', 'journal'],
    journal: ['platform', 'roles', 'conversation', 'load', 'msw', 'web', 'contract'],
    platform: ['roles', 'conversation', 'load', 'msw', 'web'],
    roles: ['platform', 'conversation', 'load', 'msw', 'web'],
    conversation: ['load', 'msw', 'web'],
    load: ['msw', 'web'],
    msw: ['roles', 'conversation', 'load', 'web'],
    web: ['roles', 'conversation', 'load', 'msw'],
    // the proxy stands between real parties: the contract (timing rules included) is all it
    // needs to judge them, never the simulator
    proxy: ['platform', 'roles', 'conversation', 'load', 'msw', 'web'],
    trace: ['platform', 'roles', 'conversation', 'load', 'msw', 'web', 'contract', 'proxy'],
    reference: ['roles', 'conversation', 'load', 'msw', 'web', 'journal', 'proxy'],
    coverage: ['roles', 'load', 'msw', 'web', 'proxy'],
    mutate: ['roles', 'conversation', 'load', 'msw', 'web', 'proxy', 'journal'],
  }),
  ...functionLength(),
  {
    // The per-request objects of the serving path: an object literal with a getter or setter
    // gets a hidden class of its own per instance, held in the old generation, and that kept
    // each request's graph alive through young-generation GCs (measured under load).
    files: ['src/http/**/*.ts', 'src/faults/**/*.ts', 'src/roles/inbound.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ObjectExpression > Property[kind=/^(get|set)$/]',
          message:
            'No accessors in object literals on the request path: use a method or a data property (src/http/wire.ts).',
        },
      ],
    },
  },
  {
    // The page-script double ships in a browser bundle: keep it small and self-contained.
    files: ['src/widget/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: uiLibraries,
              message: 'Only src/cli may use terminal libraries; the core emits events.',
            },
            {
              regex: '^(zod(/.*)?|node:.*|\\.\\./(?!(contract/widget-protocol|suggest)\\.js$).*)$',
              message:
                'src/widget is bundled for the browser: no zod, no Node built-ins, nothing outside src/widget but the plain protocol file src/contract/widget-protocol.ts and src/suggest.ts (no imports).',
            },
          ],
        },
      ],
    },
  },
  {
    // The web console and the demo page are bundled for the browser (scripts/build-web.js).
    files: ['src/web/console/**/*.ts', 'src/web/demo/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['zod', 'zod/*', 'node:*', '../../platform/*', '../../cli/*'],
              message: 'Browser pages: no zod, no Node built-ins, no simulator code.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*', 'eslint.config.js', 'vitest.config.ts'],
    rules: {
      'no-console': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // CommonJS test helpers (a `node -r` preload)
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', process: 'readonly', module: 'writable' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Plain Node scripts (build helpers, benchmarks, example projects) print and use Node's globals.
    files: ['scripts/**/*.{js,mjs}', 'bench/**/*.{js,mjs}', 'test/examples/**/*.{js,mjs}'],
    languageOptions: {
      globals: {
        console: 'readonly',
        process: 'readonly',
        URL: 'readonly',
        Buffer: 'readonly',
        performance: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setImmediate: 'readonly',
        fetch: 'readonly',
      },
    },
    rules: { 'no-console': 'off' },
  },
);
