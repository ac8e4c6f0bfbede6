// Lint with type information over src, test, bench, demo and playground (and the config files).
// Every rule turned off or relaxed below says why, in one line.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier/flat';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  globalIgnores(['dist/', 'dist-bench/', 'coverage/', 'data/', 'demo-output/', 'bench/results/']),
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
    // Member-facing text lives in the catalogues (src/i18n/locales), never in the code that writes to members: a
    // reply, label, title or placeholder written as a literal with words in it would reach every member in English.
    // The rooms that write to members: the commands and the views (src/discord), the error copy (errors.ts), the
    // service's refusals (phrase ids) and the catalogues' code. The gateway, storage and ops write only operators' text.
    files: ['src/commands/**/*.ts', 'src/discord/**/*.ts', 'src/errors.ts', 'src/service/**/*.ts', 'src/i18n/**/*.ts'],
    // Not members' text: the deploy script's output and login's diagnoses (operators'), the periods' labels (store
    // keys: `day:2026-11-27`) and where a model's profile came from (operators' logs).
    ignores: ['src/commands/deploy.ts', 'src/discord/login.ts', 'src/service/periods.ts', 'src/service/model-profiles.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['content', 'label', 'title', 'placeholder'].flatMap((key) => [
          {
            selector: `Property[key.name='${key}'] > Literal[value=/[A-Za-z]{3,}/]`,
            message: `Member-facing text (${key}) comes from the catalogues: use t(locale, key) (src/i18n).`,
          },
          {
            selector: `Property[key.name='${key}'] > TemplateLiteral > TemplateElement[value.raw=/[A-Za-z]{3,}/]`,
            message: `Member-facing text (${key}) comes from the catalogues: use t(locale, key) (src/i18n).`,
          },
        ]),
        {
          selector: 'CallExpression[callee.property.name=/^(reply|editReply|followUp|update)$/] > :matches(Literal[value=/[A-Za-z]{3,}/], TemplateLiteral)',
          message: 'Member-facing text comes from the catalogues: use t(locale, key) (src/i18n).',
        },
        // Words in a line of a reply being built, or returned as one (two words or more: a sentence, not a code).
        ...['ArrayExpression', 'ReturnStatement', 'ConditionalExpression'].flatMap((parent) => [
          {
            selector: `${parent} > Literal[value=/[A-Za-z]{2,} [A-Za-z]{2,}/]`,
            message: 'Member-facing text comes from the catalogues: use t(locale, key) (src/i18n).',
          },
          {
            selector: `${parent} > TemplateLiteral > TemplateElement[value.raw=/[A-Za-z]{2,} [A-Za-z]{2,}/]`,
            message: 'Member-facing text comes from the catalogues: use t(locale, key) (src/i18n).',
          },
        ]),
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
  {
    // The playground page's script runs in the browser: its globals, declared here (no DOM types in the TypeScript program).
    files: ['playground/public/**/*.js'],
    languageOptions: {
      sourceType: 'module',
      globals: Object.fromEntries(['document', 'window', 'fetch', 'EventSource', 'setTimeout', 'btoa', 'BigInt'].map((name) => [name, 'readonly'])),
    },
  },
  // Last: turns off the stylistic rules that would fight the formatter.
  prettier,
);
