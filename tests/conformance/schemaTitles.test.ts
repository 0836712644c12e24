import { describe, expect, it } from 'vitest';
import { loadSchemas } from '../../codegen/loadSchemas.js';

// Issue 28, "No property name is ever a label": lists, details, forms, exports and report columns label a property by
// its title, so every property of an entity or settings schema carries one written for people ("CVSS v3 score",
// "Last seen"), never its key; and an enum whose values are codes names them for people under `x-enum-titles`. The
// schemas the console renders as forms are held to the same rule: action parameters, every adapter's connection form,
// and the two request bodies a page builds its form from (a company's administrator, a connection's name and options).
const renderedApiSchemas = ['api/company-administrator.json', 'api/connection-write.json'];
const schemas = loadSchemas('schemas').filter(
  ({ file }) => /^(entities|settings|actions)\//.test(file) || /^adapters\/[^/]+\/connection\.schema\.json$/.test(file) || renderedApiSchemas.includes(file),
);

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every property of a schema at any depth (nested objects, array items, oneOf/anyOf branches), with its path. */
function* propertiesOf(node: Node, path = '#'): Generator<[string, string, Node]> {
  if (isNode(node.properties)) {
    for (const [name, child] of Object.entries(node.properties)) {
      if (!isNode(child)) continue;
      yield [`${path}/properties/${name}`, name, child];
      yield* propertiesOf(child, `${path}/properties/${name}`);
    }
  }
  if (isNode(node.items)) yield* propertiesOf(node.items, `${path}/items`);
  if (isNode(node.additionalProperties)) yield* propertiesOf(node.additionalProperties, `${path}/additionalProperties`);
  for (const branches of ['oneOf', 'anyOf', 'allOf'] as const) {
    const list = node[branches];
    if (Array.isArray(list)) for (const [index, branch] of list.entries()) if (isNode(branch)) yield* propertiesOf(branch, `${path}/${branches}/${index}`);
  }
}

/** Every enum node of a schema (a property's or its items'), with its path. */
function* enumsOf(node: Node, path = '#'): Generator<[string, Node]> {
  if (Array.isArray(node.enum)) yield [path, node];
  for (const [key, child] of Object.entries(node)) {
    if (key === 'examples' || key === 'default' || key === 'x-resource') continue;
    if (isNode(child)) yield* enumsOf(child, `${path}/${key}`);
    else if (Array.isArray(child)) for (const [index, item] of child.entries()) if (isNode(item)) yield* enumsOf(item, `${path}/${key}/${index}`);
  }
}

/**
 * Why a title reads as a key rather than a label, or null when it reads as a label: it is the key itself (unless the
 * key is one plain word, `Name`, `Tags`), it has an underscore or a dotted part (`first_name`, `OS.Type`), or its
 * first word is in lower case.
 */
function keyLikeTitle(title: string, key: string): string | null {
  if (title.trim() === '') return 'is empty';
  if (title === key && !/^[A-Z][a-z]+$/.test(key)) return 'is its key';
  if (title.includes('_')) return 'has an underscore';
  if (/[A-Za-z]\.[A-Za-z]/.test(title)) return 'is a dotted key';
  // A product's own spelling may start in lower case ("vCenter URL", "phpIPAM URL"): only a first word all in lower case is a key's.
  if (/^[a-z][a-z-]*(\s|$)/.test(title)) return 'starts in lower case';
  return null;
}

/**
 * An enum value people can read as it is: it starts with a capital or a digit and holds no underscore (`A4`, `Letter`),
 * or it is a web address (a vendor's API endpoints, `https://qualysapi.qualys.eu`: the address is what its users know).
 */
const readableAsIs = (value: unknown) => typeof value !== 'string' || /^[A-Z0-9][^_]*$/.test(value) || /^https?:\/\/[^\s_]+$/.test(value);

describe('the title check', () => {
  it('refuses keys and accepts labels', () => {
    expect(keyLikeTitle('created_at', 'created_at')).toBe('is its key');
    expect(keyLikeTitle('LastSeen', 'LastSeen')).toBe('is its key');
    expect(keyLikeTitle('OS.Type', 'OS.Type')).toBe('is its key');
    expect(keyLikeTitle('Os_Type', 'OS.Type')).toBe('has an underscore');
    expect(keyLikeTitle('OS.Type', 'os_type')).toBe('is a dotted key');
    expect(keyLikeTitle('verify certificate', 'verify_certificate')).toBe('starts in lower case');
    expect(keyLikeTitle('Name', 'Name')).toBeNull();
    expect(keyLikeTitle('CVSS v3 score', 'Cvss3Score')).toBeNull();
    expect(keyLikeTitle('Created', 'created_at')).toBeNull();
    expect(keyLikeTitle('salt-api URL', 'base_url')).toBe('starts in lower case');
    expect(keyLikeTitle('vCenter URL', 'base_url')).toBeNull();
  });

  it('reads codes as codes, and labels and web addresses as readable', () => {
    expect(['udp', 'rfc5424', 'us_government', '\t', ',', 'utf-8'].filter(readableAsIs)).toEqual([]);
    expect(['Letter', 'A4', 'https://qualysapi.qualys.eu'].every(readableAsIs)).toBe(true);
  });

  it('covers the forms of actions, adapter connections and the rendered request bodies', () => {
    const files = schemas.map(({ file }) => file);
    expect(files).toEqual(expect.arrayContaining(['actions/syslog.json', 'adapters/csvfile/connection.schema.json', ...renderedApiSchemas]));
  });
});

describe.each(schemas.map(({ file, schema }) => [file, schema as Node] as const))('schema %s', (_file, schema) => {
  it('gives every property, at any depth, a title that is not its key', () => {
    const problems: string[] = [];
    for (const [path, name, property] of propertiesOf(schema)) {
      if (typeof property.$ref === 'string') continue;
      if (typeof property.title !== 'string') problems.push(`${path} has no title`);
      else {
        const problem = keyLikeTitle(property.title, name);
        if (problem) problems.push(`${path}: title "${property.title}" ${problem}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('names every enum value that is a code under x-enum-titles, and names no value the enum lacks', () => {
    const problems: string[] = [];
    for (const [path, node] of enumsOf(schema)) {
      const titles = isNode(node['x-enum-titles']) ? node['x-enum-titles'] : {};
      const values = (node.enum as unknown[]).filter((value) => value !== null);
      for (const value of values) if (!readableAsIs(value) && typeof titles[String(value)] !== 'string') problems.push(`${path}: "${String(value)}" has no display name`);
      for (const named of Object.keys(titles)) if (!values.map(String).includes(named)) problems.push(`${path}: x-enum-titles names "${named}", which the enum lacks`);
    }
    expect(problems).toEqual([]);
  });
});
