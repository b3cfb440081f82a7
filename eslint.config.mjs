// ESLint (flat config): type-aware typescript-eslint over the whole tree, tests included. `npm run lint`
// runs it (with a cache in .tmp/eslintcache). Only the rules below are on, each at "error" (README, Lint).
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

export default defineConfig(
  {
    ignores: ['node_modules/', 'dist/', 'data/', '.tmp/', 'test-results/', '.vite/', 'examples/'],
  },
  {
    files: ['**/*.{ts,tsx,mts,cts,mjs,js}'],
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    languageOptions: {
      parser: tseslint.parser,
      ecmaVersion: 2023,
      sourceType: 'module',
    },
    plugins: { 'import-x': importX },
    settings: {
      // Resolves the tsconfig path aliases (@common/*, @web/*) so that cycles through them are seen.
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.json' })],
    },
    rules: {
      eqeqeq: ['error', 'always'],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: ['**/*.{ts,tsx,mts,cts}'],
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { prefer: 'type-imports', fixStyle: 'inline-type-imports' }],
    },
  },
);
