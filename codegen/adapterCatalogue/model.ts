/**
 * The data model of the adapter catalogue generator: one `AdapterSource` per vendor, written as data in
 * `vendors/*.ts`, and small builders for the connection-form fields they share.
 */

export type JsonSchema = Record<string, unknown>;

export type AdapterGroup =
  | 'ad' | 'edr' | 'epp' | 'antivirus' | 'mdm' | 'software_deployment' | 'vulnerability_management' | 'cloud' | 'cmdb'
  | 'ticketing' | 'database' | 'file' | 'network' | 'siem' | 'iot' | 'nac' | 'dlp' | 'dam' | 'disk_encryption' | 'vm'
  | 'itam' | 'collaboration' | 'identity' | 'monitoring' | 'firewall' | 'dns' | 'container' | 'pam' | 'hr'
  | 'attack_surface' | 'certificate_management' | 'backup' | 'configuration_management' | 'security_awareness' | 'web_security' | 'devops';

export type Category = 'device' | 'user' | 'vulnerability' | 'application' | 'certificate' | 'service';

export type EngineName = 'http' | 'csv' | 'json' | 'xlsx' | 'sql' | 'ldap' | 'network-scanner' | 'tls-scanner' | 'gmp' | 'sbom' | null;

/** One form field: its property name, its JSON Schema, and whether the form requires it. */
export type Field = { name: string; schema: JsonSchema; required: boolean; secretExample?: string };

/** One way to authenticate; becomes a `oneOf` branch whose `auth_type` is the const discriminator. */
export type AuthVariant = { type: string; title: string; description: string; fields: Field[] };

export type Guide = {
  /** What must exist before connecting (licences, versions, network reachability). */
  prerequisites: string[];
  /** The vendor-side roles, scopes and permissions, as that vendor names them; steps in order. */
  grant: string[];
  /** What the adapter reads and which inventories it feeds. */
  collects: string[];
  /** [symptom, cause and fix] pairs for the errors administrators of that vendor actually meet. */
  troubleshooting: Array<[string, string]>;
};

export type AdapterSource = {
  slug: string;
  name: string;
  vendor: string;
  website: string;
  docs_url?: string;
  description: string;
  groups: AdapterGroup[];
  categories: Category[];
  engine: EngineName;
  beta?: boolean;
  /** Where the system is: base URL, region, host, tenant. Section "Connection". */
  location: Field[];
  /** How to sign in; omitted for sources that need no credentials (a public feed, an uploaded file). */
  auth?: AuthVariant[];
  /** What to fetch and how. Section "Options". */
  options?: Field[];
  /** `http`: verify_ssl, custom_ca, proxy, timeout_seconds. `tls`: the same without proxy. `none`: no network section. */
  network?: 'http' | 'tls' | 'none';
  guide: Guide;
};

type FieldOptions = {
  examples?: unknown[];
  required?: boolean;
  default?: unknown;
  format?: string;
  pattern?: string;
  widget?: string;
  rules?: string;
  minLength?: number;
};

function stringField(name: string, title: string, description: string, options: FieldOptions = {}): Field {
  const schema: JsonSchema = { type: 'string', title, description };
  if (options.format) schema.format = options.format;
  if (options.pattern) schema.pattern = options.pattern;
  if (options.minLength !== undefined) schema.minLength = options.minLength;
  if (options.default !== undefined) schema.default = options.default;
  if (options.widget) schema['x-widget'] = options.widget;
  if (options.rules) schema['x-rules'] = options.rules;
  if (options.examples) schema.examples = options.examples;
  return { name, schema, required: options.required ?? true };
}

/** A plain text field (required unless told otherwise). */
export function text(name: string, title: string, description: string, examples: unknown[], options: FieldOptions = {}): Field {
  return stringField(name, title, description, { minLength: 1, ...options, examples });
}

/** An optional text field. */
export function optionalText(name: string, title: string, description: string, examples: unknown[], options: FieldOptions = {}): Field {
  return stringField(name, title, description, { ...options, examples, required: false });
}

/** A URL field (`format: uri`); `example` is also the value used in the schema's top-level example. */
export function url(name: string, title: string, description: string, example: string, options: FieldOptions = {}): Field {
  return stringField(name, title, description, { format: 'uri', pattern: '^https?://', ...options, examples: [example] });
}

/** A host name or IP address field. */
export function host(name: string, title: string, description: string, example: string, options: FieldOptions = {}): Field {
  return stringField(name, title, description, { minLength: 1, pattern: '^[A-Za-z0-9_.:\\[\\]-]+$', ...options, examples: [example] });
}

/** A secret: encrypted at rest, masked in answers, rendered as a password input. */
export function secret(name: string, title: string, description: string, example: string, options: FieldOptions = {}): Field {
  const field = stringField(name, title, description, { minLength: 1, ...options });
  field.schema['x-secret'] = true;
  field.secretExample = example;
  return field;
}

/** A closed choice (`enum`); the first value is the default unless told otherwise. */
export function choice(name: string, title: string, description: string, values: string[], options: FieldOptions = {}): Field {
  const schema: JsonSchema = { type: 'string', title, description, enum: values, default: options.default ?? values[0], examples: [options.examples?.[0] ?? values[0]] };
  if (options.widget) schema['x-widget'] = options.widget;
  return { name, schema, required: options.required ?? true };
}

/** A closed choice inside an authentication branch: no `default` (ajv ignores defaults under `oneOf` and strict mode rejects them). */
export function branchChoice(name: string, title: string, description: string, values: string[]): Field {
  return { name, schema: { type: 'string', title, description, enum: values, examples: [values[0]] }, required: true };
}

/** A yes/no switch. */
export function flag(name: string, title: string, description: string, defaultValue: boolean): Field {
  return { name, schema: { type: 'boolean', title, description, default: defaultValue, examples: [defaultValue] }, required: false };
}

/** A whole number within a range. */
export function integer(name: string, title: string, description: string, range: [number, number], defaultValue: number, options: { required?: boolean; inBranch?: boolean } = {}): Field {
  const schema: JsonSchema = { type: 'integer', title, description, minimum: range[0], maximum: range[1], examples: [defaultValue] };
  if (!options.inBranch) schema.default = defaultValue;
  return { name, schema, required: options.required ?? false };
}

/** A list of strings (multi-select when `values` is given, free entries otherwise). */
export function list(name: string, title: string, description: string, examples: string[], values?: string[], defaultValues?: string[]): Field {
  const items: JsonSchema = values ? { type: 'string', enum: values } : { type: 'string', minLength: 1 };
  const schema: JsonSchema = { type: 'array', title, description, items, uniqueItems: true, examples: [examples] };
  if (values) schema['x-widget'] = 'multiselect';
  if (defaultValues) schema.default = defaultValues;
  return { name, schema, required: false };
}

/** A multi-line text (queries, filters, PEM blocks). */
export function multiline(name: string, title: string, description: string, examples: string[], options: FieldOptions = {}): Field {
  return stringField(name, title, description, { widget: 'textarea', minLength: 1, ...options, examples });
}
