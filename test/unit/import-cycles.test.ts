/**
 * The import-circle check `npm run lint` runs (scripts/check-import-cycles.ts): it names a circle
 * in a tiny tree, type-only imports included, leaves a dynamic import() alone, and finds none in
 * the product.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findImportCycles } from '../../scripts/check-import-cycles.js';

let dir: string | undefined;

function tree(files: Record<string, string>): string {
  dir = mkdtempSync(join(tmpdir(), 'import-cycles-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

function named(root: string, cycles: string[][]): string[][] {
  return cycles.map((cycle) => cycle.map((file) => relative(root, file)));
}

afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('import circle check', () => {
  it('names a circle of three files, one import of it type-only', () => {
    const root = tree({
      'a.ts': "import { b } from './b.js';\nexport const a = b;\n",
      'b.ts': "import { c } from './sub/c.js';\nexport const b = c;\n",
      'sub/c.ts': "import type { A } from '../a.js';\nexport const c = 1;\nexport type C = A;\n",
      'd.ts': "import { a } from './a.js';\nexport const d = a;\n",
    });
    expect(named(root, findImportCycles([root]))).toEqual([['a.ts', 'b.ts', 'sub/c.ts', 'a.ts']]);
  });

  it('finds none where the tree has no circle, or only a dynamic import back', () => {
    const root = tree({
      'a.ts': "import { b } from './b.js';\nexport const a = b;\n",
      'b.ts': "export const b = 1;\nexport async function later() { return (await import('./a.js')).a; }\n",
      'c.ts': "export * from './b.js';\nimport { x } from 'some-package';\n",
    });
    expect(findImportCycles([root])).toEqual([]);
  });

  it('finds none in src and jobs', () => {
    expect(named(process.cwd(), findImportCycles(['src', 'jobs']))).toEqual([]);
  });
});
