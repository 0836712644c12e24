import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { createServerAjv } from '../../codegen/validators.js';
import { registerVocabulary } from '../../src/core/schemaVocabulary.js';
import { pseudoAdapters } from '../../src/server/adapters/catalogue.js';

type Node = Record<string, unknown>;

const adaptersFolder = 'schemas/adapters';
const slugs = readdirSync(adaptersFolder).filter((name) => statSync(`${adaptersFolder}/${name}`).isDirectory()).sort();
const metaSchema = JSON.parse(readFileSync(`${adaptersFolder}/adapter.meta.json`, 'utf8')) as Node;

// Slugs the spec names (§1, §3, the adapter catalogue facts) and the vendors the issue wants fetched first.
const specSlugs = ['aha', 'box', 'pdq', 'glpi', 'okta', 'elasticsearch', 'azure', 'slack', 'splunk', 'qualys', 'nessus', 'zabbix', 'jamfpro', 'kubernetes', 'csvfile', 'jsonfile', 'xlsxfile', 'sqladapter', 'vmwareesxi', 'network-scanner'];
const referenceProductSlugs = ['active-directory', 'azure-entra', 'microsoft-intune', 'sccm', 'manage-engine-dc', 'fireeye-hx', 'symantec-edr', 'symantec-ep', 'sophos-ep', 'trend-micro', 'symantec-dcs', 'symantec-dlp', 'force-point', 'imperva-dam', 'nexpose', 'mbam-sccm', 'ibm-qradar', 'cyberx', 'vmware-vcenter', 'vmware-mdm-airwatch'];
const firstFetchSlugs = ['crowdstrike', 'microsoft-defender-endpoint', 'azure-entra', 'microsoft-intune', 'okta', 'jamfpro', 'sentinelone', 'qualys', 'nexpose', 'servicenow', 'jira', 'kubernetes', 'snipe-it', 'glpi', 'zabbix', 'cisco-meraki', 'slack', 'box', 'aha', 'elasticsearch', 'vmware-vcenter', 'kandji', 'pdq', 'sophos-ep'];
const sections = ['Prerequisites', 'What to grant on the vendor side', 'How to connect', 'What data is collected', 'Troubleshooting'];
// Field names that always hold a secret, wherever they appear in a form.
const secretName = /(password|secret|_token$|^token$|api_key$|private_key)/;

function readJson(slug: string, file: string): Node {
  return JSON.parse(readFileSync(`${adaptersFolder}/${slug}/${file}`, 'utf8')) as Node;
}

/** Every property schema of a form (nested objects and `oneOf` branches included), with its name. */
function* properties(node: unknown): Generator<[string, Node]> {
  if (!node || typeof node !== 'object') return;
  const schema = node as Node;
  for (const [name, property] of Object.entries((schema.properties as Record<string, Node>) ?? {})) {
    yield [name, property];
    yield* properties(property);
  }
  for (const branch of (schema.oneOf as Node[]) ?? []) yield* properties(branch);
  if (schema.items) yield* properties(schema.items);
}

function* oneOfs(node: unknown): Generator<Node[]> {
  if (!node || typeof node !== 'object') return;
  for (const [key, child] of Object.entries(node as Node)) {
    if (key === 'examples' || key === 'default') continue;
    if (key === 'oneOf') yield child as Node[];
    yield* oneOfs(child);
  }
}

/** An icon file that exists and is a plain SVG image, with nothing that could run. */
function expectSafeSvg(file: string): void {
  expect(existsSync(file), file).toBe(true);
  const svg = readFileSync(file, 'utf8');
  expect(svg.trimStart().startsWith('<svg')).toBe(true);
  expect(svg).toMatch(/viewBox="[\d.\s-]+"/);
  expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
  expect(svg).not.toMatch(/<script|on[a-z]+=/i);
}

function sectionText(markdown: string, title: string): string {
  const start = markdown.indexOf(`## ${title}\n`);
  const next = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, next === -1 ? undefined : next);
}

describe('the adapter catalogue', () => {
  it('holds at least 150 adapters', () => {
    expect(slugs.length).toBeGreaterThanOrEqual(150);
  });

  it('has a folder for every slug the spec names, every adapter of the reference product and every first-fetch vendor', () => {
    for (const slug of [...specSlugs, ...referenceProductSlugs, ...firstFetchSlugs]) expect(slugs, slug).toContain(slug);
  });

  it('leaves the built-in pseudo-adapters to the server instead of giving them folders', () => {
    for (const slug of ['cartograph', 'cartograph-avm', 'cartograph-certificate']) expect(slugs).not.toContain(slug);
  });

  it('ships an icon for each built-in pseudo-adapter where the console shows adapter icons', () => {
    for (const { slug } of pseudoAdapters) expectSafeSvg(fileURLToPath(new URL(`../../src/web/public/images/adapters/${slug}.svg`, import.meta.url)));
  });

  it('has a meta-schema that compiles strictly and accepts its own example', () => {
    const validate = registerVocabulary(new Ajv({ strict: true, allErrors: true })).compile(metaSchema);
    for (const example of metaSchema.examples as unknown[]) expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...(metaSchema.examples as Node[])[0], categories: ['printer'] })).toBe(false);
  });
});

