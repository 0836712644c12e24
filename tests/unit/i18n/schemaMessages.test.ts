import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { loadSchemas } from '../../../codegen/loadSchemas';
import { messageFileOf, renderedSchemaMessages, type SchemaMessageFile } from '../../../codegen/schemaMessages';
import { schemaMessageKey, schemaMessagePrefix, schemaMessagesOf, translateSchema, type SchemaDocument } from '../../../src/core/schemaMessages';
import { consoleFiles, consoleRoot, lineOf, parseConsoleFile } from './consoleSources';

const schemasFolder = fileURLToPath(new URL('../../../schemas', import.meta.url));
const schemas = loadSchemas(schemasFolder);
const readMessages = (file: string) => JSON.parse(readFileSync(path.join(consoleRoot, 'public/locales', file), 'utf8')) as Record<string, string>;
const files: Record<SchemaMessageFile, Record<string, string>> = { console: readMessages('en-US.json'), adapters: readMessages('en-US.adapters.json') };
const fixHint = 'run `npm run codegen` and commit the en-US message files with the schema change';

describe("the schemas' texts in the en-US message files", () => {
  it('hold every text the renderers ask for of every schema the console renders, so none falls back to the schema', () => {
    // The renderers' own walk (localizedSchema → translateSchema) over every rendered schema, recording each key the
    // message file does not hold: a new title, description, section or option in a schema fails here.
    const missing: string[] = [];
    let asked = 0;
    for (const { file, schema } of schemas) {
      const target = messageFileOf(file);
      if (!target) continue;
      translateSchema(schema as SchemaDocument, (key, english) => {
        asked += 1;
        if (!Object.hasOwn(files[target], key)) missing.push(`${file}: ${key}`);
        return english;
      });
    }
    expect(asked).toBeGreaterThan(5000);
    expect(missing, fixHint).toEqual([]);
  });

  it('hold the English of the schemas (their source) and no text a schema no longer has', () => {
    const expected = renderedSchemaMessages(schemas);
    for (const target of ['console', 'adapters'] as const) {
      const held = Object.fromEntries(Object.entries(files[target]).filter(([key]) => key.startsWith(schemaMessagePrefix)));
      const differing = Object.keys({ ...held, ...expected[target] }).filter((key) => held[key] !== expected[target][key]);
      expect(differing.map((key) => `${key}: file ${JSON.stringify(held[key])}, schema ${JSON.stringify(expected[target][key])}`), fixHint).toEqual([]);
    }
    // The adapters' file holds their connection forms' texts only; the console's file none of them.
    expect(Object.keys(files.adapters).every((key) => key.startsWith(`${schemaMessagePrefix}adapters/`))).toBe(true);
    expect(Object.keys(files.console).some((key) => key.startsWith(`${schemaMessagePrefix}adapters/`))).toBe(false);
  });

  it('cover every schema file the console loads, by glob or by import', () => {
    const schemaFiles = schemas.map(({ file }) => file.split(path.sep).join('/'));
    const unrendered: string[] = [];
    let looked = 0;
    for (const file of consoleFiles(['.ts', '.tsx'])) {
      const source = parseConsoleFile(file);
      const schemaPathOf = (specifier: string) => path.relative(schemasFolder, path.resolve(consoleRoot, path.dirname(file), specifier)).split(path.sep).join('/');
      const visit = (node: ts.Node) => {
        // import.meta.glob('…/schemas/entities/*.json'): every file the pattern matches.
        if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && /\/schemas\/.*\*.*\.json$/.test(node.text)) {
          const pattern = new RegExp(`^${schemaPathOf(node.text).replace(/[.]/g, '\\.').replace(/\*/g, '[^/]+')}$`);
          const matched = schemaFiles.filter((candidate) => pattern.test(candidate));
          looked += matched.length;
          expect(matched.length, node.text).toBeGreaterThan(0);
          for (const match of matched) if (!messageFileOf(match)) unrendered.push(`${file}:${lineOf(node)} ${match}`);
        }
        // import schema from '…/schemas/entities/tag.json': rendered, unless the page reads only its rules.
        if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && /\/schemas\/.*\.json$/.test(node.moduleSpecifier.text)) {
          const imported = schemaPathOf(node.moduleSpecifier.text);
          const name = node.importClause?.name?.text;
          looked += 1;
          if (!messageFileOf(imported) && !(name && readsOnlyRules(source, name)) && !imported.endsWith('routes.json')) unrendered.push(`${file}:${lineOf(node)} ${imported}`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(looked).toBeGreaterThan(200); // the entity, settings and action globs, 170+ connection forms, the imports
    expect(unrendered).toEqual([]);
  });
});

/** True when every use of `name` in the file reads a property's `x-rules` (text no one sees). */
function readsOnlyRules(source: ts.SourceFile, name: string): boolean {
  const uses: ts.Node[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isIdentifier(node) && node.text === name && !ts.isImportClause(node.parent)) uses.push(node);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return uses.every((use) => {
    let outer: ts.Node = use;
    while (ts.isPropertyAccessExpression(outer.parent) || ts.isElementAccessExpression(outer.parent)) outer = outer.parent;
    return /\[['"]x-rules['"]\]$/.test(outer.getText(source));
  });
}

describe('a schema translated through its messages', () => {
  const schema = {
    $id: 'cartograph:entities/sample-thing',
    title: 'Sample thing',
    description: 'A thing to try the walk on.',
    'x-resource': { path: '/samples/things' },
    properties: {
      first_name: { type: 'string', 'x-group': 'Person' },
      group_ids: { type: 'array', items: { type: 'integer' }, 'x-group': 'Person' },
      severity: { type: 'string', title: 'Severity', enum: ['high', 'low'] },
      'a/b': { type: 'string', title: 'Slashed' },
      auth: {
        type: 'object',
        oneOf: [{ title: 'Token', properties: { kind: { const: 'token', title: 'Method' }, mode: { const: 'plain' }, token: { type: 'string', description: 'The token.' } } }],
      },
      tags: { type: 'array', items: { type: 'string', enum: ['red'] } },
    },
  };

  it('names each text by the schema, the JSON pointer of its node and what it is', () => {
    const asked: Record<string, string> = {};
    translateSchema(schema, (key, english) => {
      asked[key] = english;
      return english;
    });
    expect(asked).toEqual({
      'schema.entities/sample-thing#.title': 'Sample thing',
      'schema.entities/sample-thing#.plural': 'Sample things',
      'schema.entities/sample-thing#.description': 'A thing to try the walk on.',
      'schema.entities/sample-thing#/properties/first_name.title': 'First Name',
      'schema.entities/sample-thing#.group.Person': 'Person',
      'schema.entities/sample-thing#/properties/group_ids.title': 'Groups',
      'schema.entities/sample-thing#/properties/severity.title': 'Severity',
      'schema.entities/sample-thing#/properties/severity.enum.high': 'high',
      'schema.entities/sample-thing#/properties/severity.enum.low': 'low',
      'schema.entities/sample-thing#/properties/a~1b.title': 'Slashed',
      'schema.entities/sample-thing#/properties/auth.title': 'Auth',
      'schema.entities/sample-thing#/properties/auth/oneOf/0.title': 'Token',
      'schema.entities/sample-thing#/properties/auth/oneOf/0/properties/kind.title': 'Method',
      'schema.entities/sample-thing#/properties/auth/oneOf/0/properties/token.title': 'Token',
      'schema.entities/sample-thing#/properties/auth/oneOf/0/properties/token.description': 'The token.',
      'schema.entities/sample-thing#/properties/tags.title': 'Tags',
      'schema.entities/sample-thing#/properties/tags/items.enum.red': 'red',
    });
    expect(schemaMessageKey('cartograph:settings/smtp', '/properties/host', 'title')).toBe('schema.settings/smtp#/properties/host.title');
  });

  it('puts the translations in a copy, sections and option labels included, and leaves the schema as written', () => {
    const translations: Record<string, string> = {
      'schema.entities/sample-thing#/properties/first_name.title': 'Prénom',
      'schema.entities/sample-thing#.group.Person': 'Personne',
      'schema.entities/sample-thing#/properties/severity.enum.high': 'Élevée',
      'schema.entities/sample-thing#.plural': 'Choses',
    };
    const translated = translateSchema(schema, (key, english) => translations[key] ?? english);
    expect(translated.properties.first_name).toMatchObject({ title: 'Prénom', 'x-group': 'Personne' });
    expect(translated.properties.group_ids).toMatchObject({ title: 'Groups', 'x-group': 'Personne' });
    expect(translated.properties.severity).toMatchObject({ enum: ['high', 'low'], 'x-enum-labels': { high: 'Élevée', low: 'low' } });
    expect(translated).toMatchObject({ 'x-plural-title': 'Choses', 'x-resource': { path: '/samples/things' } });
    expect(schema.properties.first_name).toEqual({ type: 'string', 'x-group': 'Person' });
  });

  it("takes an option's English from x-enum-titles, on an enum and on the known values of an open text field", () => {
    const named = {
      $id: 'cartograph:settings/sample-mail',
      properties: {
        security: { type: 'string', enum: ['none', 'starttls'], 'x-enum-titles': { starttls: 'STARTTLS' } },
        algorithms: { type: 'array', items: { type: 'string', 'x-enum-titles': { rsa: 'RSA' } } },
      },
    };
    expect(schemaMessagesOf(named)).toMatchObject({
      'schema.settings/sample-mail#/properties/security.enum.none': 'none',
      'schema.settings/sample-mail#/properties/security.enum.starttls': 'STARTTLS',
      'schema.settings/sample-mail#/properties/algorithms/items.enum.rsa': 'RSA',
    });
    const translated = translateSchema(named, (key, english) => (key.endsWith('.enum.rsa') ? 'RSA (traduit)' : english));
    expect(translated.properties.security['x-enum-labels' as never]).toEqual({ none: 'none', starttls: 'STARTTLS' });
    expect(translated.properties.algorithms.items['x-enum-labels' as never]).toEqual({ rsa: 'RSA (traduit)' });
  });
});
