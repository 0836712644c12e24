import { createHash, hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type ServerKeys = { tokenSigningKey: Uint8Array; secretsKey: Buffer };

function deriveKey(master: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), `cartograph:${purpose}`, 32));
}

/** The master key from CARTOGRAPH_SECRET_KEY, or from `secret.key` in the data folder (created 0600 on first start). */
function readMasterKey(secretKey: string | null, dataDir: string): Buffer {
  if (secretKey) return createHash('sha256').update(secretKey).digest();
  const keyFile = join(dataDir, 'secret.key');
  if (!existsSync(keyFile)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(keyFile, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  }
  chmodSync(keyFile, 0o600);
  return Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64');
}

/** Separate keys for signing access tokens and for encrypting secrets, both derived from one master key. */
export function loadServerKeys(secretKey: string | null, dataDir: string): ServerKeys {
  const master = readMasterKey(secretKey, dataDir);
  return { tokenSigningKey: deriveKey(master, 'access-tokens'), secretsKey: deriveKey(master, 'secrets') };
}
