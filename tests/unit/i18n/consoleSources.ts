import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const consoleRoot = fileURLToPath(new URL('../../../src/web', import.meta.url));

/** Every source file of the console (tests beside components excluded), relative to src/web. */
export function consoleFiles(extensions: string[]): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (extensions.some((ext) => entry.name.endsWith(ext)) && !/\.(test|stories)\.tsx?$/.test(entry.name)) found.push(path.relative(consoleRoot, full).split(path.sep).join('/'));
    }
  };
  walk(consoleRoot);
  return found.sort();
}

export function parseConsoleFile(relativePath: string): ts.SourceFile {
  return parseSource(relativePath, readFileSync(path.join(consoleRoot, relativePath), 'utf8'));
}

export function parseSource(name: string, text: string): ts.SourceFile {
  return ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true, name.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
}

export function lineOf(node: ts.Node): number {
  const source = node.getSourceFile();
  return source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
}
