import { flag, integer, multiline, optionalText, type AdapterSource, type AuthVariant, type Field, type JsonSchema } from './model.js';

/**
 * Turns one `AdapterSource` into the files of its folder: adapter.json, connection.schema.json and
 * instructions.md. The "How to connect" section is written from the schema itself, so it can only name
 * fields the form really has.
 */

const sectionOrder = { Connection: 0, Authentication: 20, Options: 30, Network: 90 } as const;
type Section = keyof typeof sectionOrder;

function networkFields(kind: 'http' | 'tls'): Field[] {
  const fields: Field[] = [
    flag('verify_ssl', 'Verify TLS certificate', 'Check the server certificate against the trusted authorities (and the custom CA below). Turn off only for a lab system with a self-signed certificate.', true),
    multiline('custom_ca', 'Custom CA certificate (PEM)', 'A PEM-encoded CA certificate (or chain) to trust in addition to the public authorities, e.g. your TLS-inspecting proxy or internal PKI.', ['-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ2FydG9ncmFwaCBleGFtcGxlIENBMAoGCCqGSM49BAMC\n-----END CERTIFICATE-----'], { required: false, pattern: '-----BEGIN CERTIFICATE-----' }),
  ];
  if (kind === 'http') fields.push(optionalText('proxy', 'HTTPS proxy', 'Proxy URL for outbound calls, e.g. http://proxy.corp.example.com:3128 (credentials may be embedded as user:password@).', ['http://proxy.corp.example.com:3128'], { format: 'uri' }));
  fields.push(integer('timeout_seconds', 'Request timeout (seconds)', 'How long to wait for one answer before the request is counted as failed.', [5, 600], 60));
  return fields;
}

function placeField(field: Field, section: Section, index: number): JsonSchema {
  return { ...field.schema, 'x-order': sectionOrder[section] + index + 1, 'x-group': section };
}

function branchSchema(variant: AuthVariant, withDefault: boolean): JsonSchema {
  const discriminator: JsonSchema = { type: 'string', const: variant.type, title: 'Authentication method', description: variant.title, examples: [variant.type] };
  if (withDefault) discriminator.default = variant.type;
  return {
    type: 'object',
    title: variant.title,
    description: variant.description,
    required: ['auth_type', ...variant.fields.filter((field) => field.required).map((field) => field.name)],
    properties: Object.fromEntries([['auth_type', discriminator], ...variant.fields.map((field) => [field.name, field.schema])]),
  };
}

function authProperty(source: AdapterSource, variants: AuthVariant[]): JsonSchema {
  const placement = { title: 'Authentication', 'x-order': sectionOrder.Authentication + 1, 'x-group': 'Authentication' };
  if (variants.length === 1) return { ...branchSchema(variants[0], true), ...placement, description: `How Cartograph signs in to ${source.name}. ${variants[0].description}` };
  return { type: 'object', ...placement, description: `How Cartograph signs in to ${source.name}; pick one method.`, oneOf: variants.map((variant) => branchSchema(variant, false)) };
}

function exampleValue(field: Field): unknown {
  return field.secretExample ?? (field.schema.examples as unknown[] | undefined)?.[0];
}

function sectionFields(source: AdapterSource): Array<[Section, Field[]]> {
  const network = source.network ?? 'http';
  return [
    ['Connection', source.location],
    ['Options', source.options ?? []],
    ['Network', network === 'none' ? [] : networkFields(network)],
  ];
}

/** The connection form: draft-07, closed `x-` vocabulary only, one valid object in `examples`. */
export function connectionSchema(source: AdapterSource): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const example: Record<string, unknown> = {};
  for (const [section, fields] of sectionFields(source)) {
    fields.forEach((field, index) => {
      properties[field.name] = placeField(field, section, index);
      if (field.required) {
        required.push(field.name);
        example[field.name] = exampleValue(field);
      }
    });
  }
  if (source.auth?.length) {
    properties.auth = authProperty(source, source.auth);
    required.push('auth');
    const first = source.auth[0];
    example.auth = Object.fromEntries([['auth_type', first.type], ...first.fields.filter((field) => field.required).map((field) => [field.name, exampleValue(field)])]);
  }
  const ordered = Object.fromEntries(Object.entries(properties).sort(([, left], [, right]) => (left['x-order'] as number) - (right['x-order'] as number)));
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: `cartograph:adapters/${source.slug}/connection`,
    title: `${source.name} connection`,
    description: `How Cartograph reaches ${source.name} and signs in to it.`,
    type: 'object',
    required,
    additionalProperties: false,
    properties: ordered,
    examples: [example],
  };
}

