import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { schemaMessagePrefix } from '../../../src/core/schemaMessages';
import { consoleFiles, consoleRoot, lineOf, parseConsoleFile, parseSource } from './consoleSources';

const messages = JSON.parse(readFileSync(path.join(consoleRoot, 'public/locales/en-US.json'), 'utf8')) as Record<string, string>;

/** The literal keys an argument of t() may be: itself, or either branch of a conditional. */
function literalKeys(key: ts.Expression): string[] {
  if (ts.isStringLiteral(key) || ts.isNoSubstitutionTemplateLiteral(key)) return [key.text];
  if (ts.isConditionalExpression(key)) return [...literalKeys(key.whenTrue), ...literalKeys(key.whenFalse)];
  if (ts.isParenthesizedExpression(key)) return literalKeys(key.expression);
  return [];
}

type KeyUse = { file: string; line: number; key: string; dynamic: boolean };

/**
 * The keys given to `t(...)`: a literal key, either branch of `t(one ? 'a' : 'b')`, or a template such as
 * t(`menu.${path}`), read as a key prefix.
 */
function keysUsed(): KeyUse[] {
  const uses: KeyUse[] = [];
  for (const file of consoleFiles(['.ts', '.tsx'])) {
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 't' && node.arguments.length > 0) {
        const key = node.arguments[0];
        for (const literal of literalKeys(key)) uses.push({ file, line: lineOf(node), key: literal, dynamic: false });
        if (ts.isTemplateExpression(key)) uses.push({ file, line: lineOf(node), key: key.head.text, dynamic: true });
      }
      ts.forEachChild(node, visit);
    };
    visit(parseConsoleFile(file));
  }
  return uses;
}

// Build code that reads the message file too: the web app manifest takes its description from it.
const buildFilesReadingMessages = ['../../codegen/pwaOptions.ts'];

/** The string literals of the console (and of the build code that reads the file) that are exactly a key of the file. */
function keysNamedInStrings(): string[] {
  const named: string[] = [];
  const sources = [
    ...consoleFiles(['.ts', '.tsx']).map(parseConsoleFile),
    ...buildFilesReadingMessages.map((file) => parseSource(file, readFileSync(path.join(consoleRoot, file), 'utf8'))),
  ];
  for (const source of sources) {
    const visit = (node: ts.Node) => {
      if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && Object.hasOwn(messages, node.text)) named.push(node.text);
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return named;
}

describe('the en-US message file', () => {
  const uses = keysUsed();

  it('holds every key the console asks for', () => {
    const missing = uses.filter((use) => !use.dynamic && !Object.hasOwn(messages, use.key)).map((use) => `${use.file}:${use.line} ${use.key}`);
    expect(uses.length).toBeGreaterThan(100);
    expect(missing).toEqual([]);
  });

  it('holds no key the console never asks for', () => {
    // A key counts as asked for when a t() call names it, or when the source names it as a string that is handed
    // to t() later (a table of status keys, a list of unit keys). The schemas' texts (`schema.*`) are asked for by
    // the schema renderers, key by key of the schema: schemaMessages.test.ts checks those against the schemas.
    const literal = new Set([...uses.filter((use) => !use.dynamic).map((use) => use.key), ...keysNamedInStrings()]);
    const prefixes = uses.filter((use) => use.dynamic).map((use) => use.key);
    const unused = Object.keys(messages).filter((key) => !key.startsWith(schemaMessagePrefix) && !literal.has(key) && !prefixes.some((prefix) => key.startsWith(prefix)));
    expect(unused).toEqual([]);
  });

  it('keeps its keys sorted, so parallel additions merge cleanly', () => {
    const keys = Object.keys(messages);
    expect(keys).toEqual([...keys].sort());
  });

  it('fills every placeholder a message names with a value of the same name', () => {
    // A literal t('key', { name }) call must give each {placeholder} of its message, or the reader sees "{name}".
    const unfilled: string[] = [];
    for (const file of consoleFiles(['.ts', '.tsx'])) {
      const visit = (node: ts.Node) => {
        if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 't' && node.arguments[0]) {
          const values = node.arguments[1];
          const given = values && ts.isObjectLiteralExpression(values) ? values.properties.map((property) => property.name?.getText().replace(/['"]/g, '')) : [];
          for (const key of literalKeys(node.arguments[0])) {
            const names = [...(messages[key] ?? '').matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
            for (const name of names) if (!given.includes(name)) unfilled.push(`${file}:${lineOf(node)} ${key} {${name}}`);
          }
        }
        ts.forEachChild(node, visit);
      };
      visit(parseConsoleFile(file));
    }
    expect(unfilled).toEqual([]);
  });
});
