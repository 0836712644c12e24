import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decryptSecret, encryptSecret } from '../../src/server/auth/secretBox.js';
import { hashPassword, passwordPolicyErrors, verifyPassword } from '../../src/server/auth/passwords.js';
import { loadServerKeys } from '../../src/server/auth/serverKeys.js';
import { containsPattern } from '../../src/server/db/likePatterns.js';

describe('secret box (AES-256-GCM)', () => {
  const key = randomBytes(32);

  it('round-trips a secret and never stores it in clear', () => {
    const sealed = encryptSecret(key, 'client-secret-value');
    expect(sealed).not.toContain('client-secret-value');
    expect(sealed.startsWith('v1.')).toBe(true);
    expect(decryptSecret(key, sealed)).toBe('client-secret-value');
    expect(encryptSecret(key, 'same')).not.toBe(encryptSecret(key, 'same'));
  });

  it('refuses a tampered value or another key', () => {
    const sealed = encryptSecret(key, 'value');
    const tampered = `${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}A`;
    expect(() => decryptSecret(key, tampered)).toThrow();
    expect(() => decryptSecret(randomBytes(32), sealed)).toThrow();
    expect(() => decryptSecret(key, 'plain text')).toThrow(/Unrecognised/);
  });
});

describe('server keys', () => {
  it('derives different signing and encryption keys from one master key, the same on every start', () => {
    const first = loadServerKeys('master', '/nonexistent');
    const second = loadServerKeys('master', '/nonexistent');
    expect(Buffer.from(first.tokenSigningKey).equals(first.secretsKey)).toBe(false);
    expect(first.secretsKey.equals(second.secretsKey)).toBe(true);
  });
});

describe('passwords', () => {
  it('hashes with argon2id and verifies only the right password', async () => {
    const hashed = await hashPassword('a long enough passphrase');
    expect(hashed.startsWith('$argon2id$')).toBe(true);
    expect(await verifyPassword(hashed, 'a long enough passphrase')).toBe(true);
    expect(await verifyPassword(hashed, 'a long enough passphrasE')).toBe(false);
    expect(await verifyPassword(null, 'anything')).toBe(false);
    expect(await verifyPassword('not a hash', 'anything')).toBe(false);
  });

  it('applies the policy: length, username, common and numeric passwords', () => {
    expect(passwordPolicyErrors('short', 'jane')).toEqual(['This password is too short. It must contain at least 10 characters.']);
    expect(passwordPolicyErrors('jane-is-great-2026', 'jane')).toEqual(['The password is too similar to the username.']);
    expect(passwordPolicyErrors('Password123', 'jane')).toEqual(['This password is too common.']);
    expect(passwordPolicyErrors('31415926535', 'jane')).toEqual(['This password is entirely numeric.']);
    expect(passwordPolicyErrors('tr0ubadour & three horses', 'jane')).toEqual([]);
  });
});

describe('search patterns', () => {
  it('escapes LIKE wildcards so user text matches literally', () => {
    expect(containsPattern('50%_off\\')).toBe('%50\\%\\_off\\\\%');
  });
});
