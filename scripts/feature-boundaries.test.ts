import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeViolation, featureOf, fileViolations, serverViolations, type Violation } from './feature-boundaries';

const root = path.resolve(import.meta.dirname, '..');
const BASELINE = path.join(import.meta.dirname, 'feature-boundaries.baseline.txt');

/** `from -> to`, one line per import still to fix (the list may only shrink; it goes when it is empty). */
const key = (violation: Violation) => `${violation.from} -> ${violation.to}`;
const baseline = fs.existsSync(BASELINE) ? fs.readFileSync(BASELINE, 'utf8').split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#')) : [];

describe('feature boundaries (docs/ARCHITECTURE.md "Layers")', () => {
  it('no feature imports another feature\'s internal files, and platform and postgrest import no feature', () => {
    const found = serverViolations(root);
    expect(found.filter((violation) => !baseline.includes(key(violation))).map(describeViolation)).toEqual([]);
    // An import fixed leaves the baseline in the same commit.
    const still = new Set(found.map(key));
    expect(baseline.filter((line) => !still.has(line))).toEqual([]);
  });

  const files = new Set([
    'server/features/a/index.ts',
    'server/features/a/inner.ts',
    'server/features/a/testing/helper.ts',
    'server/features/a/deep/testing/index.ts',
    'server/features/b/index.ts',
    'server/features/b/deep/thing.ts',
    'server/features/solo.ts',
    'server/platform/util.ts',
  ]);
  const exists = (file: string) => files.has(file);
  const targets = (file: string, source: string) => fileViolations(file, source, exists).map((violation) => `${violation.rule} ${violation.to}`);

  it('names an import of another feature\'s internal file, static, re-exported, type-only or dynamic', () => {
    const source = [
      "import { x } from '../../a/inner';",
      "export { y } from '../../a/inner.ts';",
      "import type { Z } from '../../a/inner';",
      "const lazy = () => import('../../a/inner');",
    ].join('\n');
    expect(targets('server/features/b/deep/thing.ts', source)).toEqual(Array(4).fill('feature-internal server/features/a/inner.ts'));
  });

  it('allows front doors, one-file features, the own feature, packages and the platform', () => {
    const source = [
      "import { a } from '../a';",
      "import { a2 } from '../a/index';",
      "import { solo } from '../solo';",
      "import { own } from './deep/thing';",
      "import fs from 'node:fs';",
      "import { util } from '../../platform/util';",
    ].join('\n');
    expect(targets('server/features/b/index.ts', source)).toEqual([]);
  });

  it('lets tests use another feature\'s testing/ helpers, not its insides', () => {
    const source = "import { h } from '../../a/testing/helper';\nimport { d } from '../../a/deep/testing';\nimport { i } from '../../a/inner';";
    expect(targets('server/features/b/tests/b.int.test.ts', source)).toEqual(['feature-internal server/features/a/inner.ts']);
    expect(targets('server/features/b/deep/thing.ts', source)).toEqual(['feature-internal server/features/a/testing/helper.ts', 'feature-internal server/features/a/deep/testing/index.ts', 'feature-internal server/features/a/inner.ts']);
  });

  it('names any import of a feature from the platform or postgrest, front doors included', () => {
    expect(targets('server/platform/util.ts', "import { a } from '../features/a';")).toEqual(['platform-to-feature server/features/a/index.ts']);
    expect(targets('server/postgrest/x.ts', "import { s } from '../features/solo';")).toEqual(['platform-to-feature server/features/solo.ts']);
  });

  it('knows a file\'s feature', () => {
    expect(featureOf('server/features/views/engine/access.ts')).toBe('views');
    expect(featureOf('server/features/docs.ts')).toBe('docs');
    expect(featureOf('server/features/index.ts')).toBeUndefined();
    expect(featureOf('server/platform/context.ts')).toBeUndefined();
  });
});
