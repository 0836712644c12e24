/**
 * Which fields of a sealed document are secrets, and which say where those secrets are sent: its destination. A stored
 * secret answered masked may come back masked only while the destination stays the one it was saved for
 * (`keepUnchangedSecrets`); otherwise anyone who may edit the document could point it at a listener of their own and
 * read the secret there.
 */
export type SecretRule = {
  /** Names of the fields marked `x-secret`, at any depth (including `oneOf` branches). */
  secretFields: Set<string>;
  /**
   * Names of the fields that say where the secrets go, each with its schema default (what leaving it out means).
   * Absent (a hand-built rule): every field that is not a secret counts as one.
   */
  destinationFields?: Map<string, unknown>;
  /** A secret field's title, for the message asking to type it again (else its name, humanised). */
  secretTitles?: Map<string, string>;
};

type PropertySchema = { 'x-secret'?: boolean; 'x-destination'?: boolean; format?: string; title?: string; default?: unknown; items?: { format?: string } };

// The destination of a document is named by a URL or by the pieces an address is made of: a host, its port, a tenant,
// domain or region the vendor's host name is built from, a proxy the calls go through, and the transport security
// (the scheme of an address given as host and port). Field names are matched so that all adapters are covered without
// marking each by hand; `x-destination: true` marks a field these names miss (tests/conformance checks the manifests).
const destinationNames = new Set([
  'url', 'uri', 'urls', 'host', 'hostname', 'hosts', 'server', 'servers', 'port', 'domain', 'subdomain', 'tenant', 'tenant_id',
  'region', 'regions', 'proxy', 'cloud', 'issuer', 'site', 'endpoint', 'security', 'tls_mode', 'starttls',
]);
const destinationSuffixes = ['_url', '_urls', '_uri', '_host', '_hostname', '_server', '_domain', '_subdomain', '_region', '_tenant', '_endpoint'];
const addressFormats = new Set(['uri', 'hostname', 'ipv4', 'ipv6']);

/** Whether a property says where a document's secrets are sent (a secret that is itself an address counts too). */
export function isDestinationField(name: string, property: PropertySchema): boolean {
  if (property['x-destination']) return true;
  if (destinationNames.has(name) || destinationSuffixes.some((suffix) => name.endsWith(suffix))) return true;
  return addressFormats.has(property.format ?? '') || addressFormats.has(property.items?.format ?? '');
}

function walkProperties(node: unknown, visit: (name: string, property: PropertySchema) => void): void {
  if (!node || typeof node !== 'object') return;
  const properties = (node as { properties?: Record<string, PropertySchema> }).properties ?? {};
  for (const [name, property] of Object.entries(properties)) if (property && typeof property === 'object') visit(name, property);
  for (const [key, child] of Object.entries(node)) if (key !== 'examples' && key !== 'default') walkProperties(child, visit);
}

/** The rule of a JSON schema: its `x-secret` fields, its destination fields (with defaults) and the secrets' titles. */
export function secretRuleOf(schema: unknown): Required<SecretRule> {
  const rule = { secretFields: new Set<string>(), destinationFields: new Map<string, unknown>(), secretTitles: new Map<string, string>() };
  walkProperties(schema, (name, property) => {
    if (property['x-secret']) {
      rule.secretFields.add(name);
      if (property.title && !rule.secretTitles.has(name)) rule.secretTitles.set(name, property.title);
    }
    if (isDestinationField(name, property) && (!rule.destinationFields.has(name) || rule.destinationFields.get(name) === undefined)) {
      rule.destinationFields.set(name, property.default);
    }
  });
  return rule;
}

// Ports a scheme uses when the URL names none, so `https://h` and `https://h:443` are one destination.
const defaultPorts: Record<string, string> = { 'http:': '80', 'https:': '443', 'ws:': '80', 'wss:': '443', 'ldap:': '389', 'ldaps:': '636', 'ftp:': '21', 'smtp:': '25', 'smtps:': '465' };

/**
 * What a destination value means as a place, for comparing an edit with what was stored. A URL is its scheme, host
 * (lower case, no trailing dot) and port (the scheme's default when not written): the path, query, fragment and user
 * part are left out, because a secret goes to whoever answers at that scheme+host+port whatever the path, and a
 * form's cosmetic edits (case of the host, `:443`, a trailing slash, another API path) must not ask for the secret
 * again. A host, domain, tenant or region is compared without case or a trailing dot; a list as its set of places.
 * Before: `HTTPS://Acme.Okta.com:443/api/`; after: `https://acme.okta.com:443`.
 */
export function destinationKey(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return JSON.stringify([...new Set(value.map(destinationKey))].sort());
  if (typeof value === 'object') return JSON.stringify(Object.keys(value).sort().map((key) => [key, destinationKey((value as Record<string, unknown>)[key])]));
  const text = String(value).trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text) && URL.canParse(text)) {
    const url = new URL(text);
    const hostname = url.hostname.toLowerCase().replace(/\.$/, '');
    return `${url.protocol}//${hostname}:${url.port || defaultPorts[url.protocol] || ''}`;
  }
  return text.toLowerCase().replace(/\.$/, '').replace(/\/+$/, '');
}

/** `API token` → "API token", `Password` → "password", `bind_password` → "bind password": how a message names a field. */
export function fieldLabel(rule: SecretRule, field: string): string {
  const title = rule.secretTitles?.get(field) ?? field.replace(/_/g, ' ');
  // An acronym keeps its capitals ("API token", "URL"); a word is written in lower case inside the sentence.
  return /^[A-Z]{2}/.test(title) ? title : title.charAt(0).toLowerCase() + title.slice(1);
}
