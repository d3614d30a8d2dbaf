/**
 * Fails when a module of the product imports itself through others (an import circle), naming each
 * circle. Why: a circle makes load order decide which binding is still undefined, and it is the sign
 * of two files that own one concept between them (docs: "one home per concept"). Type-only imports
 * count too: they tie the files together as much for a reader. A dynamic `import()` does not: it is
 * the way to load a part late on purpose.
 *
 * Run by `npm run lint`: `tsx scripts/check-import-cycles.ts [dir …]` (default: src jobs).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

/** Every .ts file under `dir` (declaration files left out). */
function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...tsFiles(path));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** The files `file` imports statically (import and export … from), resolved to .ts paths; packages left out. */
function importsOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const out: string[] = [];
  for (const statement of source.statements) {
    const specifier =
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
      statement.moduleSpecifier !== undefined &&
      ts.isStringLiteral(statement.moduleSpecifier)
        ? statement.moduleSpecifier.text
        : undefined;
    if (specifier?.startsWith('.') !== true) continue;
    out.push(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
  }
  return out;
}

/**
 * The import circles among the .ts files under `dirs`, each as the files in import order with the
 * first repeated at the end (a → b → a); one circle per strongly connected group of files.
 */
export function findImportCycles(dirs: readonly string[]): string[][] {
  const files = dirs.flatMap((dir) => tsFiles(resolve(dir)));
  const known = new Set(files);
  const edges = new Map(files.map((file) => [file, importsOf(file).filter((target) => known.has(target))]));

  // Tarjan's strongly connected components.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of edges.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file) ?? 0, index.get(target) ?? 0));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    const selfImport = edges.get(file)?.includes(file) === true;
    if (group.length > 1 || selfImport) groups.push(group);
  };
  for (const file of files) if (!index.has(file)) visit(file);

  return groups.map((group) => circleIn(group, edges));
}

/** One concrete circle through the group's first file (breadth-first, so the shortest). */
function circleIn(group: readonly string[], edges: ReadonlyMap<string, readonly string[]>): string[] {
  const members = new Set(group);
  const start = [...group].sort()[0] ?? '';
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift() ?? '';
    for (const target of edges.get(file) ?? []) {
      if (!members.has(target)) continue;
      if (target === start) {
        const path = [file];
        for (let at = file; at !== start;) {
          at = cameFrom.get(at) ?? start;
          path.unshift(at);
        }
        return [...path, start];
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, file);
        queue.push(target);
      }
    }
  }
  return [start, start];
}

function main(): void {
  const dirs = process.argv.slice(2);
  const cycles = findImportCycles(dirs.length > 0 ? dirs : ['src', 'jobs']);
  for (const cycle of cycles) {
    process.stderr.write(`import circle: ${cycle.map((file) => relative(process.cwd(), file)).join(' → ')}\n`);
  }
  if (cycles.length > 0) {
    process.stderr.write(`${cycles.length} import circle(s): move what both sides need into a file of its own.\n`);
    process.exitCode = 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