/** adapter.json: the catalogue entry the server lists under /adapters/adapters. */
export function adapterMetadata(source: AdapterSource): Record<string, unknown> {
  return {
    name: source.name,
    slug: source.slug,
    description: source.description,
    vendor: source.vendor,
    website: source.website,
    ...(source.docs_url ? { docs_url: source.docs_url } : {}),
    groups: source.groups,
    categories: source.categories,
    engine: source.engine,
    beta: source.beta ?? false,
  };
}

const inventoryNames: Record<string, string> = { device: 'devices', user: 'users', vulnerability: 'vulnerabilities', application: 'software', certificate: 'certificates', service: 'services' };

function fieldLine(field: Field): string {
  const title = field.schema.title as string;
  return `- \`${title}\`${field.required ? '' : ' (optional)'}: ${field.schema.description as string}`;
}

function howToConnect(source: AdapterSource): string[] {
  const lines = [`In Cartograph open **Adapters**, pick **${source.name}** and choose **Add connection**. Give the connection a name, then fill in:`, ''];
  for (const field of source.location) lines.push(fieldLine(field));
  const variants = source.auth ?? [];
  if (variants.length === 1) {
    lines.push(`- \`Authentication\`: ${variants[0].title}.`);
    for (const field of variants[0].fields) lines.push(`  ${fieldLine(field)}`);
  } else if (variants.length > 1) {
    lines.push('- `Authentication`: choose one method.');
    for (const variant of variants) {
      lines.push(`  - **${variant.title}**: ${variant.description}`);
      for (const field of variant.fields) lines.push(`    ${fieldLine(field)}`);
    }
  }
  for (const field of source.options ?? []) lines.push(fieldLine(field));
  const network = source.network ?? 'http';
  if (network !== 'none') {
    const names = networkFields(network).map((field) => `\`${field.schema.title as string}\``).join(', ');
    lines.push(`- Network settings (optional): ${names}.`);
  }
  const check = ['csv', 'json', 'xlsx'].includes(source.engine ?? '')
    ? 'Cartograph reads the file and parses its first records'
    : source.engine === 'sbom'
      ? 'Cartograph reads the file (or the folder\'s first 20 files) as SBOMs and says what each describes'
      : source.engine === 'network-scanner' || source.engine === 'tls-scanner'
      ? 'Cartograph checks the target list and probes the first target'
      : `Cartograph connects to ${source.name}, signs in and reads one page`;
  lines.push('', `Save, then choose **Test connection**: ${check}, and reports the exact error if it cannot.`);
  return lines;
}

/** instructions.md: the five sections the connection page shows beside the form. */
export function instructions(source: AdapterSource): string {
  const { guide } = source;
  const feeds = source.categories.map((category) => inventoryNames[category]).join(', ');
  return [
    `# ${source.name}`,
    '',
    source.description,
    '',
    '## Prerequisites',
    '',
    ...guide.prerequisites.map((item) => `- ${item}`),
    '',
    '## What to grant on the vendor side',
    '',
    ...guide.grant.map((item, index) => `${index + 1}. ${item}`),
    '',
    '## How to connect',
    '',
    ...howToConnect(source),
    '',
    '## What data is collected',
    '',
    ...guide.collects.map((item) => `- ${item}`),
    '',
    `Records feed these inventories: ${feeds}. Cartograph only reads; it never changes anything in ${source.name}.`,
    '',
    '## Troubleshooting',
    '',
    ...guide.troubleshooting.map(([symptom, fix]) => `- **${symptom}**: ${fix}`),
    '',
  ].join('\n');
}
