import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * No source file over 500 lines (issue 39 §4): a file that grows past it is split along the seams it has.
 *
 * Counted: the TypeScript and JavaScript source (.ts, .tsx, .js, .jsx, .mjs, .cjs) under server/, web/ and
 * common/. Not counted, and why:
 * - tests: `*.test.*` files, and whatever is under a `tests/` or `test/` folder (their fixtures included);
 * - type declarations (`*.d.ts`): written to describe a package, not code of ours to split;
 * - database migrations (`migrations/` folders): each is one change to the schema, kept whole;
 * - generated data: `generated/` folders and `*.generated.*` files, made by a tool, never edited by hand;
 * - node_modules, dist and build output.
 */
const LIMIT = 500;
const ROOT = path.resolve(import.meta.dirname, '..');
const AREAS = ['server', 'web', 'common'];
const SOURCE = /\.(ts|tsx|js|jsx|mjs|cjs)$/;
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'build', 'tests', 'test', 'migrations', 'generated']);
const SKIPPED_FILES = /\.test\.|\.d\.ts$|\.generated\./;

function sourceFiles(folder: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name)) found.push(...sourceFiles(full));
    } else if (entry.isFile() && SOURCE.test(entry.name) && !SKIPPED_FILES.test(entry.name)) {
      found.push(full);
    }
  }
  return found;
}

/** Lines as `wc -l` counts them: newline characters (a last line without one still counts). */
function lineCount(text: string): number {
  if (text === '') return 0;
  const newlines = text.split('\n').length - 1;
  return text.endsWith('\n') ? newlines : newlines + 1;
}

/** The counted files over the limit, largest first, as `path: lines`. */
export function oversized(root = ROOT, limit = LIMIT): string[] {
  const over: Array<{ file: string; lines: number }> = [];
  for (const area of AREAS) {
    const folder = path.join(root, area);
    if (!fs.existsSync(folder)) continue;
    for (const file of sourceFiles(folder)) {
      const lines = lineCount(fs.readFileSync(file, 'utf8'));
      if (lines > limit) over.push({ file: path.relative(root, file), lines });
    }
  }
  return over.sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file)).map(({ file, lines }) => `${file}: ${lines} lines`);
}

describe(`source files stay under ${LIMIT} lines`, () => {
  it('has no counted source file under server/, web/ or common/ over the limit', () => {
    expect(oversized(), `split these along their seams (scripts/file-size.test.ts says what is counted)`).toEqual([]);
  });

  it('counts a long source file and names it, and leaves tests, migrations, declarations and generated data out', () => {
    const root = fs.mkdtempSync(path.join(fs.realpathSync(process.env.TMPDIR ?? '/tmp'), 'file-size-'));
    try {
      const write = (file: string, lines: number) => {
        fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
        fs.writeFileSync(path.join(root, file), 'x;\n'.repeat(lines));
      };
      write('server/features/big.ts', 501);
      write('web/app/page.tsx', 600);
      write('common/fine.ts', 500);
      write('server/features/big.test.ts', 900);
      write('server/features/tests/helpers.ts', 900);
      write('server/db/migrations/0001.ts', 900);
      write('web/types/lib.d.ts', 900);
      write('common/generated/data.ts', 900);
      write('common/table.generated.ts', 900);
      expect(oversized(root, LIMIT)).toEqual(['web/app/page.tsx: 600 lines', 'server/features/big.ts: 501 lines']);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
