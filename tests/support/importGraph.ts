import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** One import of a file: the file it names (relative to the root) and whether it is erased when compiled. */
export type ImportEdge = { target: string; typeOnly: boolean };

/** Every source file under a folder (relative paths, `/`-separated) with the files it imports. */
export type ImportGraph = Map<string, ImportEdge[]>;

const sourceExtensions = ['.ts', '.tsx'];

function sourceFiles(folder: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) files.push(...sourceFiles(path));
    else if (sourceExtensions.some((extension) => name.endsWith(extension)) && !name.endsWith('.d.ts')) files.push(path);
  }
  return files;
}

/** The file a relative specifier names, the way the bundler resolution of tsconfig.json finds it (or undefined). */
function resolveSpecifier(fromFile: string, specifier: string): string | undefined {
  const base = resolve(dirname(fromFile), specifier);
  const withoutJs = base.replace(/\.(js|jsx)$/, '');
  const candidates = [
    ...sourceExtensions.map((extension) => withoutJs + extension),
    ...sourceExtensions.map((extension) => join(base, `index${extension}`)),
  ];
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
}

/** Whether an import declaration brings in nothing but types (`import type …`, or every name marked `type`). */
function importIsTypeOnly(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false; // `import './x.js'` runs the module
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  return Boolean(bindings && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((element) => element.isTypeOnly));
}

function exportIsTypeOnly(node: ts.ExportDeclaration): boolean {
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  return Boolean(clause && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((element) => element.isTypeOnly));
}

/** The relative imports of one file: static imports, re-exports, `import()` calls and `import('…')` types. */
function importsOf(file: string): Array<{ specifier: string; typeOnly: boolean }> {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: Array<{ specifier: string; typeOnly: boolean }> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: importIsTypeOnly(node) });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: exportIsTypeOnly(node) });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      found.push({ specifier: node.arguments[0].text, typeOnly: false });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push({ specifier: node.argument.literal.text, typeOnly: true });
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
      found.push({ specifier: node.moduleReference.expression.text, typeOnly: node.isTypeOnly });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.filter((entry) => entry.specifier.startsWith('.'));
}

/**
 * The import graph of every .ts/.tsx file under `folder`, read with the TypeScript parser. Only relative imports count
 * (packages cannot import the project back); an import leaving the folder or naming a file that is not source (JSON,
 * CSS) is left out, since nothing there can import back either.
 */
export function buildImportGraph(folder: string): ImportGraph {
  const root = resolve(folder);
  const graph: ImportGraph = new Map();
  const name = (path: string) => relative(root, path).split('\\').join('/');
  for (const file of sourceFiles(root)) {
    const edges: ImportEdge[] = [];
    for (const { specifier, typeOnly } of importsOf(file)) {
      const target = resolveSpecifier(file, specifier);
      if (target && !relative(root, target).startsWith('..')) edges.push({ target: name(target), typeOnly });
    }
    graph.set(name(file), edges);
  }
  return graph;
}

/** The strongly connected components of more than one file (or a file importing itself): each is at least one cycle. */
export function cyclicGroups(graph: ImportGraph, options: { includeTypeOnly: boolean }): string[][] {
  const targets = (file: string) => [...new Set((graph.get(file) ?? []).filter((edge) => options.includeTypeOnly || !edge.typeOnly).map((edge) => edge.target))];
  // Tarjan's algorithm, iterative so a deep chain of imports cannot overflow the stack.
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const groups: string[][] = [];
  let counter = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ file: string; next: string[]; position: number }> = [];
    const open = (file: string) => {
      index.set(file, counter);
      lowLink.set(file, counter);
      counter += 1;
      stack.push(file);
      onStack.add(file);
      work.push({ file, next: targets(file), position: 0 });
    };
    open(start);
    while (work.length) {
      const frame = work[work.length - 1];
      if (frame.position < frame.next.length) {
        const target = frame.next[frame.position++];
        if (!index.has(target)) open(target);
        else if (onStack.has(target)) lowLink.set(frame.file, Math.min(lowLink.get(frame.file)!, index.get(target)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1].file;
        lowLink.set(parent, Math.min(lowLink.get(parent)!, lowLink.get(frame.file)!));
      }
      if (lowLink.get(frame.file) === index.get(frame.file)) {
        const group: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          group.push(member);
        } while (member !== frame.file);
        if (group.length > 1 || targets(frame.file).includes(frame.file)) groups.push(group.sort());
      }
    }
  }
  return groups.sort((a, b) => b.length - a.length || a[0].localeCompare(b[0]));
}

/** One shortest cycle through a group's first file, as `a.ts → b.ts → a.ts`: the chain a reader can follow. */
export function describeCycle(graph: ImportGraph, group: string[], options: { includeTypeOnly: boolean }): string {
  const members = new Set(group);
  const start = group[0];
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const file = queue.shift()!;
    for (const edge of graph.get(file) ?? []) {
      if (!members.has(edge.target) || (edge.typeOnly && !options.includeTypeOnly)) continue;
      if (edge.target === start) {
        const chain = [file];
        while (chain[0] !== start) chain.unshift(previous.get(chain[0])!);
        return [...chain, start].join(' → ');
      }
      if (!previous.has(edge.target)) {
        previous.set(edge.target, file);
        queue.push(edge.target);
      }
    }
  }
  return group.join(', ');
}
