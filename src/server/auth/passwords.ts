import { hash, verify } from '@node-rs/argon2';

// @node-rs/argon2's Algorithm.Argon2id (an ambient const enum, which isolated modules cannot read).
const argon2id = 2;
import { commonPasswords } from './commonPasswords.js';

export const minimumPasswordLength = 10;
const maximumPasswordLength = 256;

/** Hashes a password with argon2id (the library's recommended memory and time costs). */
export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: argon2id });
}

// Checked when a username does not exist, so a miss costs the same time as a wrong password.
const unknownUserHash = hashPassword('cartograph-unknown-user-placeholder');

/** True when `password` matches `passwordHash`; without a hash it still spends the time of one check. */
export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) {
    await verify(await unknownUserHash, password);
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** The policy's complaints about a new password, in English; empty when it is acceptable. */
export function passwordPolicyErrors(password: string, username: string): string[] {
  const errors: string[] = [];
  if (password.length < minimumPasswordLength) errors.push(`This password is too short. It must contain at least ${minimumPasswordLength} characters.`);
  if (password.length > maximumPasswordLength) errors.push(`This password is too long. It must contain at most ${maximumPasswordLength} characters.`);
  const lowered = password.toLowerCase();
  if (username && lowered.includes(username.toLowerCase())) errors.push('The password is too similar to the username.');
  if (commonPasswords.has(lowered)) errors.push('This password is too common.');
  if (/^\d+$/.test(password)) errors.push('This password is entirely numeric.');
  return errors;
}
