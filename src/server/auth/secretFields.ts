import { decryptSecret, encryptSecret } from './secretBox.js';
import { Invalid } from '../errors.js';
import { destinationKey, fieldLabel, type SecretRule } from './secretRule.js';

export type { SecretRule } from './secretRule.js';

export const maskedSecret = '**********';
const sealedPrefix = 'v1.';

type Config = Record<string, unknown>;

function mapSecrets(config: Config, secretFields: Set<string>, change: (value: string, field: string, path: string) => unknown, prefix = ''): Config {
  return Object.fromEntries(
    Object.entries(config).map(([field, value]) => {
      if (secretFields.has(field) && typeof value === 'string') return [field, change(value, field, `${prefix}${field}`)];
      if (value && typeof value === 'object' && !Array.isArray(value)) return [field, mapSecrets(value as Config, secretFields, change, `${prefix}${field}.`)];
      return [field, value];
    }),
  );
}

/**
 * Every destination value of a document by its dotted path. A rule without destination fields (hand-built) counts
 * every value that is not a secret, so an edit of anything asks for its secrets again.
 */
function destinationsOf(config: Config, rule: SecretRule, found = new Map<string, { field: string; value: unknown }>(), prefix = '') {
  for (const [field, value] of Object.entries(config)) {
    const nested = Boolean(value) && typeof value === 'object' && !Array.isArray(value);
    const counted = rule.destinationFields ? rule.destinationFields.has(field) : !nested && !rule.secretFields.has(field);
    if (counted) found.set(`${prefix}${field}`, { field, value });
    else if (nested) destinationsOf(value as Config, rule, found, `${prefix}${field}.`);
  }
  return found;
}

/** Whether the document now names another place than the stored one (a field left out means its default). */
function destinationChanged(config: Config, stored: Config, rule: SecretRule): boolean {
  const now = destinationsOf(config, rule);
  const before = destinationsOf(stored, rule);
  const place = (entry: { field: string; value: unknown } | undefined, field: string) => destinationKey(entry?.value ?? rule.destinationFields?.get(field));
  return [...new Set([...now.keys(), ...before.keys()])].some((path) => {
    const field = (now.get(path) ?? before.get(path))!.field;
    return place(now.get(path), field) !== place(before.get(path), field);
  });
}

/**
 * Puts back the secrets an edit form answered as `**********`, so editing without re-typing a secret keeps it.
 * Before: `{api_key: "**********", timeout: 30}` with stored `{api_key: "k1", timeout: 60}`; after: `{api_key: "k1", timeout: 30}`.
 *
 * A stored secret goes back only to the destination it was saved for: when the edit names another place (a
 * destination field of `rule` differs, compared as `destinationKey` says, or `movedElsewhere`: another connector
 * would run it), each secret sent masked is refused with a 400 field error asking to type it again. Before:
 * `{api_key: "**********", url: "https://evil"}` with stored `{api_key: "k1", url: "https://x"}`; after: 400
 * `{"api_key": ["Re-enter the api key to send it to a new address."]}`.
 */
export function keepUnchangedSecrets(config: Config, stored: Config | null, rule: SecretRule, options: { movedElsewhere?: boolean } = {}): Config {
  const storedSecrets = new Map<string, string>();
  if (stored) mapSecrets(stored, rule.secretFields, (value, field) => storedSecrets.set(field, value));
  const resent: { field: string; path: string }[] = [];
  const kept = mapSecrets(config, rule.secretFields, (value, field, path) => {
    if (value !== maskedSecret) return value;
    const storedValue = storedSecrets.get(field) ?? '';
    if (storedValue) resent.push({ field, path });
    return storedValue;
  });
  // A secret that is itself the address (a chat webhook URL) is compared once put back: masked, it names the stored place.
  if (stored && resent.length && (options.movedElsewhere || destinationChanged(kept, stored, rule))) {
    throw new Invalid(Object.fromEntries(resent.map(({ field, path }) => [path, [`Re-enter the ${fieldLabel(rule, field)} to send it to a new address.`]])));
  }
  return kept;
}

/** The config as it is stored: every non-empty secret encrypted. */
export function sealSecrets(key: Buffer, config: Config, secretFields: Set<string>): Config {
  return mapSecrets(config, secretFields, (value) => (value ? encryptSecret(key, value) : value));
}

/** The config as the API answers it: every secret masked. */
export function maskSecrets(config: Config, secretFields: Set<string>): Config {
  return mapSecrets(config, secretFields, (value) => (value ? maskedSecret : ''));
}

/** The config an engine runs with: secrets decrypted. Never log the result. */
export function openSecrets(key: Buffer, config: Config, secretFields: Set<string>): Config {
  return mapSecrets(config, secretFields, (value) => (value.startsWith(sealedPrefix) ? decryptSecret(key, value) : value));
}
