// ESLint: TypeScript rules plus the design's layer rules (docs/architecture.md "Layers"), so a
// dependency that crosses a layer the wrong way fails `npm run lint` instead of waiting for review.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { layerBlocks } from './eslint/layers.js';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'test-artifacts/**', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Why: a promise nobody awaits or catches is how a job's failure goes unrecorded.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      eqeqeq: ['error', 'always'],
      // Why off: the feed and hash code strip control characters on purpose.
      'no-control-regex': 'off',
      // Why off: values read from feeds, Redis replies and thrown things are unknown; String() of
      // them is the intended last resort, and the rule cannot tell that from an object by mistake.
      '@typescript-eslint/no-base-to-string': 'off',
    },
  },
  {
    // Why: a file past ~300 lines of code owns more than one thing (comments and blank lines do not
    // count: a why-comment must never cost a split), and a line past 140 (a comment or a string
    // Prettier does not wrap) is read sideways. Dashboard markup (html`…` templates, lines of tags)
    // is exempt from the width: tests read it verbatim and HTML breaks only between elements.
    files: ['src/**/*.ts', 'jobs/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 300, skipBlankLines: true, skipComments: true }],
      'max-len': ['error', { code: 140, ignoreUrls: true, ignorePattern: 'html`|^\\s*<|</' }],
    },
  },
  {
    // Tests and benches may poke at internals; the layer rules below are for the product.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/unbound-method': 'off',
      // Fakes implement async interfaces without awaiting; asymmetric matchers (expect.any) are typed any.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        fetch: 'readonly',
        AbortSignal: 'readonly',
        setTimeout: 'readonly',
        Buffer: 'readonly',
      },
    },
  },
  ...layerBlocks(),
);
