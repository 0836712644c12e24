import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const version = 'v1';

/** Encrypts a secret with AES-256-GCM; the result is `v1.<iv>.<tag>.<ciphertext>` in base64url. */
export function encryptSecret(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [version, iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
}

/** Decrypts what encryptSecret produced; a tampered or foreign value throws. */
export function decryptSecret(key: Buffer, sealed: string): string {
  const [prefix, iv, tag, ciphertext] = sealed.split('.');
  if (prefix !== version || !iv || !tag || ciphertext === undefined) throw new Error('Unrecognised encrypted secret');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}
