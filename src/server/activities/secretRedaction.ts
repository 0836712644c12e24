import { allSchemas } from '../http/validators.js';

/**
 * Field names that are secret wherever they appear. The server log's redaction (pino, src/server/http/app.ts) is
 * built from this list; the activity log's before/after values redact these and every field a schema marks secret.
 */
export const alwaysSecretFields = ['password', 'new_password', 'old_password', 'token', 'access', 'secret', 'otp'];

/** What a secret is replaced by, in the server log and in the activity log alike. */
export const redactedValue = '[redacted]';

// A value sealed by secretBox (`v1.<iv>.<tag>.<ciphertext>`, base64url): secret whatever its field is called,
// which covers the action parameters whose secret fields depend on the action's type.
const sealedValue = /^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]*$/;

type SchemaNode = { [keyword: string]: unknown };

const isSecretProperty = (property: SchemaNode) => property['x-secret'] === true || property.writeOnly === true || property.format === 'password';

/** Collects, at any depth (nested objects, items, oneOf branches), the property names a schema marks secret. */
function collectSecretNames(node: unknown, names: Set<string>): void {
  if (Array.isArray(node)) {
    for (const item of node) collectSecretNames(item, names);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const properties = (node as SchemaNode).properties;
  if (properties && typeof properties === 'object' && !Array.isArray(properties)) {
    for (const [name, property] of Object.entries(properties as Record<string, SchemaNode>)) {
      if (property && typeof property === 'object' && isSecretProperty(property)) names.add(name.toLowerCase());
    }
  }
  for (const value of Object.values(node)) collectSecretNames(value, names);
}

let secretNames: Set<string> | null = null;

/**
 * Every field name that is secret somewhere: the fixed list and whatever any schema (entities, settings, API bodies,
 * adapters' connection forms) marks `x-secret`, `writeOnly` or `format: password`. A name secret in one schema is
 * redacted in all: a little too much is hidden rather than a secret shown.
 */
export function secretFieldNames(): Set<string> {
  if (!secretNames) {
    const names = new Set(alwaysSecretFields);
    for (const schema of allSchemas()) collectSecretNames(schema, names);
    secretNames = names;
  }
  return secretNames;
}

/**
 * A value with every secret replaced by `[redacted]`: fields of a secret name (a blank one stays blank, so "no
 * password" still reads as such) and any string that is a sealed secret.
 * Before: `{host: "smtp", password: "v1.…", port: 25}`; after: `{host: "smtp", password: "[redacted]", port: 25}`.
 */
export function redactSecrets(value: unknown, names: Set<string> = secretFieldNames()): unknown {
  if (typeof value === 'string') return sealedValue.test(value) ? redactedValue : value;
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, names));
  if (!value || typeof value !== 'object') return value;
  if (value instanceof Date) return value.toISOString();
  return Object.fromEntries(Object.entries(value).map(([field, item]) => {
    if (names.has(field.toLowerCase()) && item !== null && item !== '' && item !== undefined) return [field, redactedValue];
    return [field, redactSecrets(item, names)];
  }));
}
