import type { Ajv, FormatDefinition, KeywordDefinition } from 'ajv';

/** The closed `x-` vocabulary of schemas/README.md: keyword → JSON Schema of its value. */
export const vocabularyKeywords: Record<string, object> = {
  'x-secret': { const: true },
  'x-destination': { const: true },
  'x-order': { type: 'integer' },
  'x-group': { type: 'string', minLength: 1 },
  'x-widget': {
    enum: ['text', 'textarea', 'password', 'select', 'multiselect', 'checkbox', 'file', 'code', 'permissions', 'adapters', 'groups', 'exported-from'],
  },
  'x-list': { const: true },
  // Display names of an enum's values (or of the known values of an open text field), by value: `{ "tls": "TLS" }`.
  'x-enum-titles': { type: 'object', additionalProperties: { type: 'string', minLength: 1 } },
  'x-rules': { type: 'string', minLength: 1 },
  'x-unique': { const: true },
  'x-indexed': { enum: [true, 'sorted'] },
  'x-covered': { const: true },
  // The fields free text searches in an inventory (on the entity schema itself): `lt-0017` alone finds its host.
  'x-search': { type: 'array', items: { type: 'string' }, minItems: 1 },
  // A field holding IP addresses: `= 10.61.0.0/16` and `= 10.0.0.1-10.0.0.50` mean "in this subnet / range".
  'x-ip': { const: true },
  'x-resource': {
    type: 'object',
    required: ['path', 'scope', 'permissions'],
    additionalProperties: false,
    properties: {
      path: { type: 'string', pattern: '^(/[a-z0-9-]+)+$' },
      scope: { enum: ['tenant', 'global'] },
      permissions: {
        type: 'object',
        required: ['view', 'add', 'change', 'delete'],
        additionalProperties: false,
        properties: Object.fromEntries(['view', 'add', 'change', 'delete'].map((action) => [action, { type: 'string', pattern: '^[a-z]+\\.[a-z_]+$' }])),
      },
      search: { type: 'array', items: { type: 'string' } },
      custom: { const: true },
    },
  },
};

/**
 * An e-mail address as VeeValidate's `email` rule takes it (the pattern it borrows from zod): an ASCII local part
 * that neither starts with nor doubles a dot, and a domain of labels ending in a top-level domain of two letters
 * or more. Forms and the API share it, so the console never accepts what the server refuses.
 */
export const emailPattern = /^(?!\.)(?!.*\.\.)[A-Z0-9_'+\-.]*[A-Z0-9_+-]@([A-Z0-9][A-Z0-9-]*\.)+[A-Z]{2,}$/i;

const ipv4Octet = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const ipv4Pattern = `${ipv4Octet}(\\.${ipv4Octet}){3}`;

/** Formats shared by every validator; plain regular expressions so precompiled validators can inline them. */
export const vocabularyFormats: Record<string, RegExp> = {
  ipv4: new RegExp(`^${ipv4Pattern}$`),
  ipv6: /^(?=.*:)[0-9a-fA-F:.]{2,45}$/,
  mac: /^([0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}$/,
  cidr: new RegExp(`^${ipv4Pattern}/(3[0-2]|[12]?\\d)$`),
  hostname: /^(?=.{1,253}$)[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,62})(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,62}))*\.?$/,
  email: emailPattern,
  uri: /^[a-zA-Z][a-zA-Z0-9+.-]*:[^\s]*$/,
  'date-time': /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?$/,
  date: /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/,
  uuid: /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
  cron: /^(\S+\s+){4}\S+$/,
  slug: /^[a-z0-9]+(-[a-z0-9]+)*$/,
};

/** The format definitions as ajv takes them; precompiled validators import this same object. */
export const formatDefinitions: Record<string, FormatDefinition<string>> = Object.fromEntries(
  Object.entries(vocabularyFormats).map(([name, pattern]) => [name, { type: 'string', validate: pattern }]),
);

/** Registers Cartograph's formats and `x-` keywords; the server, the console and codegen all call it. */
export function registerVocabulary(ajv: Ajv): Ajv {
  for (const [name, definition] of Object.entries(formatDefinitions)) ajv.addFormat(name, definition);
  for (const [keyword, metaSchema] of Object.entries(vocabularyKeywords)) {
    if (ajv.getKeyword(keyword)) continue;
    const definition: KeywordDefinition = { keyword, metaSchema };
    ajv.addKeyword(definition);
  }
  return ajv;
}
