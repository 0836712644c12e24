import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { loadSchemas } from '../../codegen/loadSchemas.js';
import { createServerAjv } from '../../codegen/validators.js';
import { registerVocabulary, vocabularyKeywords } from '../../src/core/schemaVocabulary.js';

// Adapter connection schemas have a conformance test of their own (tests/conformance/adapters.test.ts).
const schemas = loadSchemas('schemas').filter(({ file }) => !file.startsWith('adapters/'));

type Node = Record<string, unknown>;

/** Every object inside a schema, with its JSON path, so keyword rules can be checked everywhere. */
function* walk(node: unknown, path = '#'): Generator<[string, Node]> {
  if (!node || typeof node !== 'object') return;
  if (!Array.isArray(node)) yield [path, node as Node];
  for (const [key, child] of Object.entries(node)) if (key !== 'examples' && key !== 'default') yield* walk(child, `${path}/${key}`);
}

describe.each(schemas.map(({ file, schema }) => [file, schema] as const))('schema %s', (_file, schema) => {
  it('compiles under the strict server ajv', () => {
    const ajv = createServerAjv({ coerce: false });
    for (const { schema: other } of schemas) if (other.$id !== schema.$id) ajv.addSchema(other);
    expect(() => ajv.compile(schema)).not.toThrow();
  });

  it("compiles under RJSF's ajv settings (strict off) with the same vocabulary", () => {
    const ajv = registerVocabulary(new Ajv({ strict: false, allErrors: true }));
    for (const { schema: other } of schemas) if (other.$id !== schema.$id) ajv.addSchema(other);
    expect(() => ajv.compile(schema)).not.toThrow();
  });

  it('validates every one of its examples', () => {
    const validate = createServerAjv({ coerce: false }).compile(schema);
    for (const example of (schema.examples as unknown[]) ?? []) expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
  });

  it('has a title, a description, and a description on every property', () => {
    expect(schema.title).toEqual(expect.any(String));
    expect(schema.description).toEqual(expect.any(String));
    for (const [path, node] of walk(schema)) {
      if (!node.properties || path.includes('/x-resource')) continue;
      for (const [name, property] of Object.entries(node.properties as Record<string, Node>)) {
        expect(property.description, `${path}/properties/${name}`).toEqual(expect.any(String));
      }
    }
  });

  it('uses only the closed x- vocabulary', () => {
    for (const [path, node] of walk(schema)) {
      for (const key of Object.keys(node).filter((candidate) => candidate.startsWith('x-'))) expect(Object.keys(vocabularyKeywords), `${path}/${key}`).toContain(key);
    }
  });
});

describe('the schema vocabulary', () => {
  it('rejects an unknown x- keyword and a malformed known one', () => {
    const ajv = createServerAjv({ coerce: false });
    expect(() => ajv.compile({ type: 'string', 'x-colour': 'red' })).toThrow(/unknown keyword/);
    expect(() => ajv.compile({ type: 'string', 'x-secret': 'yes' })).toThrow();
    expect(() => ajv.compile({ type: 'object', 'x-resource': { path: '/things', scope: 'everywhere', permissions: {} } })).toThrow();
  });

  it.each([
    ['ipv4', '10.0.0.1', '10.0.0.256'],
    ['mac', '00:1a:2B:3c:4d:5e', '00:1a:2b:3c:4d'],
    ['cidr', '192.168.0.0/16', '192.168.0.0/33'],
    ['hostname', 'web-01.example.com', 'bad host'],
    ['email', 'jane@example.com', 'jane@'],
    ['date', '2026-11-22', '2026-13-01'],
    ['slug', 'active-directory', 'Active Directory'],
    ['cron', '0 2 * * *', '0 2 * *'],
  ])('checks the %s format', (format, good, bad) => {
    const validate = createServerAjv({ coerce: false }).compile({ type: 'string', format });
    expect(validate(good)).toBe(true);
    expect(validate(bad)).toBe(false);
  });
});
