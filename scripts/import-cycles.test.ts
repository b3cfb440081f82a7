import { describe, expect, it } from 'vitest';
import { describeCycles, findCycles, importGraph, importSpecifiers, repositoryCycles, resolveImport, sourceFiles } from './import-cycles';

/** No import circle in web/, server/ or common/ (issue 39 §2; docs/ARCHITECTURE.md "No import circles"). */
describe('import circles', () => {
  it('reads static, type-only, re-export and literal dynamic imports, not import.meta.glob', () => {
    const text = [
      "import { a } from './a';",
      "import type { B } from '@web/b';",
      "import './side-effect';",
      "export { c } from '../c';",
      "export * from '@common/d';",
      "import e = require('./e');",
      "const page = () => import('./page');",
      "type T = import('./t').T;",
      "const glob = import.meta.glob('./features/*/routes.ts', { eager: true });",
      "const name = './computed'; void import(name);",
      "import { z } from 'zod';",
    ].join('\n');
    expect(importSpecifiers(text)).toEqual(['./a', '@web/b', './side-effect', '../c', '@common/d', './e', './page', './t', 'zod']);
    expect(importSpecifiers("const Tab = lazy(() => import('./tab')); export const el = <Tab />;")).toEqual(['./tab']);
  });

  it('resolves relative paths and the @common/* and @web/* aliases to .ts/.tsx files and folder indexes', () => {
    const files = new Set(['web/app/a.ts', 'web/app/b.tsx', 'web/lib/index.ts', 'common/rbac.ts', 'server/x/y.ts']);
    expect(resolveImport('web/app/c.ts', './a', files)).toBe('web/app/a.ts');
    expect(resolveImport('web/app/c.ts', './b', files)).toBe('web/app/b.tsx');
    expect(resolveImport('web/app/c.ts', '../lib', files)).toBe('web/lib/index.ts');
    expect(resolveImport('web/app/c.ts', '@web/app/a', files)).toBe('web/app/a.ts');
    expect(resolveImport('web/app/c.ts', '@common/rbac', files)).toBe('common/rbac.ts');
    expect(resolveImport('server/x/z.ts', './y.js', files)).toBe('server/x/y.ts');
    expect(resolveImport('server/x/z.ts', '../../common/rbac', files)).toBe('common/rbac.ts');
    expect(resolveImport('web/app/c.ts', 'react', files)).toBeUndefined();
    expect(resolveImport('web/app/c.ts', './styles.css', files)).toBeUndefined();
  });

  it('finds a circle through type-only and lazy imports, and each circle once', () => {
    const texts = new Map([
      ['web/registry.ts', "import { teams } from './teams/resource';\nexport interface Resource { table: string }"],
      ['web/teams/resource.ts', "import type { Resource } from '../registry';\nexport const teams = { tab: () => import('./tab') };"],
      ['web/teams/tab.tsx', "import type { Resource } from '@web/registry';"],
      ['web/leaf.ts', "import { teams } from './teams/resource';"],
      ['server/a.ts', "import { b } from './b';"],
      ['server/b.ts', "import { a } from './a';"],
      ['server/self.ts', "export { x } from './self';"],
    ]);
    const cycles = findCycles(importGraph(texts));
    expect(cycles).toEqual([
      { files: ['server/a.ts', 'server/b.ts'], path: ['server/a.ts', 'server/b.ts', 'server/a.ts'] },
      { files: ['server/self.ts'], path: ['server/self.ts', 'server/self.ts'] },
      { files: ['web/registry.ts', 'web/teams/resource.ts', 'web/teams/tab.tsx'], path: ['web/registry.ts', 'web/teams/resource.ts', 'web/registry.ts'] },
    ]);
    expect(describeCycles(cycles)).toContain('3) 3 files: web/registry.ts > web/teams/resource.ts > web/registry.ts');
  });

  it('finds none when the shared types are a leaf and the registry is assembled above the features', () => {
    const texts = new Map([
      ['web/settings/types.ts', 'export interface Resource { table: string }'],
      ['web/teams/resource.ts', "import type { Resource } from '../settings/types';\nexport const teams = { tab: () => import('./tab') };"],
      ['web/teams/tab.tsx', "import type { Resource } from '@web/settings/types';"],
      ['web/app/registry.ts', "import { teams } from '../teams/resource';"],
    ]);
    expect(findCycles(importGraph(texts))).toEqual([]);
  });

  it('finds no import circle in web/, server/ or common/', () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(1000);
    const cycles = repositoryCycles(files);
    expect(cycles, `import circles (npx tsx scripts/import-cycles.ts):\n${describeCycles(cycles)}`).toEqual([]);
  });
});
