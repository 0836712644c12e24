import { decryptSecret, encryptSecret } from '../auth/secretBox.js';

export const maskedSecret = '**********';
const sealedPrefix = 'v1.';

type Config = Record<string, unknown>;

function mapSecrets(config: Config, secretFields: Set<string>, change: (value: string, field: string) => unknown): Config {
  return Object.fromEntries(
    Object.entries(config).map(([field, value]) => {
      if (secretFields.has(field) && typeof value === 'string') return [field, change(value, field)];
      if (value && typeof value === 'object' && !Array.isArray(value)) return [field, mapSecrets(value as Config, secretFields, change)];
      return [field, value];
    }),
  );
}

/**
 * Puts back the secrets an edit form answered as `**********`, so editing without re-typing a secret keeps it.
 * Before: `{api_key: "**********", url: "https://y"}` with stored `{api_key: "k1", url: "https://x"}`; after: `{api_key: "k1", url: "https://y"}`.
 */
export function keepUnchangedSecrets(config: Config, stored: Config | null, secretFields: Set<string>): Config {
  const storedSecrets = new Map<string, string>();
  if (stored) mapSecrets(stored, secretFields, (value, field) => storedSecrets.set(field, value));
  return mapSecrets(config, secretFields, (value, field) => (value === maskedSecret ? (storedSecrets.get(field) ?? '') : value));
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
