// Lint with type information over src, test, bench and demo (and the config files).
// Every rule turned off or relaxed below says why, in one line.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier/flat';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  globalIgnores(['dist/', 'coverage/', 'data/', 'demo-output/', 'bench/results/']),
  js.configs.recommended,
  tseslint.configs.strictTypeChecked,
  tseslint.configs.stylisticTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // One TypeScript program per tsconfig, found the way the editor finds it (tsconfig.json covers src, test, bench, demo, vitest.config.ts).
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // The async habits the project relies on, on explicitly (most are in strictTypeChecked already; these lines pin them).
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unnecessary-condition': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      // verbatimModuleSyntax keeps type-only imports out of the output; the code writes them inline (`import { x, type Y }`).
      '@typescript-eslint/consistent-type-imports': ['error', { prefer: 'type-imports', fixStyle: 'inline-type-imports' }],
      // Relaxed: numbers in messages and log lines print as expected (`${maxBytes}-byte limit`); objects, nullish and unions of them are still caught.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      // Relaxed: an arrow whose shorthand body is a void call (`() => wake()`, `(e) => reject(e)`) reads as a call, not as a value.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      // Relaxed: a leading underscore names a value left unused on purpose (a key left out of a rest copy, a parameter the signature needs).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // Off in tests: `results[0]!` on a value the test just produced fails the test loudly if wrong, which is the point of a test.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Off in tests: a fake or scripted handler implements an async port with `async` so that what it throws arrives as a rejection, as from the real thing.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Plain JavaScript (this file): outside tsconfig.json, so no type information.
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  // Last: turns off the stylistic rules that would fight the formatter.
  prettier,
);
