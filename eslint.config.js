// ESLint: the recommended rules of ESLint and typescript-eslint (syntax only: type-aware rules would double the
// time of `npm test` for little), with formatting left to Prettier (eslint-config-prettier turns off the rules
// that would fight it). Run by `npm test` through `npm run lint`.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'dist.*/',
      'node_modules/',
      'coverage/',
      'test/fixtures/',
      'templates/',
      'examples/',
      '.bench-tmp/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        TextDecoder: 'readonly',
        TextEncoder: 'readonly',
        structuredClone: 'readonly',
        queueMicrotask: 'readonly',
        performance: 'readonly',
      },
    },
    rules: {
      // Prettier wraps code at 120 columns but leaves a long string, comment or regex whole: comments are wrapped by
      // hand, and literals may run long (a message is easier to grep whole).
      'max-len': [
        'error',
        { code: 120, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true },
      ],
      // An empty catch is how this code says "a missing file is no error" (with a comment); other empty blocks are not.
      'no-empty': ['error', { allowEmptyCatch: true }],
      // Unused names are tsc's job (noUnusedLocals); a leading _ marks a parameter kept for its position.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    files: ['bin/**/*.js', 'scripts/**/*.mjs', 'bench/**/*.mjs', '**/*.cjs'],
    languageOptions: {
      globals: { require: 'readonly', module: 'writable', __dirname: 'readonly', __filename: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