const validateMetadata = registerVocabulary(new Ajv({ strict: true, allErrors: true })).compile(metaSchema);

describe.each(slugs)('adapter %s', (slug) => {
  const metadata = readJson(slug, 'adapter.json');
  const schema = readJson(slug, 'connection.schema.json');
  const markdown = readFileSync(`${adaptersFolder}/${slug}/instructions.md`, 'utf8');
  const fieldNames = new Set<string>();
  for (const [name, property] of properties(schema)) {
    fieldNames.add(name);
    if (typeof property.title === 'string') fieldNames.add(property.title);
  }

  it('has an adapter.json that the meta-schema accepts, with the folder name as slug', () => {
    expect(validateMetadata(metadata), JSON.stringify(validateMetadata.errors)).toBe(true);
    expect(metadata.slug).toBe(slug);
  });

  it('has a connection schema with its own $id, a title and a description', () => {
    expect(schema.$id).toBe(`cartograph:adapters/${slug}/connection`);
    expect(schema.title).toEqual(expect.any(String));
    expect(schema.description).toEqual(expect.any(String));
  });

  it('compiles its connection schema under strict ajv, RJSF settings and the precompiling server ajv', () => {
    expect(() => registerVocabulary(new Ajv({ strict: true, allErrors: true })).compile(schema)).not.toThrow();
    expect(() => registerVocabulary(new Ajv({ strict: false, allErrors: true })).compile(schema)).not.toThrow();
    expect(() => createServerAjv({ coerce: false }).compile(schema)).not.toThrow();
  });

  it('validates every example of its connection schema and rejects an empty form', () => {
    const validate = registerVocabulary(new Ajv({ strict: true, allErrors: true })).compile(schema);
    const examples = (schema.examples as unknown[]) ?? [];
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
    if ((schema.required as string[]).length > 0) expect(validate({})).toBe(false);
  });

  it('gives every field a title and a description, and an example unless it is a secret or a discriminator', () => {
    for (const [name, property] of properties(schema)) {
      expect(property.title, name).toEqual(expect.any(String));
      expect(property.description, name).toEqual(expect.any(String));
      if (!property['x-secret'] && property.const === undefined && property.type !== 'object') expect(property.examples, name).toEqual(expect.any(Array));
    }
  });

  it('places every top-level field in the form with x-order and x-group', () => {
    for (const [name, property] of Object.entries(schema.properties as Record<string, Node>)) {
      expect(property['x-order'], name).toEqual(expect.any(Number));
      expect(property['x-group'], name).toEqual(expect.any(String));
    }
  });

  it('gives every oneOf branch a const discriminator', () => {
    for (const branches of oneOfs(schema)) {
      for (const branch of branches) {
        const discriminators = Object.values((branch.properties as Record<string, Node>) ?? {}).filter((property) => property.const !== undefined);
        expect(branch.const !== undefined || discriminators.length === 1, JSON.stringify(branch.title)).toBe(true);
      }
    }
  });

  it('marks every password, secret, token and key field as a secret string', () => {
    for (const [name, property] of properties(schema)) {
      if (secretName.test(name)) expect(property['x-secret'], name).toBe(true);
      if (property['x-secret']) expect(property.type, name).toBe('string');
    }
  });

  it('has instructions with the five sections in order', () => {
    const positions = sections.map((title) => markdown.indexOf(`\n## ${title}\n`));
    for (const [index, position] of positions.entries()) expect(position, sections[index]).toBeGreaterThan(0);
    expect([...positions].sort((left, right) => left - right)).toEqual(positions);
    for (const title of sections) expect(sectionText(markdown, title).split('\n').filter((line) => line.trim()).length, title).toBeGreaterThan(1);
  });

  it('names in its instructions only fields that the form has', () => {
    const quoted = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map((match) => match[1]);
    const fieldMentions = [...quoted(sectionText(markdown, 'How to connect'), /`([^`]+)`/g), ...quoted(markdown, /`([^`]+)` fields?\b/g)];
    for (const mention of fieldMentions) expect(fieldNames, mention).toContain(mention);
  });

  it('has an SVG icon', () => {
    expectSafeSvg(`${adaptersFolder}/${slug}/icon.svg`);
  });
});

describe('the network scanner form', () => {
  const schema = readJson('network-scanner', 'connection.schema.json');
  const validate = registerVocabulary(new Ajv({ strict: true, allErrors: true })).compile(schema);

  it('accepts comma-separated IPv4 addresses, CIDRs from /8 to /32 and address ranges as targets', () => {
    for (const targets of ['10.0.0.1', '10.0.0.0/24, 192.168.1.10-192.168.1.50', '172.16.0.0/12,10.0.0.0/8']) expect(validate({ targets }), targets).toBe(true);
  });

  it('rejects targets the scanner_target rule rejects', () => {
    for (const targets of ['10.0.0.0/7', '10.0.0.256', 'example.com', '10.0.0.0/24;10.0.1.0/24', '']) expect(validate({ targets }), targets).toBe(false);
  });

  it('keeps the console rule on the targets field', () => {
    expect((schema.properties as Record<string, Node>).targets['x-rules']).toBe('required|scanner_target');
  });
});
